//===- Report.h - The schedule and verification report ----------*- C++ -*-===//
#ifndef LIBTS_LOWER_REPORT_H
#define LIBTS_LOWER_REPORT_H

#include "layout/Layout.h"
#include "model/Model.h"

#include <string>

namespace ts {

/// Tasks, graph, schedule table, layout and the verdict of one kernel.
/// `Table` is the rendered credit-simulation table; `Errors`/`Warnings`
/// count the findings after the user's -W flags.
std::string kernelReport(const Program &P, const Kernel &K,
                         const BlockLayout &L, const std::string &Table,
                         unsigned Errors, unsigned Warnings,
                         const std::string &TripsChecked);

} // namespace ts

#endif
