//===- Nested.h - Tasks with a k-loop inside their tile loop ----*- C++ -*-===//
//
// Internal to plugin/verify: the view in which a nested task's inner loop
// is written out for one trip count, and the structural check that makes
// that view sound (tasks that exchange stages nest alike).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_NESTED_H
#define LIBTS_VERIFY_NESTED_H

#include "verify/Verify.h"

namespace ts {

bool hasNestedTask(const Program &P, const Kernel &K);

/// Tasks exchanging stages both nest a k-loop, with one trip count, or
/// neither (ts-domain).
void checkNesting(const Program &P, const Kernel &K, const KernelPlan &Plan, DiagList &Out);

/// Largest inner trip count checked for a runtime k-loop, given the
/// kernel's stages summed over its pipelines: every stage buffered between
/// any two tasks is used up and three more steps run (the bound is tested
/// against brute force: NestedPropertyTest.cpp).
uint64_t innerTripBound(unsigned Stages);

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
