//===- Report.h - The schedule and verification report ----------*- C++ -*-===//
//
// Every human-readable output of a kernel: the report, its schedule table,
// the layout table and the dependency graph in DOT.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_REPORT_REPORT_H
#define LIBTS_REPORT_REPORT_H

#include "model/Model.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <string>

namespace ts {

/// Tasks, graph, schedule table, layout and the verdict of one kernel.
/// `Errors`/`Warnings` count the findings after the user's -W flags.
std::string kernelReport(const Program &P, const Kernel &K,
                         const KernelPlan &Plan, const VerifyResult &V,
                         unsigned Errors, unsigned Warnings);

/// Schedule table: one column per task, one row per simulation step.
std::string scheduleTable(const Program &P, const Kernel &K,
                          const SimResult &S);

/// `[smem-layout]` table: names, sizes, offsets, arrival counts.
/// The ts::tmem resources' columns and the allocation ("" without any).
std::string tmemReport(const Program &P, const Kernel &K,
                       const KernelPlan &Plan);
std::string layoutReport(const Program &P, const Kernel &K,
                         const KernelPlan &Plan);

/// Dependency graph in Graphviz DOT (derived edges solid, declared dashed).
std::string graphDot(const Program &P, const Kernel &K);

} // namespace ts

#endif
