//===- FuzzCore.cpp - Fuzz target: the every-trip-count decision ----------===//
//
// The clang-free core (model -> plan -> verify) decides in one call whether
// a schedule's protocol holds for every trip count (docs/verifier.md,
// "Every trip count" and "Nested domains"). Each input here is decoded into
// a random schedule and one concrete count, and that decision is held to
// explicit runs at concrete counts (Simulation, one round-robin run each):
//
//  - a flat schedule (Generator.h), a nested one (Generator.h with each
//    loop body made a k-loop) or a nested shape (NestedSchedules.h: stage
//    operations before, after and across the k-loop, sometimes with the
//    two sides of a resource unbalanced, which the suite never draws);
//  - accepted (by the protocol): the run at the sampled counts (flat: up to
//    max(64, 4K), K the deciding count; nested: tile count up to 6, inner
//    count up to max(64, 4B), B the inner bound) passes; nested, at times,
//    the decision at the sampled inner count is clean as well;
//  - refused by the protocol: the run at the count the verifier reports
//    fails, and that count lies within the bound; nested, a run at an
//    inner count below the reported one passes (those were all accepted);
//  - flat, at times: the exact decision of the same schedule with constant
//    trip counts (small, or past 4096 where periods are taken off) equals
//    the run of the symbolic one at that count, and for small runs one run
//    equals the search over every interleaving (test/oracle).
//
// Full sweeps of counts are what the unit tests do; one or two runs per
// input keep an execution well under a millisecond, so the fuzzer can try
// many more schedules. A disagreement is a finding.
//
// Built with -fsanitize=fuzzer (LIBTS_SANITIZE) libFuzzer drives it and a
// finding aborts. Otherwise (TS_FUZZ_CORE_MAIN) a main feeds it inputs from
// a PRNG:
//
//   ts-fuzz-core --runs N [--seed S] [--jobs J] [--out DIR]
//   ts-fuzz-core FILE...        (runs saved inputs, e.g. a finding)
//
//===----------------------------------------------------------------------===//
#include "Explore.h"
#include "Generator.h"
#include "NestedSchedules.h"
#include "plan/NestedViews.h"
#include "verify/TileSequences.h"
#include "verify/Verify.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace ts;
using namespace ts::test;

