//===- ThreadBounds.cpp - The threads of a task agree on its trip count ---===//
//
// Every warp of a task arrives on its pipelines' barriers once per
// iteration (the plan counts warps), so a domain bound that differs between
// the task's threads (threadIdx, the lane, an atomic's result: what the
// front end's Variance.cpp finds) breaks the arrival counts in any kernel.
// One that is the same in the task's threads but reads their position
// differs between tasks on other warps, which exchange stages with it.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

namespace {

/// threadIdx.x / D with D a multiple of the task's span can still be one
/// value in all of its threads (warps [F, F + N): threads 32F to 32(F+N)-1).
bool uniformInTask(const Task &T, const Varying &V) {
  if (V.Src == Varying::Source::Warp) // broadcast within each warp
    return T.NumWarps == 1;
  if (V.Src != Varying::Source::ThreadIndex || V.Dim != 0)
    return false;
  return (32 * T.FirstWarp) / V.Divisor == (32 * T.endWarp() - 1) / V.Divisor;
}

/// A bound read from the thread's position that is one value in this task
/// is another in a task on other warps: the tasks' trip counts differ
/// though their bounds read the same (a hang at the producer's drain, seen
/// on the H200, session 30).
void reportPerTask(const Task &T, const Domain &Dom, const Varying &V,
                   DiagList &Out) {
  Diag &D = report(Out, Check::Domain, Dom.Loc,
                   "the trip count of this ts::domain loop of task " +
                       quote(T.Name) + " depends on which warps run the task");
  note(D, V.Loc,
       "it depends on " + V.What +
           ": one value in this task's threads, another in a task on other "
           "warps, so tasks that exchange stages would run different counts");
  note(D, Dom.Loc,
       "bound the loop by values every task shares (kernel parameters, "
       "blockIdx, the tile)");
}

void checkTaskBounds(const Task &T, DiagList &Out) {
  for (const Domain *Dom : T.domains()) {
    for (const Varying &V : Dom->Bounds.Varies) {
      if (!perThread(V))
        continue;
      if (uniformInTask(T, V)) {
        // A lane's value broadcast by __shfl_sync is not recorded, only
        // that it is one per warp (the same in every task when the lane
        // read its own index modulo 32, as test/lit/verify/shfl-uniform.cu).
        if (V.Src != Varying::Source::ThreadIndex)
          continue;
        reportPerTask(T, *Dom, V, Out);
        break;
      }
      Diag &D = report(Out, Check::Domain, Dom->Loc,
                       "the trip count of this ts::domain loop of task " +
                           quote(T.Name) + " may differ between its threads");
      note(D, V.Loc,
           "it depends on " + V.What + ", which differs between threads");
      note(D, Dom->Loc,
           "each warp of the task arrives on its pipelines' barriers once per "
           "iteration; "
           "bound the loop by values every thread shares (kernel parameters, "
           "blockIdx, a value broadcast through shared memory before the loop, "
           "or by __shfl_sync in a task of one warp)");
      break;
    }
  }
}

} // namespace

void checkThreadBounds(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    bool Pipelined = false;
    for (const std::vector<unsigned> *Rs : {&T.Produces, &T.Consumes})
      for (unsigned R : *Rs)
        Pipelined |= isPipelined(P.Resources[R].Kind);
    if (Pipelined)
      checkTaskBounds(T, Out);
  }
}

} // namespace ts
