//===- Graph.cpp - Declared dependency edges ------------------------------===//
//
// A declared edge documents that some task turns one resource into another;
// an edge no task realises is a stale or mistyped declaration.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

void checkGraph(const Program &P, const Kernel &K, DiagList &Out) {
  std::vector<Edge> Derived = deriveEdges(P, K);
  for (const Edge &E : K.DeclaredEdges) {
    bool Backed =
        std::any_of(Derived.begin(), Derived.end(), [&](const Edge &D) {
          return D.From == E.From && D.To == E.To;
        });
    if (Backed)
      continue;
    const std::string From = quote(P.Resources[E.From].Name);
    const std::string To = quote(P.Resources[E.To].Name);
    Diag &D = report(Out, Check::Graph, E.Loc,
                     "declared edge " + From + " -> " + To +
                         " is not backed by any task");
    note(D, E.Loc,
         "a task must consume " + From + " and produce " + To +
             "; fix the edge or the task's handles");
  }
}

} // namespace ts
