//===- TmaBytes.cpp - Armed transaction bytes must arrive -----------------===//
//
// Acquiring a tma_async stage arms its transaction bytes; only TMA loads
// deliver them. A stage committed without a load on every path leaves its
// consumers waiting forever (tile-ai/tilelang #2566).
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

void checkTmaBytes(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned R : T.Produces) {
      const Resource &Res = P.Resources[R];
      if (Res.Kind != PipelineKind::TmaAsync)
        continue;
      // Brackets are checked elsewhere: here, each acquire up to the next
      // commit of R in op order (head, loop body, tail).
      const Op *Open = nullptr;
      bool Loaded = false;
      const Op *Skippable = nullptr;
      for (Section S : {Section::Head, Section::Loop, Section::Tail})
        for (const Op &O : T.Ops) {
          if (O.Sec != S || O.Resource != R || O.R != Role::Producer)
            continue;
          if (O.Kind == OpKind::Acquire) {
            Open = &O;
            Loaded = false;
            Skippable = nullptr;
          } else if (O.Kind == OpKind::Work && Open) {
            Loaded |= O.TmaLoad && O.G == Open->G;
            if (O.TmaLoadMaybeSkipped && !Skippable)
              Skippable = &O;
          } else if (O.Kind == OpKind::Commit && Open) {
            if (!Loaded) {
              std::string Bytes = std::to_string(Res.TxBytes);
              Diag &D = report(
                  Out, Check::TmaBytes, Skippable ? Skippable->Loc : Open->Loc,
                  Skippable ? "TMA load into " + quote(Res.Name) +
                                  " may be skipped, but its stage is committed anyway"
                            : "stage of " + quote(Res.Name) +
                                  " is committed without a TMA load");
              note(D, Open->Loc,
                   "acquire armed " + Bytes +
                       " transaction bytes here; only TMA loads deliver them, "
                       "so consumers of an undelivered stage wait forever");
              note(D, O.Loc,
                   Skippable ? "issue the load on every path between acquire "
                               "and commit (guard the work around it, not the "
                               "load)"
                             : "call ts::tma::load_*(..., s.barrier()) in the "
                               "task between acquire and commit");
            }
            Open = nullptr;
          }
        }
    }
  }
}

} // namespace ts
