//===- RegisterPressure.cpp - Thread work on a tiny register budget -------===//
//
// A budget below PressureBudget suits a TMA producer; a task that copies or
// reads stages with its threads on it spills (a bug users shipped).
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

void checkRegisterPressure(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Regs || *T.Regs >= PressureBudget)
      continue;
    // TMA producers only issue copies; threads that move or read stage
    // data need registers for it.
    auto Simt = std::find_if(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
      if (!O.onResource() || O.TileLoop) // ts::tiles moves one int
        return false;
      PipelineKind Kind = P.Resources[O.Resource].Kind;
      return O.Kind == OpKind::Work && isPipelined(Kind) &&
             (O.R == Role::Consumer || Kind == PipelineKind::AsyncAsync);
    });
    if (Simt == T.Ops.end())
      continue;
    const Resource &Res = P.Resources[Simt->Resource];
    Diag &D = report(Out, Check::Pressure, Simt->Loc,
                     "task " + quote(T.Name) + " " +
                         (Simt->R == Role::Consumer ? "reads" : "writes") +
                         " stages of " + quote(Res.Name) +
                         " with threads on a budget of " +
                         std::to_string(*T.Regs) + " registers");
    note(D, T.Loc,
         "a budget this small suits TMA producers; thread copies will spill: "
         "raise ts::regs to " +
             std::to_string(PressureBudget) +
             " or more, or produce the stage with TMA");
  }
}

} // namespace ts