namespace {

/// The input as a stream of choices; past its end every choice is 0, so
/// every byte string is a valid input and a short one a small schedule.
class Choices {
public:
  Choices(const uint8_t *Data, size_t Size) : Data(Data), Size(Size) {}
  uint8_t byte() { return Pos < Size ? Data[Pos++] : 0; }
  uint64_t word(unsigned Bytes) {
    uint64_t V = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      V = V << 8 | byte();
    return V;
  }
  /// A value in [Lo, Hi], Hi - Lo below 256.
  unsigned range(unsigned Lo, unsigned Hi) {
    return Lo + byte() % (Hi - Lo + 1);
  }

private:
  const uint8_t *Data;
  size_t Size, Pos = 0;
};

enum class Mode { Flat, Nested, Shape };
constexpr unsigned NumModes = 3;
const char *modeName(Mode M) {
  return M == Mode::Flat ? "flat" : M == Mode::Nested ? "nested" : "shape";
}

/// What one input asks for.
struct Case {
  Mode M = Mode::Flat;
  uint64_t Seed = 0;
  GenOptions O;
  Shape Sh;
  uint64_t OuterWord = 0, InnerWord = 0; ///< Raw samples of the counts.
  bool ConstCheck = false, LargeConst = false, Explore = false,
       InnerDecision = false;
  /// Nested: the k-loop bounds read the tile, so each tile may run its own
  /// count (a quarter of the nested inputs; derived, the format stays).
  bool PerTile = false;
};

/// Choices -> case. Half the inputs are flat schedules, the cheapest; the
/// nested ones (the younger argument) get the other half, a third of it
/// shapes (the costliest: their bound grows with the ops around k-loops).
Case decode(Choices &In) {
  Case C;
  uint8_t Kind = In.byte() % 6;
  C.M = Kind < 3 ? Mode::Flat : Kind < 5 ? Mode::Nested : Mode::Shape;
  uint8_t Flags = In.byte();
  C.ConstCheck = Flags & 1;
  C.LargeConst = (Flags & 0x1e) == 0x1e; // rare: a long explicit run
  C.Explore = Flags & 0x20;
  C.InnerDecision = (Flags & 0xc0) == 0xc0;
  C.Seed = In.word(4);
  C.OuterWord = In.word(2);
  C.InnerWord = In.word(2);
  if (C.M == Mode::Flat) {
    C.O.MaxTasks = In.range(2, 6);
    C.O.MinTasks = In.range(2, C.O.MaxTasks);
    C.O.MaxResources = In.range(1, 5);
    C.O.MinResources = In.range(1, C.O.MaxResources);
    C.O.MaxStages = In.range(1, 4);
  } else if (C.M == Mode::Nested) {
    // Each inner count checked is a flat decision on a view with the
    // k-loop written out: smaller schedules keep that affordable.
    C.O.MaxTasks = In.range(2, 4);
    C.O.MinTasks = 2;
    C.O.MaxResources = In.range(1, 3);
    C.O.MaxStages = In.range(1, 4);
  } else {
    Shape &S = C.Sh;
    S.Tasks = In.range(2, 4);
    unsigned NR = In.range(1, 3), Total = 0;
    for (unsigned R = 0; R < NR; ++R) {
      Shape::Res X;
      X.Stages = In.range(1, 3);
      Total += X.Stages;
      X.Prod = In.range(0, S.Tasks - 1);
      X.Cons = (X.Prod + In.range(1, S.Tasks - 1)) % S.Tasks;
      S.Resources.push_back(X);
    }
    // Stages held across a k-loop that also takes stages of the resource
    // are handed back after newer ones: ts-ownership refuses that before
    // any count matters (most of randomShape's draws). One resource side
    // in eight keeps it; the others hold only around a k-loop without.
    bool HoldAcross = false;
    auto Split = [&](unsigned Tile, unsigned PerStep) {
      unsigned B = In.range(0, Tile), H = In.range(0, Tile - B);
      if (PerStep && !HoldAcross)
        H = 0;
      return Side{B, PerStep, Tile - B - H, H};
    };
    for (Shape::Res &X : S.Resources) {
      uint8_t F = In.byte();
      HoldAcross = (F >> 3) % 8 == 0;
      // Up to 2S+2 stages per tile as in NestedShapesTest on an eighth of
      // the resources; the bound, and with it the cost of the decision,
      // grows with them, so the rest stay within S+1.
      unsigned TileHi = In.byte() % 8 == 0 ? 2 * Total + 2 : Total + 1;
      unsigned Step = F & 1;
      unsigned Tile = In.range(Step ? 0 : 1, TileHi);
      X.P = Split(Tile, Step);
      // A quarter unbalanced: the consumer takes another number of stages
      // per tile or per k-step than the producer gives.
      if ((F >> 1) % 4 == 0) {
        unsigned CStep = In.range(0, 2);
        X.C = Split(In.range(CStep ? 0 : 1, TileHi), CStep);
      } else
        X.C = Split(Tile, Step);
    }
  }
  C.PerTile = C.M != Mode::Flat && (C.Seed ^ C.OuterWord) % 4 == 0;
  if (C.M != Mode::Shape) {
    C.O.FaultRate = In.byte() / 255.0;
    C.O.OnceRate = In.byte() / 510.0;
  }
  return C;
}

Builder build(const Case &C) {
  if (C.M == Mode::Shape) {
    std::mt19937_64 Rng(C.Seed);
    Builder B = buildShape(C.Sh, Rng);
    handBackOldestFirst(B.P);
    return B;
  }
  Generator G(C.Seed);
  Builder B = G.make(C.O);
  if (C.M == Mode::Nested)
    nestLoops(B.P);
  return B;
}

void boundsReadTheTile(Builder &B) {
  for (Task &T : B.P.Tasks)
    for (Domain &D : T.Inners)
      D.PerTile = true;
}

bool anyError(const DiagList &D, Check G) {
  return std::any_of(D.begin(), D.end(), [&](const Diag &X) {
    return X.Group == G && checkIsErrorByDefault(X.Group);
  });
}
bool anyOf(const DiagList &D, Check G) {
  return std::any_of(D.begin(), D.end(),
                     [&](const Diag &X) { return X.Group == G; });
}

/// The count up to which the runs of a flat coverage go: "every trip count
/// (runs L to K decide all: ...)" or "trip counts L to B only (...)".
std::optional<int64_t> coverageEnd(const std::string &Text) {
  long long Lo = 0, Hi = 0;
  size_t At = Text.find("(runs ");
  if (At != std::string::npos &&
      std::sscanf(Text.c_str() + At, "(runs %lld to %lld", &Lo, &Hi) == 2)
    return Hi;
  At = Text.find("trip counts ");
  if (At != std::string::npos &&
      std::sscanf(Text.c_str() + At, "trip counts %lld to %lld", &Lo, &Hi) == 2)
    return Hi;
  return std::nullopt;
}

/// The inner count of a nested finding, from the note Verify.cpp adds.
std::optional<uint64_t> reportedInnerCount(const DiagList &D) {
  const std::string Key = "found with this inner ts::domain loop running ";
  for (const Diag &X : D)
    for (const DiagNote &N : X.Notes)
      if (N.Message.compare(0, Key.size(), Key) == 0)
        return std::stoull(N.Message.substr(Key.size()));
  return std::nullopt;
}

/// The N in [Lo, Hi] whose trip counts peak at Peak (SimResult::Trips, the
/// largest count of the run shown): each N has its own peak, N plus the
/// spread of offsets, or 0 below.
std::optional<int64_t> countOfRun(const Program &P, const Kernel &K,
                                  uint64_t Peak, int64_t Lo, int64_t Hi) {
  for (int64_t N = Lo; N <= Hi; ++N) {
    std::vector<uint64_t> T = tripCountsAt(P, K, N);
    if ((T.empty() ? 0 : *std::max_element(T.begin(), T.end())) == Peak)
      return N;
  }
  return std::nullopt;
}

bool failsAt(const Program &P, const Kernel &K, const KernelPlan &Plan,
             int64_t N) {
  return runFails(P, K, Plan, tripCountsAt(P, K, N));
}

/// Counters of a run of the fuzzer.
struct Stats {
  uint64_t Executions = 0, Findings = 0;
  uint64_t ByMode[NumModes] = {};
  double Seconds[NumModes] = {}; ///< Time spent per mode.
  uint64_t Accepted = 0, RefusedProtocol = 0, RefusedOther = 0;
  uint64_t Uncovered = 0; ///< Flat: a ts-bound warning (runs to 64 only).
  uint64_t PastBound = 0; ///< Accepted, sampled past the (inner) bound.
  uint64_t ConstChecks = 0, Explorations = 0, InnerDecisions = 0;
  uint64_t Sequences = 0, SequenceRefusals = 0; ///< Per-tile counts.
  double Slowest = 0;
  /// Refusals by the group of their first error: what the inputs reach.
  std::map<std::string, uint64_t> FirstErrors;

