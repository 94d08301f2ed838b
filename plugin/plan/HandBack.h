//===- HandBack.h - Stages handed back out of order -------------*- C++ -*-===//
//
// Every slot of a pipeline has its own barriers, so `release(s)` and
// `commit(s)` may hand stages back in any order. The other side takes the
// slots in ring order, so what it can use is the prefix of stages handed
// back: a hand-back ahead of an older stage still held credits nothing,
// and the one that completes the prefix credits every stage it completes.
// The protocol simulation counts these credits (verify/Credit.cpp); the
// ownership check refuses an order they cannot express (verify/Stages.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_HANDBACK_H
#define LIBTS_PLAN_HANDBACK_H

#include "model/Model.h"

#include <optional>
#include <vector>

namespace ts {

/// Per op of T, what each commit or release adds to the prefix of its
/// resource's stages handed back. Empty when T hands every stage back
/// oldest first (each then credits 1). None when the order cannot be
/// credited per op: a stage handed back while an older one is still held
/// at the end of the head, an iteration or the tail; an op whose credit
/// differs between iterations; or release_oldest() on a handle that also
/// hands back out of order (its runtime finds the oldest slot by order).
std::optional<std::vector<unsigned>> handBackCredits(const Program &P,
                                                     const Task &T);

} // namespace ts

#endif
