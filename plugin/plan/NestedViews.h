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

/// Largest inner trip count checked for a runtime k-loop, given the
/// kernel's stages summed over its pipelines and the most stage operations
/// (takes and hand-backs) a task does per tile outside its k-loop: every
/// stage buffered between any two tasks is used up, each outside operation
/// may shift a task's place in a ring by one more, and three more steps run
/// (tested against enumeration: NestedPropertyTest.cpp, NestedShapesTest.cpp).
uint64_t innerTripBound(unsigned Stages, unsigned OutsideOps = 0);

/// Stage operations (take or hand back) T does per tile outside its k-loop.
unsigned outsideStageOps(const Task &T);

/// Whether T's k-loop is nonempty() and T reaches it with no blocking op
/// (acquire, wait) before it: an empty run then surely traps.
bool trapsWhenEmpty(const Task &T);

/// Inner trip counts to check: the constant one, else 0 (1 when a task
/// trapsWhenEmpty) .. innerTripBound.
std::vector<uint64_t> innerTripCounts(const Program &P, const Kernel &K);

/// P with every nested task of K running its inner loop exactly N times,
/// written out in its loop body (inner guards resolved, stage variables of
/// each inner iteration renumbered, Op::InnerIt set on the copies).
Program innerUnrolled(const Program &P, const Kernel &K, uint64_t N);

} // namespace ts

#endif
