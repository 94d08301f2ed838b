//===- Warps.cpp - Warp ranges of a kernel's tasks ------------------------===//
//
// Every task owns a disjoint range of warps and the block must fit the
// target's thread limit; the generated dispatch relies on both.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

namespace {

/// Calls that every thread of the block, or of a warp group, must make: a
/// task whose warps are not all of them hangs there (bar.sync waits for
/// threads that never come) or faults (wgmma is .sync.aligned).
void checkCollectives(const Task &T, unsigned BlockWarps, DiagList &Out) {
  const std::string Warps = "warps " + range(T.FirstWarp, T.endWarp());
  if (T.BlockBarrier && (T.FirstWarp != 0 || T.NumWarps < BlockWarps)) {
    Diag &D = report(Out, Check::Warps, T.BlockBarrier,
                     "task " + quote(T.Name) + " calls " + T.BlockBarrierName +
                         "(), which waits for every thread of the block; the "
                         "other tasks' warps never call it");
    note(D, T.Loc,
         "the task runs on " + Warps + " of the block's " +
             range(0, BlockWarps) +
             "; use ts::sync_warpgroup() for the threads of a warp group, "
             "__syncwarp() for one warp");
  }
  if (T.WarpgroupCall && (T.FirstWarp % 4 != 0 || T.NumWarps % 4 != 0)) {
    Diag &D = report(Out, Check::Warps, T.WarpgroupCall,
                     quote(T.WarpgroupCallName) +
                         " must be called by every thread of a warp group, "
                         "but task " +
                         quote(T.Name) + " runs on " + Warps +
                         ", not whole warp groups");
    note(D, T.Loc,
         "give the task whole warp groups: ts::warps(first, count) with "
         "first and count multiples of 4");
  }
}

} // namespace

void checkWarps(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out) {
  if (K.Tasks.empty()) {
    Diag &D = report(Out, Check::Warps, K.Loc,
                     "kernel " + quote(K.Name) + " has no tasks");
    note(D, K.Loc, "call at least one [[ts::task]] function from the kernel");
    return;
  }

  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    const Task &T = P.Tasks[K.Tasks[I]];
    if (T.NumWarps == 0) {
      Diag &D = report(Out, Check::Warps, T.Loc,
                       "task " + quote(T.Name) + " has no warps");
      note(D, T.Loc,
           "give the task at least one warp with ts::warps(first, "
           "count)");
      continue;
    }
    // Report each overlap once, on the later task.
    for (size_t J = 0; J < I; ++J) {
      const Task &O = P.Tasks[K.Tasks[J]];
      if (O.NumWarps == 0)
        continue;
      if (T.FirstWarp >= O.endWarp() || O.FirstWarp >= T.endWarp())
        continue;
      Diag &D =
          report(Out, Check::Warps, T.Loc,
                 "warps " + range(T.FirstWarp, T.endWarp()) + " of task " +
                     quote(T.Name) + " overlap another task");
      note(D, O.Loc,
           "overlaps warps " + range(O.FirstWarp, O.endWarp()) + " of task " +
               quote(O.Name));
      note(D, T.Loc,
           "give each task its own warps with ts::warps(first, "
           "count)");
    }
  }

  for (unsigned TI : K.Tasks)
    if (P.Tasks[TI].NumWarps != 0)
      checkCollectives(P.Tasks[TI], Plan.Warps, Out);

  const Target &Tg = *Plan.Tgt;
  unsigned Warps = Plan.Warps;
  if (Warps * Tg.WarpThreads > Tg.MaxBlockThreads) {
    Diag &D =
        report(Out, Check::Warps, K.Loc,
               "kernel " + quote(K.Name) + " needs " + std::to_string(Warps) +
                   " warps (" + std::to_string(Warps * Tg.WarpThreads) +
                   " threads); a block holds at most " +
                   std::to_string(Tg.MaxBlockThreads) + " threads");
    note(D, K.Loc,
         "place the tasks within warps [0, " +
             std::to_string(Tg.MaxBlockThreads / Tg.WarpThreads) + ")");
  }
}

} // namespace ts
