//===- Json.h - Machine-readable kernel report ------------------*- C++ -*-===//
//
// The same facts as the text report, for tools: tasks with their schedules,
// resources with layout and derived arrival counts, edges, and findings.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_REPORT_JSON_H
#define LIBTS_REPORT_JSON_H

#include "model/Diag.h"
#include "model/Model.h"
#include "plan/Plan.h"

#include <functional>
#include <string>

namespace ts {

/// The report is {"format": "libts-report", "version": JsonFormatVersion,
/// "libts": "<package version>", "kernels": [...]}; the version grows when
/// a field changes meaning or goes away (docs/using.md).
constexpr unsigned JsonFormatVersion = 1;

/// Renders a source handle as "file:line:col" (the front end knows how).
using Locator = std::function<std::string(SourceHandle)>;

/// The source line a handle points into, as written ("" for none, or for
/// code libts generated: never shown as the user's).
using SourceLines = std::function<std::string(SourceHandle)>;

/// One JSON object for a kernel. `Level` maps a finding to "error",
/// "warning" or "" (ignored, left out).
std::string kernelJson(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, const DiagList &Findings,
                       const Locator &Where,
                       const std::function<const char *(const Diag &)> &Level);

} // namespace ts

#endif
