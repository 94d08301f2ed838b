//===- Registry.cpp - Every check of a kernel, in one table ---------------===//
#include "verify/Registry.h"
#include "verify/Nested.h"

namespace ts {

namespace {

using Plain = void (*)(const Program &, const Kernel &, DiagList &);
using Planned = void (*)(const Program &, const Kernel &, const KernelPlan &,
                         DiagList &);

/// Adapters to the rows' one signature, for checks that need no plan or
/// report only findings.
template <Plain F>
void run(const Program &P, const Kernel &K, const KernelPlan &,
         VerifyResult &R) {
  F(P, K, R.Diags);
}
template <Planned F>
void runPlanned(const Program &P, const Kernel &K, const KernelPlan &Plan,
                VerifyResult &R) {
  F(P, K, Plan, R.Diags);
}
void runProtocol(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 VerifyResult &R) {
  R.Sim = checkCredits(P, K, Plan, R.Diags, &R.Coverage);
}

} // namespace

const std::vector<CheckRow> &checkRegistry() {
  using C = Check;
  static const std::vector<CheckRow> Rows = {
      {"Targets",
       {C::Target},
       Scope::Kernel,
       true,
       false,
       runPlanned<checkTarget>},
      {"Umma",
       {C::Ownership, C::Roles},
       Scope::Kernel,
       true,
       false,
       runPlanned<checkUmma>},
      {"Cluster", {C::Cluster}, Scope::Kernel, false, false, run<checkCluster>},
      {"Pairs",
       {C::Cluster},
       Scope::Kernel,
       true,
       false,
       runPlanned<checkPairs>},
      {"Warps", {C::Warps}, Scope::View, false, false, runPlanned<checkWarps>},
      {"Registers",
       {C::Registers},
       Scope::View,
       false,
       false,
       runPlanned<checkRegisters>},
      {"RegisterPressure",
       {C::Pressure},
       Scope::View,
       false,
       false,
       run<checkRegisterPressure>},
      {"Roles", {C::Roles}, Scope::Kernel, true, false, run<checkRoles>},
      {"Bracketing",
       {C::Bracket},
       Scope::View,
       true,
       false,
       run<checkBracketing>},
      {"Domains",
       {C::Domain},
       Scope::View,
       true,
       false,
       runPlanned<checkDomains>},
      {"TileQueues",
       {C::Domain},
       Scope::Kernel,
       true,
       false,
       run<checkTileQueues>},
      {"Fixup", {C::Fixup}, Scope::Kernel, false, false, run<checkFixup>},
      {"Declarations",
       {C::Syntax},
       Scope::View,
       true,
       false,
       run<checkDeclarations>},
      {"Nested",
       {C::Domain},
       Scope::Kernel,
       true,
       true,
       runPlanned<checkNesting>},
      {"Stages",
       {C::Ownership, C::Token, C::UnusedToken},
       Scope::View,
       false,
       false,
       run<checkStages>},
      {"Turns", {C::Turn}, Scope::Kernel, true, false, runPlanned<checkTurns>},
      {"TmaBytes",
       {C::TmaBytes, C::TmaBox},
       Scope::Kernel,
       false,
       false,
       runPlanned<checkTmaBytes>},
      {"TmaStores",
       {C::TmaStore, C::RepeatedStore},
       Scope::Kernel,
       false,
       false,
       run<checkTmaStores>},
      {"ThreadBounds",
       {C::Domain},
       Scope::Kernel,
       false,
       false,
       run<checkThreadBounds>},
      {"Graph", {C::Graph}, Scope::View, false, false, run<checkGraph>},
      {"Pdl", {C::Pdl}, Scope::View, false, false, run<checkPdlWaits>},
      {"Capacity",
       {C::Capacity, C::Syntax},
       Scope::View,
       false,
       false,
       runPlanned<checkCapacity>},
      {"UnlistedTasks",
       {C::Unlisted},
       Scope::Unit,
       false,
       false,
       runPlanned<checkUnlistedTasks>},
      {"PairFile",
       {C::Cluster},
       Scope::Unit,
       false,
       false,
       runPlanned<checkPairFile>},
      {"TripCounts",
       {C::Credit, C::Bound, C::Domain, C::Race, C::Pdl},
       Scope::Protocol,
       false,
       false,
       runProtocol},
  };
  return Rows;
}

} // namespace ts
