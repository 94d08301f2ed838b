//===- NestedViews.h - Nested k-loops written out for one count -*- C++ -*-===//
//
// Part of the plan: for a kernel whose tasks nest a k-loop in their tile
// loop, the inner trip counts to check and, for each, the view of the
// program with the k-loop written out (the checks run on the views).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_NESTEDVIEWS_H
#define LIBTS_PLAN_NESTEDVIEWS_H

#include "model/Model.h"

#include <cstdint>
#include <vector>

namespace ts {

bool hasNestedTask(const Program &P, const Kernel &K);

/// One inner loop of a nested task: the task's position in K and the
/// loop's index in Task::Inners. The plan numbers a kernel's nests tasks
/// first, loops in source order (nestsOf); counts are per nest.
struct Nest {
  size_t Task = 0;
  unsigned Loop = 0;
};
std::vector<Nest> nestsOf(const Program &P, const Kernel &K);

/// Largest inner trip count checked for a runtime k-loop, given the
/// kernel's stages summed over its pipelines and the most stage operations
/// (takes and hand-backs) a task does per tile outside its k-loop: every
/// stage buffered between any two tasks is used up, each outside operation
/// may shift a task's place in a ring by one more, and three more steps run
/// (tested against enumeration: NestedPropertyTest.cpp, NestedShapesTest.cpp).
uint64_t innerTripBound(unsigned Stages, unsigned OutsideOps = 0);

/// Stage operations (take or hand back) T does per tile outside its k-loops.
unsigned outsideStageOps(const Task &T);

/// Whether loop L of T is nonempty() and T reaches it with no blocking op
/// (acquire, wait, take) before it: an empty run then surely traps.
bool trapsWhenEmpty(const Task &T, unsigned L = 0);

/// Inner trip counts per class of nests: k-loops whose bounds have the same
/// values run one count up to a constant (partners must: ts-domain; a
/// peeled first step is one fewer); other classes run theirs
/// independently, so a constant k-loop of one pair, or a nonempty() one,
/// says nothing of another pair's count.
struct InnerCounts {
  std::vector<Nest> Nests;  ///< nestsOf(P, K).
  std::vector<int> ClassOf; ///< Per nest.
  /// Per nest: how many iterations fewer than its class's longest k-loop
  /// it runs (0 for the longest), clamped at 0 iterations.
  std::vector<uint64_t> Fewer;
  /// Per class, the longest k-loop's count: its constant, else 0 (or the
  /// least with no trapsWhenEmpty nest at 0) .. innerTripBound plus the
  /// class's largest Fewer, so that every k-loop reaches the bound. A
  /// task's other k-loops' operations on a resource of the class's loops
  /// count as outside operations, up to two rounds of its ring.
  std::vector<std::vector<uint64_t>> Counts;
};
InnerCounts innerCounts(const Program &P, const Kernel &K);

/// A choice of one count per class, as positions into InnerCounts::Counts:
/// the next one in odometer order among the classes Mask marks (all when
/// Mask is empty); false after the last.
bool nextCountChoice(std::vector<size_t> &Pos, const InnerCounts &IC,
                     const std::vector<char> &Mask = {});

/// That choice per nest of IC.
std::vector<uint64_t> countsPerNest(const InnerCounts &IC,
                                    const std::vector<size_t> &Pos);

/// The counts of the class with the most (every class, when K has one).
std::vector<uint64_t> innerTripCounts(const Program &P, const Kernel &K);

/// P with each nest of K (nestsOf order) running its inner loop PerNest[i]
/// times, written out in its task's loop body (inner guards resolved, stage
/// variables of each inner iteration renumbered, Op::InnerIt set on the
/// copies).
Program innerUnrolled(const Program &P, const Kernel &K,
                      const std::vector<uint64_t> &PerNest);
/// The same with every nest running N times.
Program innerUnrolled(const Program &P, const Kernel &K, uint64_t N);

} // namespace ts

#endif
