//===- HtmlParts.h - The pictures of the HTML report ------------*- C++ -*-===//
//
// Internal to the report layer: each function draws one figure of a
// kernel's section as inline SVG (Html.cpp puts them on the page).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_REPORT_HTMLPARTS_H
#define LIBTS_REPORT_HTMLPARTS_H

#include "report/Html.h"

#include <string>
#include <vector>

namespace ts {

/// Whether a simulation step names an op of `P` (the program the run was
/// made on): a step of another program is skipped, never dereferenced.
inline bool validStep(const Program &P, const SimStep &St) {
  return St.Task < P.Tasks.size() && St.OpIndex < P.Tasks[St.Task].Ops.size();
}

/// One event of a counterexample, placed on the timeline.
struct TraceMark {
  unsigned Step = 0;
  unsigned Task = 0; ///< Program task index.
  std::string Label; ///< Its number in the trace.
  std::string Title;
};

/// The events of `D.Trace` found, in order, among the executed steps of
/// `S` (the run the trace came from; events of another run find nothing).
/// `P` is the program the run was made on (VerifyResult::simProgram).
std::vector<TraceMark> traceMarks(const Program &P, const SimResult &S,
                                  const Diag &D, unsigned Finding);

/// Tasks and resources as nodes, ranked left to right along the data flow;
/// `Id` keeps marker ids unique on the page.
std::string graphSvg(const Program &P, const Kernel &K, const std::string &Id);

/// One lane per task, one column per simulation step, then one lane per
/// pipelined resource with its stages in flight. `P` as for traceMarks.
std::string timelineSvg(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, const SimResult &S,
                        const std::vector<TraceMark> &Marks);

/// Short op names that fit a timeline cell ("acquire", "mma.wait").
const char *shortOpName(OpKind K);

/// "H", "L", "LF", "LL", "L>", "L<", "T": as in the schedule table; "I"
/// for an op of a nested domain loop.
const char *opTag(const Op &O);

} // namespace ts

#endif
