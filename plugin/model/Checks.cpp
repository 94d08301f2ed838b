//===- Checks.cpp - The table of every check ------------------------------===//
//
// Severity policy, report, JSON and the docs' tables all read this table;
// test/unit/ChecksTest.cpp holds README.md and docs/verifier.md to it.
//
//===----------------------------------------------------------------------===//
#include "model/Diag.h"

namespace ts {

const std::vector<CheckInfo> &checkTable() {
  static const std::vector<CheckInfo> Table = {
      {Check::Syntax, "ts-syntax", true,
       "malformed attributes, operations the model cannot follow", "ts-syntax"},
      {Check::Warps, "ts-warps", true, "warp ranges disjoint, inside the block",
       "ts-warps"},
      {Check::Registers, "ts-registers", true,
       "budgets equal per 4-warp group, multiples of 8 in [24, 256], sum <= "
       "65536",
       "ts-registers"},
      {Check::Roles, "ts-roles", true,
       "consumer handles only wait/release, producers only acquire/commit; "
       "every "
       "pipeline has both",
       "ts-roles"},
      {Check::Bracket, "ts-bracketing", true,
       "work on a stage only while the task holds one; pairs guarded alike",
       "ts-bracketing"},
      {Check::Graph, "ts-graph", true, "every declared edge backed by a task",
       "ts-graph"},
      {Check::Capacity, "ts-capacity", true,
       "shared memory (data + barriers) within the kernel's capacity",
       "ts-capacity"},
      {Check::Credit, "ts-credit", true,
       "no deadlock and balanced stages at every trip count", "ts-credit"},
      {Check::Ownership, "ts-ownership", true,
       "a stage is used only while held and handed back once, in an order "
       "the barriers allow",
       "ts-ownership"},
      {Check::Token, "ts-token", true,
       "a try_ token reaches exactly the next blocking op of its handle, same "
       "iteration",
       "ts-token"},
      // A try_ only tests a barrier: one whose token nothing uses changes
      // nothing, so it is a warning, not an error.
      {Check::UnusedToken, "ts-unused-token", false,
       "a try_ whose token no blocking op of the same iteration uses",
       "ts-unused-token"},
      {Check::TmaStore, "ts-tma-store", true,
       "a TMA store's source is fenced by its writers and passed through a "
       "barrier before one thread issues it, and not written again until "
       "the store has read it",
       "ts-tma-store"},
      // Storing a tile once per warp is correct, only wasteful.
      {Check::RepeatedStore, "ts-repeated-store", false,
       "a TMA store issued by every warp (or thread) of a task stores the "
       "same tile that many times",
       "ts-repeated-store"},
      {Check::TmaBytes, "ts-tma-bytes", true,
       "every committed tma_async stage gets a ts::tma::load on every path, "
       "into "
       "every member of an armed payload",
       "ts-tma-bytes"},
      // The bytes are still checked, against the destination taken as the
      // box; only the host's encode can break that, so a warning.
      {Check::TmaBox, "ts-tma-box", false,
       "a TMA load into a stage through a plain CUtensorMap, whose box the "
       "host sets: declare it a ts::tma::map to have the box checked",
       "ts-tma-box"},
      {Check::Turn, "ts-turn", true,
       "a ts::turns ring has positions 0 .. n-1 (n >= 2), and each task "
       "takes the turn and passes it on in pairs, in one loop body",
       "ts-turn"},
      {Check::Fixup, "ts-fixup", true,
       "every segment of a ts::stream_k partition is settled once, in the "
       "task's loop over the partition's segments, by whole warpgroups, "
       "after the MMAs that fill its accumulators",
       "ts-fixup"},
      {Check::Target, "ts-target", true,
       "a kernel uses only what its target has: tensor memory needs "
       "ts::target(ts::sm_100a), and wgmma exists on sm_90a only",
       "ts-target"},
      {Check::Race, "ts-race", true,
       "aliased resources (ts::alias) take turns: every use of a phase happens "
       "before the next phase's first use",
       "ts-race"},
      {Check::Pdl, "ts-pdl", true,
       "tasks pdl_wait() before touching grid-dependent data; no "
       "pdl_launch_dependents() before some pdl_wait()",
       "ts-pdl"},
      {Check::Cluster, "ts-cluster", true,
       "TMA multicast fills only ts::multicast resources, every CTA of the "
       "kernel's cluster with its own share, and those CTAs run the same "
       "trip counts; a ts::cta_pair kernel is a cluster of two whose tcgen05 "
       "resources are all paired, whose CTAs each load their own half and run "
       "the same trip counts, whose MMA task (rank 0 only) touches only "
       "paired stages and a CLC queue, and whose file holds no one-CTA "
       "tcgen05 kernel",
       "ts-cluster"},
      {Check::Domain, "ts-domain", true,
       "tasks exchanging stages run the same trip count (or differ by a known "
       "constant), the same in all of a task's threads",
       "ts-domain"},
      {Check::Bound, "ts-bound", false,
       "a schedule the every-trip-count argument does not cover (checked up to "
       "a bound)",
       "ts-bound"},
      // Off: a producer warp with idle warps beside it is the usual shape
      // (the report shows the padding); -Wts-padding asks to hear of it.
      {Check::Padding, "ts-padding", false,
       "a warp group with budgets was padded with an idle task", "ts-padding",
       true},
      {Check::Unlisted, "ts-unlisted-task", false,
       "a [[ts::task]] that no kernel lists, on warps a kernel leaves idle",
       "ts-unlisted-task"},
      {Check::Pressure, "ts-register-pressure", false,
       "a task on a budget below 64 registers copies or reads stages with "
       "threads",
       "ts-register-pressure"},
  };
  return Table;
}

const CheckInfo &checkInfo(Check C) {
  for (const CheckInfo &I : checkTable())
    if (I.C == C)
      return I;
  return checkTable().front();
}

const char *checkFlag(Check C) { return checkInfo(C).Flag; }

bool checkIsErrorByDefault(Check C) { return checkInfo(C).Error; }
bool checkIsOffByDefault(Check C) { return checkInfo(C).Off; }

} // namespace ts
