//===- Pdl.cpp - ts::pdl_wait() before grid-dependent data ----------------===//
//
// Each task alone (reference check 6): a task that fills a grid-dependent
// resource, or reads a gmem one, calls ts::pdl_wait() before its first op
// on it. Gmem reads are plain statements the model does not see, so there
// the wait must come before every pipeline op. The launch order is a
// happens-before question across tasks (Orders.cpp).
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {

using namespace detail;

namespace {

/// Index in T.Ops of the first op that needs the wait, or Ops.size().
size_t firstDependentUse(const Program &P, const Task &T, unsigned R) {
  bool Gmem = !isPipelined(P.Resources[R].Kind);
  for (size_t I = 0; I < T.Ops.size(); ++I)
    if (T.Ops[I].onResource() && (Gmem || T.Ops[I].Resource == R))
      return I;
  return T.Ops.size();
}

} // namespace

void checkPdlWaits(const Program &P, const Kernel &K, DiagList &Out) {
  if (K.PdlWaited)
    return;
  for (unsigned R : K.GridDependent) {
    const Resource &Res = P.Resources[R];
    bool Gmem = !isPipelined(Res.Kind);
    for (unsigned TI : K.Tasks) {
      const Task &T = P.Tasks[TI];
      if (!T.produces(R) && !(Gmem && T.consumes(R)))
        continue;
      auto Wait = std::find_if(T.Ops.begin(), T.Ops.end(), [](const Op &O) {
        return O.Kind == OpKind::PdlWait;
      });
      size_t Use = firstDependentUse(P, T, R);
      size_t WaitAt = size_t(Wait - T.Ops.begin());
      if (Wait != T.Ops.end() && WaitAt < Use)
        continue;
      bool None = Wait == T.Ops.end();
      SourceHandle At = Use < T.Ops.size() ? T.Ops[Use].Loc : T.Loc;
      Diag &D = report(Out, Check::Pdl, None ? T.Loc : Wait->Loc,
                       "task " + quote(T.Name) + " touches " + quote(Res.Name) +
                           ", which the previous grid writes, " +
                           (None ? "without calling ts::pdl_wait()"
                                 : "before this ts::pdl_wait()"));
      if (!None)
        note(D, At, "the first use is here");
      note(D, K.GridDependentLoc,
           quote(Res.Name) + " is declared grid-dependent here");
      note(D, None ? T.Loc : At,
           "call ts::pdl_wait() at the start of " + quote(T.Name) +
               ", or mark the kernel ts::pdl_waited if it waits outside the "
               "schedule");
    }
  }
}

} // namespace ts
