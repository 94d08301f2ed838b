//===- Mutator.h - Structure-aware mutations of kernel files ----*- C++ -*-===//
//
// Byte flips rarely get past clang's parser; these edits keep a file mostly
// well-formed and aim at what libts reads: attribute arguments, the
// protocol calls of task bodies, domains, guards and numbers.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FUZZ_MUTATOR_H
#define LIBTS_FUZZ_MUTATOR_H

#include <random>
#include <string>

namespace tsfuzz {

/// Applies one random structure-aware edit to Src; false when the chosen
/// edit found nothing to change (the caller falls back to byte mutations).
bool mutate(std::string &Src, std::minstd_rand &Rng);

} // namespace tsfuzz

#endif
