//===- verifier.cpp - Speed of the protocol checks (a benchmark) ----------===//
//
// Generates schedules of growing size (test/unit/Generator.h) and prints,
// for each size: the time libts takes to decide every trip count (steady
// state, the runs up to the bound, the ownership walk), and the explicit
// search over interleavings (the reference checker's method) with and
// without the one-task persistent-set reduction: states, states per
// second, visited-set memory, wall time. Not a test: it prints figures.
//
//   build/bench/ts-verifier-bench [schedules-per-size]
//
//===----------------------------------------------------------------------===//
#include "Generator.h"
#include "Explore.h"
#include "verify/Verify.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

using namespace ts;
using namespace ts::test;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point T) {
  return std::chrono::duration<double, std::milli>(Clock::now() - T).count();
}

struct Size {
  unsigned Tasks, Resources, Stages;
  int64_t Trips; ///< For the explicit search (it needs constant counts).
};

struct Search {
  uint64_t States = 0, Capped = 0, Peak = 0;
  double Ms = 0;
  void add(const ExploreResult &R, double T) {
    States += R.States;
    Capped += !R.Complete;
    Peak = std::max(Peak, R.PeakBytes);
    Ms += T;
  }
  double rate() const { return Ms > 0 ? States / (Ms / 1000.0) : 0; }
};

void row(const Size &Z, unsigned Count) {
  std::vector<double> Decide;
  uint64_t Faulty = 0;
  const Reduction Reds[] = {Reduction::None, Reduction::Sleep, Reduction::Symmetry,
                            Reduction::Persistent};
  Search Per[4];
  for (unsigned I = 0; I < Count; ++I) {
    Generator G(1000003ull * Z.Tasks + 7919ull * Z.Resources + I);
    GenOptions O;
    O.MinTasks = O.MaxTasks = Z.Tasks;
    O.MinResources = O.MaxResources = Z.Resources;
    O.MaxStages = Z.Stages;
    O.FaultRate = 0.3;
    Builder B = G.make(O);
    KernelPlan Plan = planFor(B.P, B.kernel());
    auto T0 = Clock::now();
    DiagList D;
    checkStages(B.P, B.kernel(), D);
    checkCredits(B.P, B.kernel(), Plan, D);
    Decide.push_back(msSince(T0));
    Faulty += !D.empty();

    // The explicit search at a constant trip count.
    for (unsigned TI : B.kernel().Tasks) {
      Domain &Dm = B.P.Tasks[TI].Dom;
      Dm.EndSym.clear();
      Dm.End = Dm.EndOff = Z.Trips;
    }
    std::vector<uint64_t> Trips = tripCountsAt(B.P, B.kernel(), 0);
    for (unsigned R = 0; R < 4; ++R) {
      auto T1 = Clock::now();
      ExploreResult X = exploreInterleavings(B.P, B.kernel(), Plan, Trips, 1000000, Reds[R]);
      Per[R].add(X, msSince(T1));
    }
  }
  std::sort(Decide.begin(), Decide.end());
  std::printf("%5u %5u %6u %5lld | %7.2f %7.2f %5llu |", Z.Tasks, Z.Resources, Z.Stages,
              (long long)Z.Trips, Decide[Decide.size() / 2], Decide.back(),
              (unsigned long long)Faulty);
  for (unsigned R = 0; R < 4; ++R)
    std::printf(" %8llu %2llu %9.0f %6.1f %6.0f |", (unsigned long long)(Per[R].States / Count),
                (unsigned long long)Per[R].Capped, Per[R].rate(), Per[R].Peak / 1048576.0,
                Per[R].Ms / Count);
  std::printf("\n");
}

/// One TMA producer and `Consumers` identical consumer tasks of one
/// resource: the symmetric shape of multi-warp-group consumers.
void symmetricRow(unsigned Consumers, unsigned Stages, int64_t Trips) {
  Builder B;
  unsigned R = B.tma("Tiles", Stages, 4096);
  B.task("load", 0, 1).produces(R).loop(Trips).fill(R);
  for (unsigned C = 0; C < Consumers; ++C)
    B.task("mma" + std::to_string(C), 1 + C, 1).consumes(R).loop(Trips).drain(R);
  KernelPlan Plan = planFor(B.P, B.kernel());
  std::vector<uint64_t> T = tripCountsAt(B.P, B.kernel(), 0);
  std::printf("%5u %5u %6u %5lld |    (symmetric)        |", Consumers + 1, 1u, Stages,
              (long long)Trips);
  for (Reduction Red : {Reduction::None, Reduction::Sleep, Reduction::Symmetry,
                        Reduction::Persistent}) {
    auto T0 = Clock::now();
    ExploreResult X = exploreInterleavings(B.P, B.kernel(), Plan, T, 1000000, Red);
    double Ms = msSince(T0);
    std::printf(" %8llu %2u %9.0f %6.1f %6.0f |", (unsigned long long)X.States, !X.Complete,
                Ms > 0 ? X.States / (Ms / 1000.0) : 0.0, X.PeakBytes / 1048576.0, Ms);
  }
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
  unsigned Count = argc > 1 ? unsigned(std::stoul(argv[1])) : 10;
  std::printf("# libts verifier benchmark: %u generated schedules per size (30%% with one fault)\n", Count);
  std::printf("# decide: libts's every-trip-count decision (ms, median and max; faulty = schedules with a finding)\n");
  std::printf("# search: every interleaving at the constant trip count, capped at 1e6 states (cap = runs that hit it),\n"
              "#   per reduction: none (every step of every state), sleep (sleep sets: every state),\n"
              "#   symmetry (alike tasks merged, no sleep sets), persistent (one task per state)\n"
              "#   columns: states (mean), cap, states/s, peak MB of the visited set, ms (mean)\n");
  std::printf("%5s %5s %6s %5s | %7s %7s %5s |", "tasks", "res", "stages", "trips", "med ms",
              "max ms", "fault");
  for (const char *Name : {"none", "sleep", "symmetry", "persistent"})
    std::printf(" %-37s|", Name);
  std::printf("\n");
  const Size Sizes[] = {{2, 1, 2, 8},   {4, 2, 4, 8},   {4, 4, 4, 16},  {8, 4, 4, 16},
                        {8, 8, 8, 32},  {13, 12, 4, 8}, {13, 12, 8, 64}, {16, 12, 8, 64}};
  for (const Size &Z : Sizes)
    row(Z, Count);
  for (unsigned Consumers : {2u, 4u, 6u})
    symmetricRow(Consumers, 4, 8);
  rusage U;
  getrusage(RUSAGE_SELF, &U);
  std::printf("# peak resident memory of the process: %.1f MB\n", U.ru_maxrss / 1024.0);
}
