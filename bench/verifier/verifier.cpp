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

void row(const Size &Z, unsigned Count) {
  std::vector<double> Decide;
  uint64_t Faulty = 0;
  double SearchMs = 0, ReducedMs = 0;
  uint64_t States = 0, ReducedStates = 0, Peak = 0, Capped = 0;
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
    auto T1 = Clock::now();
    ExploreResult Full = exploreInterleavings(B.P, B.kernel(), Plan, Trips, 1000000, false);
    SearchMs += msSince(T1);
    auto T2 = Clock::now();
    ExploreResult One = exploreInterleavings(B.P, B.kernel(), Plan, Trips, 1000000, true);
    ReducedMs += msSince(T2);
    States += Full.States;
    ReducedStates += One.States;
    Peak = std::max(Peak, Full.PeakBytes);
    Capped += !Full.Complete;
  }
  std::sort(Decide.begin(), Decide.end());
  std::printf("%5u %5u %6u %5lld | %8.2f %8.2f %5llu | %10llu %6llu %10.0f %7.1f %8.0f | %9llu %10.0f %8.1f\n",
              Z.Tasks, Z.Resources, Z.Stages, (long long)Z.Trips, Decide[Decide.size() / 2],
              Decide.back(), (unsigned long long)Faulty, (unsigned long long)(States / Count),
              (unsigned long long)Capped, States / (SearchMs / 1000.0), Peak / 1048576.0,
              SearchMs / Count, (unsigned long long)(ReducedStates / Count),
              ReducedStates / (ReducedMs / 1000.0), ReducedMs / Count);
}

} // namespace

int main(int argc, char **argv) {
  unsigned Count = argc > 1 ? unsigned(std::stoul(argv[1])) : 10;
  std::printf("# libts verifier benchmark: %u generated schedules per size (30%% with one fault)\n", Count);
  std::printf("# decide: libts's every-trip-count decision (ms, median and max; faulty = schedules with a finding)\n");
  std::printf("# search: every interleaving at the constant trip count, capped at 1e6 states (capped = runs that hit it)\n");
  std::printf("# reduced: the same search expanding one enabled task per state\n");
  std::printf("%5s %5s %6s %5s | %8s %8s %5s | %10s %6s %10s %7s %8s | %9s %10s %8s\n", "tasks",
              "res", "stages", "trips", "med ms", "max ms", "fault", "states", "capped",
              "states/s", "peak MB", "ms", "states", "states/s", "ms");
  const Size Sizes[] = {{2, 1, 2, 8},   {4, 2, 4, 8},   {4, 4, 4, 16},  {8, 4, 4, 16},
                        {8, 8, 8, 32},  {13, 12, 4, 8}, {13, 12, 8, 64}, {16, 12, 8, 64}};
  for (const Size &Z : Sizes)
    row(Z, Count);
  rusage U;
  getrusage(RUSAGE_SELF, &U);
  std::printf("# peak resident memory of the process: %.1f MB\n", U.ru_maxrss / 1024.0);
}
