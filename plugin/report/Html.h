//===- Html.h - One self-contained HTML page per TU ------------*- C++ -*-===//
//
// The report drawn: per kernel the task/resource graph, the schedule as a
// timeline with the stages in flight, the shared-memory layout and the
// register budgets to scale, and the findings with their counterexample
// marked on the timeline. Inline SVG and CSS only: no scripts, nothing
// fetched, so the page opens anywhere (a CI artifact, a mail attachment).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_REPORT_HTML_H
#define LIBTS_REPORT_HTML_H

#include "model/Diag.h"
#include "model/Model.h"
#include "plan/Plan.h"
#include "report/Json.h"
#include "verify/Verify.h"

#include <functional>
#include <string>
#include <vector>

namespace ts {

/// One kernel of the page (the plugin's analysis, without clang types).
struct HtmlKernel {
  const Kernel *K = nullptr;
  const KernelPlan *Plan = nullptr;
  const VerifyResult *Verify = nullptr;
};

/// Maps a finding to "error", "warning" or "" (ignored: left out).
using LevelOf = std::function<const char *(const Diag &)>;

/// The whole page. `Title` names the translation unit.
std::string htmlReport(const std::string &Title, const Program &P,
                       const std::vector<HtmlKernel> &Kernels,
                       const Locator &Where, const LevelOf &Level,
                       const SourceLines &Lines = {});

//===-- Geometry, separate from drawing so tests can check it ------------===//

/// One piece of the shared-memory bar, in bytes from the aligned base.
struct SmemSegment {
  enum Kind {
    Stage,
    StagePadding,
    AlignPadding,
    Barriers,
    LaunchSlack,
    Free,
    Overflow
  };
  Kind K = Stage;
  std::string Label;
  uint64_t Offset = 0, Bytes = 0;
  /// Alias phases share bytes: each overlapping one gets a row of its own.
  unsigned Row = 0;
};

struct SmemBar {
  uint64_t Scale = 1; ///< Bytes the full width stands for.
  unsigned Rows = 1;
  std::vector<SmemSegment> Segments; ///< In offset order per row.
};

/// Stages (payload and padding up to the stride), gaps between alignment
/// classes, barriers, the launch's alignment slack, and what is left of the
/// capacity (or what exceeds it). The width is max(capacity, launch size).
SmemBar smemBar(const Program &P, const Kernel &K, const KernelPlan &Plan);

/// The registers of one warp group: setmaxnreg budgets where tasks set
/// them, the launch's baseline elsewhere.
struct RegisterGroupUse {
  unsigned Index = 0;
  unsigned FirstWarp = 0, EndWarp = 0;
  std::vector<const Task *> Tasks; ///< Kernel order, then padding.
  std::vector<unsigned> PerWarp;   ///< Registers per thread of each warp.
  bool Budgeted = false;           ///< Some warp runs under a ts::regs budget.
  uint64_t Registers = 0;          ///< Sum over the group's threads.
};

struct RegisterUse {
  std::vector<RegisterGroupUse> Groups;
  uint64_t Total = 0;
  uint64_t File = 0; ///< The register file (65536 on sm_90).
  unsigned Baseline = 0;
};

/// The sum the ts-registers check bounds, per warp group.
RegisterUse registerUse(const Program &P, const Kernel &K,
                        const KernelPlan &Plan);

/// Stages of one resource after one step of the credit simulation.
struct StageCounts {
  unsigned Filling = 0;  ///< Acquired by a producer, not yet committed by all.
  unsigned Full = 0;     ///< Committed, no consumer has taken it yet.
  unsigned Draining = 0; ///< Taken by a consumer, not yet released by all.
  unsigned inFlight() const { return Filling + Full + Draining; }
};

/// Per pipelined resource (KernelPlan::Pipelines order), the stage counts
/// after each step 0..last step of `S`; `P` is the program `S` ran on.
std::vector<std::vector<StageCounts>> stagesInFlight(const Program &P,
                                                     const Kernel &K,
                                                     const KernelPlan &Plan,
                                                     const SimResult &S);

} // namespace ts

#endif
