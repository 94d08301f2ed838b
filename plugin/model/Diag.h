//===- Diag.h - Diagnostics as data -----------------------------*- C++ -*-===//
//
// Checks report findings as plain records; the front end turns them into
// clang diagnostics (with the user's -W flags applied per check group).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_MODEL_DIAG_H
#define LIBTS_MODEL_DIAG_H

#include "model/Model.h"

#include <string>
#include <vector>

namespace ts {

/// One group per check; the flag is `-W<name>` (e.g. -Wno-error=ts-registers).
enum class Check {
  Syntax,    ///< ts-syntax: malformed attributes, ops the model cannot follow.
  Warps,     ///< ts-warps: warp ranges.
  Registers, ///< ts-registers: setmaxnreg budgets.
  Roles,     ///< ts-roles: producer/consumer roles, missing tasks.
  Bracket,   ///< ts-bracketing: work outside acquire/commit or wait/release.
  Graph,     ///< ts-graph: declared dependency edges.
  Capacity,  ///< ts-capacity: shared memory.
  Credit,    ///< ts-credit: credit simulation (blocked ops, imbalance).
  Padding,   ///< ts-padding: the plugin padded a warp group (warning).
  Domain,    ///< ts-domain: assumptions about trip counts (warning).
  Pressure,  ///< ts-register-pressure: thread work on a tiny budget (warning).
  TmaBytes,  ///< ts-tma-bytes: armed transaction bytes no TMA load delivers.
  Ownership, ///< ts-ownership: stages used after hand-back, twice, out of
             ///< order.
  Token,     ///< ts-token: try_ results reaching the wrong blocking op.
  Bound,     ///< ts-bound: trip counts the every-N argument does not cover.
  Race,      ///< ts-race: aliased resources whose uses may overlap in time.
  Pdl,       ///< ts-pdl: programmatic dependent launch order.
  Cluster,   ///< ts-cluster: TMA multicast across a thread-block cluster.
  Unlisted,  ///< ts-unlisted-task: a task no kernel runs, on idle warps.
  UnusedToken,   ///< ts-unused-token: a try_ no blocking op uses (warning).
  TmaStore,      ///< ts-tma-store: a TMA store's source unfenced or rewritten.
  RepeatedStore, ///< ts-repeated-store: every warp stores the tile (warning).
  TmaBox,        ///< ts-tma-box: a load whose box the host sets (warning).
  Turn,          ///< ts-turn: a ring of turns broken, a take without a pass.
  Fixup,  ///< ts-fixup: a stream-K segment not settled once, after its MMAs.
  Target, ///< ts-target: a resource or instruction the kernel's target lacks.
};

/// One row per check: the one place that names, ranks and documents it.
struct CheckInfo {
  Check C;
  const char *Flag;   ///< -W<Flag>
  bool Error;         ///< Default severity.
  const char *Rule;   ///< One line, for the report and the docs.
  const char *Anchor; ///< Section of docs/verifier.md.
  bool Off = false;   ///< Reported only when enabled (-W<Flag>).
};
const std::vector<CheckInfo> &checkTable();
const CheckInfo &checkInfo(Check C);

const char *checkFlag(Check C);
/// Default severity: true for error, false for warning.
bool checkIsErrorByDefault(Check C);
bool checkIsOffByDefault(Check C);

struct DiagNote {
  SourceHandle Loc = 0;
  std::string Message;
};

/// One protocol event of a counterexample, in the order the run took it.
struct TraceStep {
  std::string Task, Op, Resource;
  std::string When; ///< "head", "iteration 3", "tail".
  SourceHandle Loc = 0;
};

struct Diag {
  Check Group = Check::Syntax;
  SourceHandle Loc = 0;
  std::string Message;
  std::vector<DiagNote> Notes;
  /// The end of the counterexample (notes show fewer); for the JSON
  /// report, with the number of events of the whole run.
  std::vector<TraceStep> Trace = {};
  size_t TraceTotal = 0;
};

using DiagList = std::vector<Diag>;

} // namespace ts

#endif
