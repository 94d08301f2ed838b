//===- Registry.h - Every check of a kernel, in one table -------*- C++ -*-===//
//
// One row per check: its name (the file in plugin/verify/ that holds it),
// the diagnostic groups it reports, where it runs and whether its errors
// stop the protocol run. Verify.cpp runs the rows in table order; adding a
// check is one file, one row and its tests (docs/architecture.md).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_REGISTRY_H
#define LIBTS_VERIFY_REGISTRY_H

#include "verify/Verify.h"

#include <vector>

namespace ts {

/// Where a check runs.
enum class Scope {
  /// On the kernel as written, once. For a kernel with nested k-loops,
  /// an error of a structural row stops the rows after it and the views.
  Kernel,
  /// On every program the protocol is checked on: the kernel itself, or,
  /// with nested k-loops, each view that writes the inner loop out N times.
  View,
  /// The credit simulation, last, on the same programs as View rows, and
  /// only when no structural row found an error there.
  Protocol,
  /// Once per kernel at the end of the translation unit, on the whole
  /// program (it reads the other kernels, which a kernel decided where its
  /// definition is generated does not see yet).
  Unit,
};

struct CheckRow {
  const char *Name;          ///< plugin/verify/<Name>.cpp
  std::vector<Check> Groups; ///< The diagnostic groups it reports.
  Scope Where;
  /// Its errors mean the schedule is not well formed: the simulation would
  /// only repeat them as deadlocks.
  bool Structural = false;
  bool NestedOnly = false; ///< Runs only for kernels with nested domains.
  void (*Run)(const Program &P, const Kernel &K, const KernelPlan &Plan,
              VerifyResult &R) = nullptr;
};

/// Every check, in the order they run and report.
const std::vector<CheckRow> &checkRegistry();

} // namespace ts

#endif
