//===- Explore.h - The interleaving oracle of the tests ---------*- C++ -*-===//
//
// Explicit-state search over every interleaving of a kernel's tasks: what
// the reference checker does, and the oracle the property tests and
// bench/verifier hold libts's one-run decision to. It lives with the tests,
// not in libts.so: the plugin never searches interleavings.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_TEST_ORACLE_EXPLORE_H
#define LIBTS_TEST_ORACLE_EXPLORE_H

#include "verify/Verify.h"

namespace ts {

/// Explicit-state search over every interleaving (the oracle of the one-run
/// decision, and what the reference checker does).
struct ExploreResult {
  uint64_t States = 0;
  uint64_t Deadlocks = 0, Unbalanced = 0, Clean = 0; ///< Terminal states.
  bool Complete = true;   ///< False when MaxStates stopped the search.
  uint64_t PeakBytes = 0; ///< Visited set, estimated.
};
/// How the search prunes (docs/verifier.md, "Reductions"): None expands
/// every step of every state (the reference's method); Sleep visits every
/// state but skips steps that only reach a state by another order;
/// Symmetry also merges states that differ by a swap of alike tasks;
/// Persistent expands one task per state (every deadlock and final state).
enum class Reduction { None, Sleep, Symmetry, Persistent };
ExploreResult exploreInterleavings(const Program &P, const Kernel &K,
                                   const KernelPlan &Plan,
                                   const std::vector<uint64_t> &Trips,
                                   uint64_t MaxStates, Reduction Red);

} // namespace ts

#endif
