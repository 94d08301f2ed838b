//===- PairFile.cpp - One tcgen05 CTA group per file ----------------------===//
//
// The rewrite of a file defines LIBTS_CTA_GROUP once (include/ts/tcgen05.h),
// so every tcgen05 kernel of the file must take the same group: all
// ts::cta_pair or none.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

void checkPairFile(const Program &P, const Kernel &K, const KernelPlan &,
                   DiagList &Out) {
  auto Group = [&](const Kernel &X) {
    unsigned G = 0;
    for (unsigned R : kernelResources(P, X))
      if (isUmma(P.Resources[R].Kind))
        G = std::max(G, P.Resources[R].Pair ? 2u : 1u);
    return G;
  };
  unsigned Mine = Group(K);
  if (!Mine)
    return;
  for (const Kernel &Other : P.Kernels) {
    if (Other.Loc == K.Loc)
      return; // only earlier kernels: each clash is reported once
    unsigned Theirs = Group(Other);
    if (!Theirs || Theirs == Mine)
      continue;
    Diag &D = report(Out, Check::Cluster, K.Loc,
                     "kernel " + quote(K.Name) +
                         " uses cta_group::" + std::to_string(Mine) +
                         " tcgen05 resources, kernel " + quote(Other.Name) +
                         " of this file cta_group::" + std::to_string(Theirs));
    note(D, Other.Loc,
         "the CTA group is chosen per file (the rewrite defines "
         "LIBTS_CTA_GROUP): put CTA-pair kernels and one-CTA tcgen05 kernels "
         "in separate files");
    return;
  }
}

} // namespace ts