  void add(const Stats &S) {
    Executions += S.Executions;
    Findings += S.Findings;
    for (unsigned I = 0; I < NumModes; ++I) {
      ByMode[I] += S.ByMode[I];
      Seconds[I] += S.Seconds[I];
    }
    Accepted += S.Accepted;
    RefusedProtocol += S.RefusedProtocol;
    RefusedOther += S.RefusedOther;
    Uncovered += S.Uncovered;
    PastBound += S.PastBound;
    ConstChecks += S.ConstChecks;
    Explorations += S.Explorations;
    InnerDecisions += S.InnerDecisions;
    Sequences += S.Sequences;
    SequenceRefusals += S.SequenceRefusals;
    Slowest = std::max(Slowest, S.Slowest);
    for (const auto &[G, N] : S.FirstErrors)
      FirstErrors[G] += N;
  }
};

/// The first error's message, to say what the verifier refused.
std::string firstError(const DiagList &D) {
  for (const Diag &X : D)
    if (checkIsErrorByDefault(X.Group))
      return std::string(checkFlag(X.Group)) + ": " + X.Message;
  return "no error";
}

/// Counts a refusal under its mode and the group of its first error.
void tally(Stats &St, Mode M, const DiagList &D) {
  for (const Diag &X : D)
    if (checkIsErrorByDefault(X.Group)) {
      ++St.FirstErrors[std::string(modeName(M)) + " " + checkFlag(X.Group)];
      return;
    }
}

std::string describe(const Case &C) {
  char Buf[256];
  if (C.M == Mode::Shape) {
    std::string S = "shape, merge seed " + std::to_string(C.Seed) + ", " +
                    std::to_string(C.Sh.Tasks) + " tasks;";
    for (const Shape::Res &X : C.Sh.Resources) {
      std::snprintf(Buf, sizeof(Buf),
                    " [%u stages, t%u -> t%u, producer %u/%u/%u/%u, consumer "
                    "%u/%u/%u/%u]",
                    X.Stages, X.Prod, X.Cons, X.P.Before, X.P.PerStep,
                    X.P.After, X.P.Held, X.C.Before, X.C.PerStep, X.C.After,
                    X.C.Held);
      S += Buf;
    }
    return S + " (before/per k-step/after/held)" +
           (C.PerTile ? ", inner counts per tile" : "");
  }
  std::snprintf(Buf, sizeof(Buf),
                "%s, Generator seed %" PRIu64
                ", tasks %u-%u, resources %u-%u, stages <= %u, fault rate "
                "%.3f, once rate %.3f",
                modeName(C.M), C.Seed, C.O.MinTasks, C.O.MaxTasks,
                C.O.MinResources, C.O.MaxResources, C.O.MaxStages,
                C.O.FaultRate, C.O.OnceRate);
  return std::string(Buf) + (C.PerTile ? ", inner counts per tile" : "");
}

/// Flat schedules: the decision against runs at concrete counts.
std::string checkFlat(const Case &C, Builder &B, Stats &St) {
  const Kernel &K = B.kernel();
  KernelPlan Plan = planFor(B.P, K);
  VerifyResult V = verifyKernel(B.P, K, Plan);
  tally(St, C.M, V.Diags);
  bool Credit = anyError(V.Diags, Check::Credit);
  bool Protocol = V.ProtocolRun && !Credit; // the protocol accepts
  bool Covered = !anyOf(V.Diags, Check::Bound);
  St.Uncovered += !Covered;
  int64_t Lo = smallestTripCount(B.P, K);
  // Which counts the runs cover: from the coverage, else (not run) the
  // deciding count itself.
  std::optional<int64_t> End = coverageEnd(V.Coverage);
  if (!End) {
    std::optional<uint64_t> D = decidingTripCount(B.P, K, Plan);
    End = int64_t(D ? *D : Plan.TripBound);
  }
  int64_t Hi = std::max<int64_t>(64, 4 * *End);
  int64_t N = Lo + int64_t(C.OuterWord % uint64_t(Hi - Lo + 1));
  if (!hasError(V.Diags))
    ++St.Accepted;
  else if (Credit)
    ++St.RefusedProtocol;
  else
    ++St.RefusedOther;

  if (Protocol && (Covered || N <= int64_t(Plan.TripBound))) {
    St.PastBound += N > *End;
    if (failsAt(B.P, K, Plan, N))
      return "accepted (" + V.Coverage +
             "), but the run at N = " + std::to_string(N) + " fails";
  }
  if (Credit) {
    std::optional<int64_t> Nr = countOfRun(B.P, K, V.Sim.Trips, Lo, *End);
    if (!Nr)
      return "refused (" + firstError(V.Diags) + ") at a run of peak trip " +
             "count " + std::to_string(V.Sim.Trips) + ", past the runs " +
             std::to_string(Lo) + " to " + std::to_string(*End);
    if (!failsAt(B.P, K, Plan, *Nr))
      return "refused (" + firstError(V.Diags) +
             "), but the run at the reported N = " + std::to_string(*Nr) +
             " passes";
  }

  if (C.ConstCheck && V.ProtocolRun) {
    // The same schedule with constant counts: decided exactly (past 4096
    // iterations, whole periods taken off), against the symbolic one run
    // at that count.
    ++St.ConstChecks;
    int64_t Trips = C.LargeConst ? 4097 + int64_t(C.InnerWord % 4096)
                                 : std::max<int64_t>(N, 0);
    Generator G(C.Seed);
    GenOptions O = C.O;
    O.Symbolic = false;
    O.Trips = Trips;
    Builder CB = G.make(O);
    KernelPlan CPlan = planFor(CB.P, CB.kernel());
    VerifyResult CV = verifyKernel(CB.P, CB.kernel(), CPlan);
    if (CV.ProtocolRun && !anyOf(CV.Diags, Check::Bound)) {
      bool Exact = anyError(CV.Diags, Check::Credit);
      bool Direct = failsAt(B.P, K, Plan, Trips);
      if (Exact != Direct)
        return "constant trip count " + std::to_string(Trips) + ": " +
               (Exact ? "refused (" + firstError(CV.Diags) + ")"
                      : "accepted (" + CV.Coverage + ")") +
               ", but the symbolic schedule's run at N = " +
               std::to_string(Trips) + (Direct ? " fails" : " passes");
    }
  }

  if (C.Explore && K.Tasks.size() <= 3) {
    // Kahn: one run decides what every interleaving does. Small counts
    // keep the search within its state limit.
    N = Lo + int64_t(C.InnerWord % uint64_t(4 - Lo));
    std::vector<uint64_t> Trips = tripCountsAt(B.P, K, N);
    ExploreResult E =
        exploreInterleavings(B.P, K, Plan, Trips, 20000, Reduction::Persistent);
    if (E.Complete) {
      ++St.Explorations;
      bool Any = E.Deadlocks + E.Unbalanced > 0;
      if (Any != runFails(B.P, K, Plan, Trips))
        return "at N = " + std::to_string(N) + " the run " +
               (Any ? "passes" : "fails") + " but the search over every " +
               "interleaving finds " +
               (Any ? "a deadlock or imbalance" : "none");
    }
  }
  return "";
}

/// Per-tile counts: an accepted kernel runs a sampled sequence of counts
/// (1 to 4 tiles, each within the verifier's counts) written out; a
/// sequence the verifier reports deadlocks written out.
std::string checkSequences(const Case &C, const Builder &B,
                           const KernelPlan &Plan, const VerifyResult &V,
                           const std::vector<uint64_t> &Ns, Stats &St) {
  const Kernel &K = B.P.Kernels[0];
  std::vector<std::vector<uint64_t>> Variants;
  for (uint64_t N : Ns)
    Variants.push_back(std::vector<uint64_t>(K.Tasks.size(), N));
  if (!hasError(V.Diags)) {
    ++St.Sequences;
    std::mt19937_64 Rng(C.Seed ^ (C.InnerWord << 32));
    std::vector<unsigned> Seq(1 + Rng() % 4);
    std::string Text;
    for (unsigned &I : Seq) {
      I = unsigned(Rng() % Variants.size());
      Text += (Text.empty() ? "" : ", ") + std::to_string(Ns[I]);
    }
    if (sequenceDeadlocks(K, Plan, viewsOf(B.P, K, Variants), Seq))
      return "accepted (" + V.Coverage + "), but tiles running " + Text +
             " inner steps deadlock";
    return "";
  }
  bool Sequence = std::any_of(V.Diags.begin(), V.Diags.end(), [](auto &D) {
    return D.Message.find("its count changes from tile to tile") !=
           std::string::npos;
  });
  if (!Sequence)
    return "";
  ++St.SequenceRefusals;
  detail::TileSequenceResult R = searchSequences(B.P, K, Plan, Variants);
  std::vector<unsigned> Seq = R.Tiles;
  if (!R.Ended)
    Seq.push_back(0); // any tile after: the deadlock needs none
  if (R.V != detail::TileSequenceResult::Verdict::Deadlock ||
      !sequenceDeadlocks(K, Plan, viewsOf(B.P, K, Variants), Seq))
    return "refused for a sequence of inner counts (" + firstError(V.Diags) +
           "), but that sequence written out runs through";
  return "";
}

/// Nested schedules: the decision against runs at concrete (tile count,
/// inner count) pairs on the views that write the k-loop out.
std::string checkNested(const Case &C, Builder &B, Stats &St) {
  if (C.PerTile)
    boundsReadTheTile(B);
  const Kernel &K = B.kernel();
  KernelPlan Plan = planFor(B.P, K);
  VerifyResult V = verifyKernel(B.P, K, Plan);
  if (C.PerTile)
    if (std::string F =
            checkSequences(C, B, Plan, V, innerTripCounts(B.P, K), St);
        !F.empty())
      return F;
  tally(St, C.M, V.Diags);
  std::vector<uint64_t> Ns = innerTripCounts(B.P, K);
  uint64_t ILo = Ns.front(), IBound = Ns.back();
  int64_t Lo = smallestTripCount(B.P, K);
  // Tile counts up to 6 keep the runs short; the views' own decision
  // covers every tile count.
  auto Sample = [&](uint64_t InnerHi, int64_t &M, uint64_t &N) {
    M = Lo + int64_t(C.OuterWord % uint64_t(6 - Lo + 1));
    N = ILo + C.InnerWord % (InnerHi - ILo + 1);
  };
  auto FailsAt = [&](int64_t M, uint64_t N) {
    Program View = innerUnrolled(B.P, K, N);
    return runFails(View, K, Plan, tripCountsAt(View, K, M));
  };
  std::optional<uint64_t> Nr = reportedInnerCount(V.Diags);
  bool Err = hasError(V.Diags);
  if (!Err) {
    ++St.Accepted;
    int64_t M;
    uint64_t N;
    Sample(std::max<uint64_t>(64, 4 * IBound), M, N);
    St.PastBound += N > IBound;
    if (FailsAt(M, N))
      return "accepted (" + V.Coverage + "), but the run at tile count " +
             std::to_string(M) + ", inner count " + std::to_string(N) +
             " fails";
    // At times the whole decision at the sampled inner count (every tile
    // count, every check), where its view is at most twice the largest
    // the verdict decided: one more decision of the kind the verdict ran
    // B + 1 times.
    if (C.InnerDecision && N <= 2 * IBound) {
      ++St.InnerDecisions;
      VerifyResult VN = verifyInnerCount(B.P, K, Plan, N);
      if (hasError(VN.Diags))
        return "accepted (" + V.Coverage + "), but inner count " +
               std::to_string(N) + " is refused: " + firstError(VN.Diags);
    }
    return "";
  }
  if (!Nr) { // refused on the kernel itself (roles, nesting)
    ++St.RefusedOther;
    return "";
  }
  if (*Nr < ILo || *Nr > IBound)
    return "refused at inner count " + std::to_string(*Nr) +
           ", outside the counts " + std::to_string(ILo) + " to " +
           std::to_string(IBound);
  // Every count below the reported one was accepted for every tile count.
  if (*Nr > ILo) {
    int64_t M;
    uint64_t N;
    Sample(*Nr - 1, M, N);
    if (FailsAt(M, N))
      return "inner counts below " + std::to_string(*Nr) +
             " accepted, but the run at tile count " + std::to_string(M) +
             ", inner count " + std::to_string(N) + " fails";
  }
  if (!anyError(V.Diags, Check::Credit) || !V.View) {
    ++St.RefusedOther;
    return "";
  }
  ++St.RefusedProtocol;
  std::optional<int64_t> End = coverageEnd(V.Coverage);
  int64_t OLo = smallestTripCount(*V.View, K);
  std::optional<int64_t> Mr =
      End ? countOfRun(*V.View, K, V.Sim.Trips, OLo, *End) : std::nullopt;
  if (!Mr)
    return "refused (" + firstError(V.Diags) + ") at inner count " +
           std::to_string(*Nr) + ", at a run of peak tile count " +
           std::to_string(V.Sim.Trips) + " outside the runs (" + V.Coverage +
           ")";
  if (!failsAt(*V.View, K, Plan, *Mr))
    return "refused (" + firstError(V.Diags) + "), but the run at tile count " +
           std::to_string(*Mr) + ", inner count " + std::to_string(*Nr) +
           " passes";
  return "";
}

/// Runs one input; returns a finding's description, or "".
std::string runInput(const uint8_t *Data, size_t Size, Stats &St) {
  auto Start = std::chrono::steady_clock::now();
  Choices In(Data, Size);
  Case C = decode(In);
  Builder B = build(C);
  std::string F =
      C.M == Mode::Flat ? checkFlat(C, B, St) : checkNested(C, B, St);
  double S =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  ++St.Executions;
  ++St.ByMode[unsigned(C.M)];
  St.Seconds[unsigned(C.M)] += S;
  St.Slowest = std::max(St.Slowest, S);
  if (F.empty())
    return F;
  ++St.Findings;
  return describe(C) + ": " + F;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Stats St;
  std::string F = runInput(Data, Size, St);
  if (!F.empty()) {
    // libFuzzer keeps the input of a crash: the finding becomes one.
    std::fprintf(stderr, "ts-fuzz-core finding: %s\n", F.c_str());
    std::abort();
  }
  return 0;
}

#ifdef TS_FUZZ_CORE_MAIN

namespace {

/// SplitMix64: input I of seed S is the same whatever the number of jobs.
uint64_t mix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// 16 to 64 bytes: enough for every choice of the largest shape; a
/// shorter input leaves the later choices 0.
std::vector<uint8_t> inputAt(uint64_t Seed, uint64_t I) {
  uint64_t S = mix(Seed * 0x100000001b3ull ^ mix(I));
  std::vector<uint8_t> Out(16 + S % 49);
  for (size_t J = 0; J < Out.size(); J += 8) {
    S = mix(S);
    for (size_t B = 0; B < 8 && J + B < Out.size(); ++B)
      Out[J + B] = uint8_t(S >> (8 * B));
  }
  return Out;
}

int usage(const char *Argv0) {
  std::fprintf(stderr,
               "usage: %s --runs N [--seed S] [--jobs J] [--out DIR]\n"
               "       %s FILE...   (run saved inputs)\n",
               Argv0, Argv0);
  return 2;
}

void printStats(const Stats &St, double Wall) {
  std::printf("executions %" PRIu64 ", wall %.1f s, %.0f per second, findings "
              "%" PRIu64 "\n",
              St.Executions, Wall, St.Executions / std::max(Wall, 1e-9),
              St.Findings);
  for (unsigned M = 0; M < NumModes; ++M)
    std::printf("  %-6s %9" PRIu64 " inputs, %.0f us each\n", modeName(Mode(M)),
                St.ByMode[M],
                St.ByMode[M] ? 1e6 * St.Seconds[M] / St.ByMode[M] : 0.0);
  std::printf("  accepted %" PRIu64 " (sampled past the bound %" PRIu64
              "), refused by the protocol %" PRIu64
              ", refused otherwise %" PRIu64
              ", flat without a steady state %" PRIu64 "\n",
              St.Accepted, St.PastBound, St.RefusedProtocol, St.RefusedOther,
              St.Uncovered);
  std::printf(
      "  constant-count checks %" PRIu64 ", interleaving searches %" PRIu64
      ", inner-count decisions %" PRIu64 ", per-tile sequences run %" PRIu64
      ", refused for a sequence %" PRIu64 ", slowest input %.1f ms\n",
      St.ConstChecks, St.Explorations, St.InnerDecisions, St.Sequences,
      St.SequenceRefusals, 1e3 * St.Slowest);
  std::printf("  refusals by first error:");
  for (const auto &[G, N] : St.FirstErrors)
    std::printf(" %s %" PRIu64 ";", G.c_str(), N);
  std::printf("\n");
}

} // namespace

int main(int Argc, char **Argv) {
  uint64_t Runs = 0, Seed = 1;
  unsigned Jobs = 1;
  std::string Out = ".";
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    bool HasValue = I + 1 < Argc;
    if (A == "--runs" && HasValue)
      Runs = std::strtoull(Argv[++I], nullptr, 0);
    else if (A == "--seed" && HasValue)
      Seed = std::strtoull(Argv[++I], nullptr, 0);
    else if (A == "--jobs" && HasValue)
      Jobs = unsigned(std::max(1ul, std::strtoul(Argv[++I], nullptr, 0)));
    else if (A == "--out" && HasValue)
      Out = Argv[++I];
    else if (!A.empty() && A[0] != '-')
      Files.push_back(A);
    else
      return usage(Argv[0]);
  }

