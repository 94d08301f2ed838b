//===- ExtractKernelOptions.cpp - Alias groups and PDL on [[ts::kernel]] --===//
//
// ts::alias<Phases...>, ts::grid_dependent<Resources...>, ts::pdl_waited,
// ts::trip_bound(N), ts::cluster_shape(x, y, z) and ts::target(arch).
// Each argument is used or rejected here: repeated resources, non-pipelined
// phases and a resource in two alias groups are errors at the argument.
//
//===----------------------------------------------------------------------===//
#include "frontend/DiagEmitter.h"
#include "frontend/Extractor.h"
#include "frontend/Vocabulary.h"
#include "plan/Target.h"

using namespace clang;

namespace ts {

std::optional<std::vector<unsigned>>
Extractor::resourceList(QualType Ty, StringRef Template, SourceLocation L) {
  std::vector<unsigned> Out;
  bool Ok = true;
  for (QualType R : tsTemplateTypes(Ty, Template)) {
    std::optional<unsigned> Index = resourceOf(R, L);
    if (!Index) {
      Ok = false;
      continue;
    }
    if (std::find(Out.begin(), Out.end(), *Index) != Out.end()) {
      error(L, "resource '" + X.P.Resources[*Index].Name + "' is listed twice",
            "list each resource once");
      Ok = false;
      continue;
    }
    Out.push_back(*Index);
  }
  return Ok ? std::optional(Out) : std::nullopt;
}

void Extractor::aliasOption(QualType Ty, SourceLocation L, Kernel &K) {
  auto Phases = resourceList(Ty, "alias_t", L);
  if (!Phases)
    return;
  if (Phases->size() < 2) {
    error(L, "ts::alias needs at least two resources",
          "write ts::alias<First, Second, ...>: the resources that take turns "
          "using one buffer, in the order they run");
    return;
  }
  for (unsigned R : *Phases) {
    const Resource &Res = X.P.Resources[R];
    if (!isPipelined(Res.Kind)) {
      bool Owned = Res.Kind == PipelineKind::TaskOwned;
      error(
          L,
          "'" + Res.Name + "' " +
              (Owned
                   ? "is task-owned: the schedule does not show when it is used"
                   : "has no shared memory to alias"),
          "only pipelined resources (tma_async, async_async) can share bytes, "
          "since the "
          "verifier proves each phase ends from their stage hand-backs",
          fromHandle(Res.Loc));
      return;
    }
    for (const AliasGroup &G : K.Aliases)
      if (std::find(G.Phases.begin(), G.Phases.end(), R) != G.Phases.end()) {
        error(L, "'" + Res.Name + "' is in two ts::alias groups",
              "list every phase of one buffer in a single ts::alias<...>",
              fromHandle(G.Loc));
        return;
      }
  }
  K.Aliases.push_back({std::move(*Phases), toHandle(L)});
}

void Extractor::clusterOption(const Expr *E, SourceLocation L, Kernel &K) {
  auto V = evaluate(E, "ts::cluster_shape");
  if (!V)
    return;
  if (K.ClusterLoc) {
    error(L, "ts::cluster_shape is given twice",
          "give the kernel one cluster shape", fromHandle(K.ClusterLoc));
    return;
  }
  int64_t D[3] = {field(*V, 0), field(*V, 1), field(*V, 2)};
  std::string Shape = "(" + std::to_string(D[0]) + ", " + std::to_string(D[1]) +
                      ", " + std::to_string(D[2]) + ")";
  if (D[0] < 1 || D[1] < 1 || D[2] < 1) {
    error(L, "ts::cluster_shape" + Shape + " has an extent below 1",
          "every cluster dimension holds at least one CTA");
    return;
  }
  // Clusters up to this size launch on every part without opting in.
  std::string Portable = std::to_string(targetSm90a().PortableClusterCtas);
  if (D[0] * D[1] * D[2] > targetSm90a().PortableClusterCtas) {
    error(L,
          "ts::cluster_shape" + Shape + " has " +
              std::to_string(D[0] * D[1] * D[2]) +
              " CTAs, more than the portable cluster size of " + Portable,
          "use a cluster of at most " + Portable + " CTAs");
    return;
  }
  for (int I = 0; I < 3; ++I)
    K.Cluster[I] = unsigned(D[I]);
  K.ClusterLoc = toHandle(L);
}

void Extractor::targetOption(const Expr *E, SourceLocation L, Kernel &K) {
  auto V = evaluate(E, "ts::target");
  if (!V)
    return;
  if (K.TargetLoc) {
    error(L, "ts::target is given twice", "give the kernel one target",
          fromHandle(K.TargetLoc));
    return;
  }
  int64_t A = field(*V, 0);
  if (A != 90 && A != 100) {
    error(L, std::to_string(A) + " is not a ts::target_arch",
          "use ts::sm_90a or ts::sm_100a");
    return;
  }
  K.Arch = A == 100 ? TargetArch::Sm100a : TargetArch::Sm90a;
  K.TargetLoc = toHandle(L);
}

bool Extractor::kernelOption(const Expr *E, SourceLocation L, Kernel &K) {
  QualType Ty = E->getType();
  if (tsRecord(Ty, "cluster_shape_t")) {
    clusterOption(E, L, K);
    return true;
  }
  if (tsRecord(Ty, "alias_t")) {
    aliasOption(Ty, L, K);
    return true;
  }
  if (tsRecord(Ty, "grid_dependent_t")) {
    if (K.GridDependentLoc) {
      error(L, "ts::grid_dependent is given twice",
            "list every resource the previous grid writes in one "
            "ts::grid_dependent<...>",
            fromHandle(K.GridDependentLoc));
      return true;
    }
    K.GridDependentLoc = toHandle(L);
    if (auto Rs = resourceList(Ty, "grid_dependent_t", L))
      K.GridDependent = std::move(*Rs);
    for (unsigned R : K.GridDependent)
      if (X.P.Resources[R].Kind == PipelineKind::TaskOwned)
        error(L,
              "'" + X.P.Resources[R].Name +
                  "' is task-owned shared memory, which no grid "
                  "before this one can write",
              "list the resources whose data the previous grid writes (gmem "
              "ones, or "
              "pipelines that load it)",
              fromHandle(X.P.Resources[R].Loc));
    if (K.GridDependent.empty() &&
        !tsTemplateTypes(Ty, "grid_dependent_t").size())
      error(L, "ts::grid_dependent lists no resource",
            "write ts::grid_dependent<R, ...> with the resources the previous "
            "grid writes");
    return true;
  }
  if (tsRecord(Ty, "trip_bound_t")) {
    auto V = evaluate(E, "ts::trip_bound");
    if (!V)
      return true;
    int64_t N = field(*V, 0);
    if (N < 1 || N > (1 << 20))
      error(L, "ts::trip_bound(" + std::to_string(N) + ") is out of range",
            "give a trip count between 1 and 1048576");
    else if (K.TripBoundOptOut)
      error(L, "ts::trip_bound is given twice", "give it once",
            fromHandle(K.TripBoundOptOut));
    else {
      K.TripBound = uint64_t(N);
      K.TripBoundOptOut = toHandle(L);
    }
    return true;
  }
  if (tsRecord(Ty, "target_t")) {
    targetOption(E, L, K);
    return true;
  }
  if (tsRecord(Ty, "pdl_waited_t")) {
    if (K.PdlWaited)
      error(L, "ts::pdl_waited is given twice", "give it once");
    K.PdlWaited = true;
    return true;
  }
  return false;
}

} // namespace ts
