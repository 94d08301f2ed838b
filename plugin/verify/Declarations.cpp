//===- Declarations.cpp - Kernel-level declarations name used resources ---===//
//
// ts::alias and ts::grid_dependent on a kernel name resources; one that no
// task of the kernel uses is a mistake (a renamed resource, a wrong kernel),
// never something to ignore.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {

using namespace detail;

namespace {

void requireUsed(const Program &P, const std::vector<unsigned> &Used,
                 unsigned R, SourceHandle Loc, const char *What,
                 const Kernel &K, DiagList &Out) {
  if (std::find(Used.begin(), Used.end(), R) != Used.end())
    return;
  Diag &D = report(Out, Check::Syntax, Loc,
                   std::string(What) + " names " + quote(P.Resources[R].Name) +
                       ", which no task of kernel " + quote(K.Name) + " uses");
  note(D, P.Resources[R].Loc,
       "remove it, or give a task of the kernel a handle to it");
}

} // namespace

void checkDeclarations(const Program &P, const Kernel &K, DiagList &Out) {
  std::vector<unsigned> Used = kernelResources(P, K);
  for (const AliasGroup &G : K.Aliases)
    for (unsigned R : G.Phases)
      requireUsed(P, Used, R, G.Loc, "ts::alias", K, Out);
  for (unsigned R : K.GridDependent)
    requireUsed(P, Used, R, K.GridDependentLoc, "ts::grid_dependent", K, Out);
}

} // namespace ts
