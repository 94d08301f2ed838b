//===- ThreadBounds.cpp - The threads of a task agree on its trip count ---===//
//
// Every warp of a task arrives on its pipelines' barriers once per
// iteration (the plan counts warps), so a domain bound that differs between
// the task's threads (threadIdx, the lane, an atomic's result: what the
// front end's Variance.cpp finds) breaks the arrival counts in any kernel.
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

void checkTaskBounds(const Task &T, DiagList &Out) {
  for (const Domain *Dom : T.domains()) {
    for (const Varying &V : Dom->Bounds.Varies) {
      if (!perThread(V) || uniformInTask(T, V))
        continue;
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
