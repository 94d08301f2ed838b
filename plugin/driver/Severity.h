//===- Severity.h - -W flags for libts checks -------------------*- C++ -*-===//
//
// Clang 19 gives plugin diagnostics no groups, so libts reads the -W flags
// itself: -Wno-error=ts-credit downgrades a check, -Wno-ts-credit silences
// it, -Werror promotes warnings; `ts` names every check at once.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_DRIVER_SEVERITY_H
#define LIBTS_DRIVER_SEVERITY_H

#include "model/Diag.h"

#include <map>
#include <string>
#include <vector>

namespace ts {

enum class Level { Ignored, Warning, Error };

/// The group a -W flag names ("no-error=ts-credit" -> "ts-credit"), "" for
/// a bare -Werror / -Wno-error.
std::string flagGroup(const std::string &Flag);

/// Whether `Group` is "ts" or one of its checks' groups.
bool isTsGroup(const std::string &Group);

class SeverityPolicy {
public:
  /// Applies flags in order, each without its leading "-W" (clang's
  /// DiagnosticOptions::Warnings form: "no-error=ts-credit", "error").
  void apply(const std::vector<std::string> &Flags);
  void setIgnoreWarnings(bool V) { IgnoreWarnings = V; }
  Level level(Check C) const;

private:
  struct State {
    int Enabled = -1; ///< -1: default, 0: no, 1: yes.
    int Error = -1;   ///< -1: default, 0: no, 1: yes.
  };
  void set(const std::string &Group, bool Enable, int Error);
  std::map<Check, State> States;
  bool WarningsAsErrors = false;
  bool IgnoreWarnings = false;
};

} // namespace ts

#endif
