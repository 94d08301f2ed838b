//===- VerifyUtil.h - Helpers shared by the checks --------------*- C++ -*-===//
//
// Internal to plugin/verify: message formatting and diag construction.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_VERIFYUTIL_H
#define LIBTS_VERIFY_VERIFYUTIL_H

#include "model/Diag.h"
#include "model/Model.h"

#include <string>

namespace ts {
namespace detail {

inline uint64_t roundUp(uint64_t V, uint64_t A) {
  return A ? (V + A - 1) / A * A : V;
}

/// "[a, b)" as in warp ranges of messages.
inline std::string range(unsigned Begin, unsigned End) {
  return "[" + std::to_string(Begin) + ", " + std::to_string(End) + ")";
}

inline std::string quote(const std::string &S) { return "'" + S + "'"; }

/// "1 stage", "3 stages".
inline std::string plural(uint64_t N, const std::string &Word) {
  return std::to_string(N) + " " + Word + (N == 1 ? "" : "s");
}

inline Diag &report(DiagList &Out, Check G, SourceHandle Loc,
                    std::string Message) {
  Out.push_back(Diag{G, Loc, std::move(Message), {}});
  return Out.back();
}

inline void note(Diag &D, SourceHandle Loc, std::string Message) {
  D.Notes.push_back(DiagNote{Loc, std::move(Message)});
}

/// Whether the read differs between the CTAs of one cluster of K.
inline bool variesInCluster(const Kernel &K, const Varying &V) {
  switch (V.Src) {
  case Varying::Source::CtaIndex:
    return K.Cluster[V.Dim] > 1 && V.Divisor % K.Cluster[V.Dim] != 0;
  case Varying::Source::ClusterRank:
    return K.clusterCtas() > 1;
  case Varying::Source::ThreadIndex:
  case Varying::Source::Thread:
  case Varying::Source::Warp:
    return true;
  }
  return true;
}

/// Whether T repeats ops in a domain loop (its trip count matters).
inline bool loops(const Task &T) {
  for (const Op &O : T.Ops)
    if (O.Sec == Section::Loop)
      return T.Dom.Present;
  return false;
}

inline std::string domainText(const Domain &D) {
  if (D.Dynamic)
    return "ts::" + D.EndText;
  return "ts::domain(" + D.StartText + ", " + D.EndText + ", " + D.StepText +
         ")";
}

} // namespace detail
} // namespace ts

#endif
