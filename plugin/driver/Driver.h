//===- Driver.h - The pipeline of libts, once per kernel --------*- C++ -*-===//
//
// The one place that runs the layers in order: the front end hands over
// the model it extracted; the driver plans and verifies each kernel exactly
// once per compile, applies the severity policy and assembles the outputs
// (reports, the rewritten file). It knows nothing of clang.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_DRIVER_DRIVER_H
#define LIBTS_DRIVER_DRIVER_H

#include "driver/Severity.h"
#include "model/Diag.h"
#include "model/Model.h"
#include "model/Source.h"
#include "plan/Plan.h"
#include "report/Json.h"
#include "verify/Verify.h"

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ts {

struct DriverOptions {
  SeverityPolicy Policy;
  /// Trip counts checked where the every-N argument ends (-trip-bound).
  uint64_t TripBound = 64;
  /// -debug-hangs: generated waits carry their site for the watchdog.
  bool WatchHangs = false;
};

/// What the plan and the checks decided for one kernel.
struct KernelResult {
  KernelPlan Plan;
  VerifyResult Verify; ///< The plan's findings first, then the checks'.
  unsigned Errors = 0; ///< Findings at each level under the policy.
  unsigned Warnings = 0;
  /// The checks on the whole translation unit ran (Driver::run).
  bool UnitChecked = false;
};

/// One translation unit: syntax findings, then each kernel's, in order.
struct Outcome {
  DiagList Diags;
  unsigned Errors = 0;
  unsigned Warnings = 0;
  bool SyntaxOk = true;
  std::vector<const KernelResult *> Kernels; ///< Parallel to Program::Kernels.
};

class Driver {
public:
  explicit Driver(DriverOptions O) : O(std::move(O)) {}

  /// Plans and verifies kernel `K` of `P`; a kernel this driver already
  /// decided (same declaration) is not planned again: a code-generating
  /// compile decides each kernel where its definition is generated, and
  /// the end of the translation unit reuses that decision.
  const KernelResult &kernel(const Program &P, size_t K);
  /// Every kernel of the translation unit after its syntax findings;
  /// with syntax errors no kernel is planned.
  Outcome run(const Program &P, const DiagList &Syntax);

  /// What a code-generating compile parses right after kernel K's
  /// declaration: its traits and definition, or its traits alone when it
  /// has errors (host code that launches it still compiles, so the libts
  /// errors are the ones the user sees).
  std::string afterDeclaration(const Program &P, size_t K,
                               const KernelSource &KS,
                               const std::vector<TaskSource> &Tasks);

  const SeverityPolicy &policy() const { return O.Policy; }
  /// "error", "warning" or "" (ignored) for a finding under the policy.
  const char *levelName(const Diag &D) const;

  /// Kernels planned and verified by this driver so far (-stats).
  unsigned kernelsPlanned() const { return Planned; }

  /// The -report text, the -json document, the -html page and the -dot
  /// graph of an outcome.
  std::string report(const Program &P, const Outcome &R) const;
  std::string json(const Program &P, const Outcome &R,
                   const Locator &Where) const;
  std::string html(const std::string &Title, const Program &P, const Outcome &R,
                   const Locator &Where, const SourceLines &Lines = {}) const;
  std::string dot(const Program &P) const;

private:
  KernelResult &decide(const Program &P, size_t K);

  DriverOptions O;
  std::map<SourceHandle, std::unique_ptr<KernelResult>> Decided;
  std::deque<std::unique_ptr<KernelResult>> Unplaced;
  unsigned Planned = 0;
};

} // namespace ts

#endif
