//===- Options.h - The integer options of the attributes --------*- C++ -*-===//
//
// Every attribute option that takes one integer (ts::stages(N), ts::align(B),
// ts::regs(N), ...) is one row: the option, its range and the field it
// sets. Extractor::intOption parses any of them from its row; options with
// more than one value or other rules (ts::warps, ts::cluster_shape,
// ts::trip_bound, the lists) have their own functions.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_OPTIONS_H
#define LIBTS_FRONTEND_OPTIONS_H

#include "model/Model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts {

template <class Entity> struct IntOption {
  const char *Record; ///< The option's value type in namespace ts: "stages_t".
  const char *Spelling; ///< "ts::stages".
  int64_t Min, Max;     ///< Accepted values, inclusive.
  bool PowerOfTwo;
  /// Error and note for a value below Min (or not a power of two), and for
  /// one above Max; "{}" stands for the value.
  std::string Below, BelowFix, Above, AboveFix;
  void (*Set)(Entity &, int64_t); ///< Stores an accepted value.
};

const std::vector<IntOption<Resource>> &resourceIntOptions();
const std::vector<IntOption<Task>> &taskIntOptions();
const std::vector<IntOption<Kernel>> &kernelIntOptions();

/// Row's message with "{}" replaced by the value.
std::string optionMessage(const std::string &Text, int64_t Value);

} // namespace ts

#endif
