//===- Nested.h - Tasks with a k-loop inside their tile loop ----*- C++ -*-===//
//
// Internal to plugin/verify: the structural check that makes the views of
// plan/NestedViews.h sound (tasks that exchange stages nest alike).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_NESTED_H
#define LIBTS_VERIFY_NESTED_H

#include "plan/NestedViews.h"
#include "verify/Verify.h"

#include <map>
#include <memory>

namespace ts {

/// Tasks exchanging stages in k-loops pair those loops in order, with trip
/// counts equal up to a constant (ts-domain).
void checkNesting(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out);

/// Kernels whose k-loop bounds read the tile variable run every sequence of
/// their inner counts: a deadlock is a ts-credit error, a search that
/// cannot finish a ts-bound warning. Returns what the report's protocol
/// line adds ("" when no bound reads the tile, or on an error).
/// The views verifyNested checked, by inner counts per k-loop (nestsOf
/// order): the search runs the same programs.
using NestedViews =
    std::map<std::vector<uint64_t>, std::shared_ptr<const Program>>;
std::string checkPerTileCounts(const Program &P, const Kernel &K,
                               const KernelPlan &Plan, const InnerCounts &IC,
                               const NestedViews &Views, DiagList &Out);

} // namespace ts

#endif
