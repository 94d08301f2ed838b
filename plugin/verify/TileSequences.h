//===- TileSequences.h - Inner counts that change from tile to tile -*- C++
//-*-===//
//
// Internal to plugin/verify. A k-loop bound that reads the tile variable
// (grouped GEMM, causal attention) may run a different count in every
// tile. The views of plan/NestedViews.h each run one count in every tile;
// this search runs every sequence of them (docs/verifier.md, "Inner counts
// that change from tile to tile").
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_TILESEQUENCES_H
#define LIBTS_VERIFY_TILESEQUENCES_H

#include "verify/Verify.h"

#include <string>
#include <vector>

namespace ts {
namespace detail {

struct TileSequenceResult {
  enum class Verdict { Proven, Deadlock, Unknown };
  Verdict V = Verdict::Unknown;
  std::string Why; ///< Unknown: what stopped the search.
  /// Deadlock: the variant each tile ran, in order (the last one entered
  /// included), and whether the tile loop ended after them.
  std::vector<unsigned> Tiles;
  bool Ended = false;
  struct Blocked {
    unsigned Task; ///< Position in Kernel::Tasks.
    SourceHandle Loc;
    OpKind Kind;
    unsigned Resource;
    bool InTile;   ///< Else in the task's head or tail.
    uint64_t Tile; ///< When InTile.
  };
  std::vector<Blocked> Stuck; ///< Deadlock: each task that cannot move.
  unsigned States = 0;        ///< Distinct states the search visited.
};

/// Runs K with each tile's k-loops written out as one of Views (each
/// innerUnrolled at one count per kernel task, as verifyNested checked it),
/// for every sequence of views and every tile count. One run decides each
/// sequence (the tasks are a Kahn network); the search runs the slowest task
/// first, picks the next tile's variant only when no task can move without it,
/// and stops where a state repeats. Unknown past MaxStates states.
TileSequenceResult checkTileSequences(const Program &P, const Kernel &K,
                                      const KernelPlan &Plan,
                                      const std::vector<const Program *> &Views,
                                      unsigned MaxStates = 100000);

} // namespace detail
} // namespace ts

#endif