  if (!Files.empty()) {
    Stats St;
    for (const std::string &F : Files) {
      std::ifstream S(F, std::ios::binary);
      if (!S) {
        std::fprintf(stderr, "cannot read %s\n", F.c_str());
        return 2;
      }
      std::vector<uint8_t> Bytes((std::istreambuf_iterator<char>(S)),
                                 std::istreambuf_iterator<char>());
      std::string Finding = runInput(Bytes.data(), Bytes.size(), St);
      std::printf("%s: %s\n", F.c_str(),
                  Finding.empty() ? "ok" : ("FINDING: " + Finding).c_str());
    }
    return St.Findings ? 1 : 0;
  }
  if (!Runs)
    return usage(Argv[0]);

  std::error_code EC;
  std::filesystem::create_directories(Out, EC);
  std::mutex Lock;
  Stats Total;
  unsigned Written = 0;
  auto Start = std::chrono::steady_clock::now();
  auto Work = [&](unsigned Job) {
    Stats St;
    for (uint64_t I = Job; I < Runs; I += Jobs) {
      std::vector<uint8_t> In = inputAt(Seed, I);
      std::string F = runInput(In.data(), In.size(), St);
      if (F.empty())
        continue;
      std::lock_guard<std::mutex> G(Lock);
      std::string Path = Out + "/fuzz-core-" + std::to_string(Seed) + "-" +
                         std::to_string(I) + ".bin";
      // The first 100 findings are kept; more say nothing new.
      if (Written < 100) {
        ++Written;
        std::ofstream(Path, std::ios::binary)
            .write(reinterpret_cast<const char *>(In.data()), In.size());
      } else {
        Path = "(not written)";
      }
      std::printf("FINDING input %" PRIu64 " of seed %" PRIu64 ": %s\n"
                  "  input: %s\n  reproduce: %s %s\n",
                  I, Seed, F.c_str(), Path.c_str(), Argv[0], Path.c_str());
      std::fflush(stdout);
    }
    std::lock_guard<std::mutex> G(Lock);
    Total.add(St);
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < Jobs; ++J)
    Threads.emplace_back(Work, J);
  Work(0);
  for (std::thread &T : Threads)
    T.join();
  double Wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  std::printf("ts-fuzz-core --runs %" PRIu64 " --seed %" PRIu64 " --jobs %u\n",
              Runs, Seed, Jobs);
  printStats(Total, Wall);
  return Total.Findings ? 1 : 0;
}

#endif
