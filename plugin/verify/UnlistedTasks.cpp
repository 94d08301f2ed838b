//===- UnlistedTasks.cpp - Tasks no kernel runs, on warps left idle -------===//
//
// A [[ts::task]] that no kernel lists never runs. Where a kernel leaves the
// task's warps idle, leaving it out is the likely mistake (the H200 run of
// such a kernel wrote half its output): say so at the task.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {

using namespace detail;

void checkUnlistedTasks(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, DiagList &Out) {
  std::vector<bool> Listed(P.Tasks.size()), Busy(Plan.Warps);
  for (const Kernel &Other : P.Kernels)
    for (unsigned TI : Other.Tasks)
      Listed[TI] = true;
  for (unsigned TI : K.Tasks)
    for (unsigned W = P.Tasks[TI].FirstWarp;
         W < std::min(P.Tasks[TI].endWarp(), Plan.Warps); ++W)
      Busy[W] = true;
  for (size_t TI = 0; TI < P.Tasks.size(); ++TI) {
    const Task &T = P.Tasks[TI];
    if (Listed[TI] || T.endWarp() > Plan.Warps ||
        std::any_of(Busy.begin() + T.FirstWarp, Busy.begin() + T.endWarp(),
                    [](bool B) { return B; }))
      continue;
    Diag &D = report(Out, Check::Unlisted, T.Loc,
                     "task " + quote(T.Name) + " is in no kernel, and kernel " +
                         quote(K.Name) + " leaves its warps [" +
                         std::to_string(T.FirstWarp) + ", " +
                         std::to_string(T.endWarp()) + ") idle");
    note(D, K.Loc,
         "list it in ts::kernel(...) if " + quote(K.Name) +
             " should run it; otherwise remove its [[ts::task]]");
  }
}

} // namespace ts
