//===- Driver.cpp - The pipeline of libts, once per kernel ----------------===//
#include "driver/Driver.h"
#include "lower/Lower.h"
#include "report/Html.h"
#include "report/Json.h"
#include "report/Report.h"

namespace ts {

namespace {

void count(const SeverityPolicy &Policy, const Diag &D, unsigned &Errors,
           unsigned &Warnings) {
  Level L = Policy.level(D.Group);
  Errors += L == Level::Error;
  Warnings += L == Level::Warning;
}

/// A structural finding that the -W flags made a warning kept the protocol
/// checks from running: say so, so no one takes the kernel as verified.
void notVerified(const SeverityPolicy &Policy, const Kernel &K,
                 KernelResult &R) {
  Diag D{Check::Bound,
         K.Loc,
         "kernel '" + K.Name +
             "' is not verified: the deadlock, balance and race checks did "
             "not run after a structural finding that is not an error here",
         {}};
  D.Notes.push_back({K.Loc, "fix that finding; with it an error (the "
                            "default), the kernel would not compile"});
  count(Policy, D, R.Errors, R.Warnings);
  R.Verify.Diags.push_back(std::move(D));
}

} // namespace

const KernelResult &Driver::kernel(const Program &P, size_t KI) {
  return decide(P, KI);
}

KernelResult &Driver::decide(const Program &P, size_t KI) {
  const Kernel &K = P.Kernels[KI];
  // Kernels without a position (built in tests) are never taken for another.
  std::unique_ptr<KernelResult> &Slot =
      K.Loc ? Decided[K.Loc] : Unplaced.emplace_back();
  if (Slot)
    return *Slot;
  auto R = std::make_unique<KernelResult>();
  const Target &T = targetOf(K.Arch);
  R->Plan = buildPlan(P, K, T, O.TripBound);
  R->Plan.WatchHangs = O.WatchHangs;
  R->Verify = verifyKernel(P, K, R->Plan);
  R->Verify.Diags.insert(R->Verify.Diags.begin(), R->Plan.Findings.begin(),
                         R->Plan.Findings.end());
  for (const Diag &D : R->Verify.Diags)
    count(O.Policy, D, R->Errors, R->Warnings);
  if (!R->Errors && !R->Verify.ProtocolRun)
    notVerified(O.Policy, K, *R);
  ++Planned;
  Slot = std::move(R);
  return *Slot;
}

std::string Driver::afterDeclaration(const Program &P, size_t KI,
                                     const KernelSource &KS,
                                     const std::vector<TaskSource> &Tasks) {
  const KernelResult &R = kernel(P, KI);
  if (R.Errors)
    return kernelTraits(R.Plan, KS);
  return definitionAfterDeclaration(P, P.Kernels[KI], R.Plan, KS, Tasks);
}

Outcome Driver::run(const Program &P, const DiagList &Syntax) {
  Outcome Out;
  Out.Diags = Syntax;
  Out.SyntaxOk = Syntax.empty();
  for (const Diag &D : Syntax)
    count(O.Policy, D, Out.Errors, Out.Warnings);
  if (!Out.SyntaxOk)
    return Out;
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    KernelResult &R = decide(P, I);
    if (!R.UnitChecked)
      for (Diag &D : verifyUnit(P, P.Kernels[I], R.Plan)) {
        count(O.Policy, D, R.Errors, R.Warnings);
        R.Verify.Diags.push_back(std::move(D));
      }
    R.UnitChecked = true;
    Out.Diags.insert(Out.Diags.end(), R.Verify.Diags.begin(),
                     R.Verify.Diags.end());
    Out.Errors += R.Errors;
    Out.Warnings += R.Warnings;
    Out.Kernels.push_back(&R);
  }
  return Out;
}

const char *Driver::levelName(const Diag &D) const {
  Level L = O.Policy.level(D.Group);
  return L == Level::Error ? "error" : L == Level::Warning ? "warning" : "";
}

std::string Driver::report(const Program &P, const Outcome &R) const {
  std::string Out;
  for (size_t I = 0; I < R.Kernels.size(); ++I) {
    const KernelResult &KR = *R.Kernels[I];
    Out += kernelReport(P, P.Kernels[I], KR.Plan, KR.Verify, KR.Errors,
                        KR.Warnings);
  }
  return Out;
}

std::string Driver::json(const Program &P, const Outcome &R,
                         const Locator &Where) const {
  auto Level = [this](const Diag &D) { return levelName(D); };
  // A tool reading the report checks the format's version (Json.h).
  std::string Out = "{\"format\":\"libts-report\",\"version\":" +
                    std::to_string(JsonFormatVersion) +
                    ",\"libts\":\"" LIBTS_VERSION "\",\"kernels\":[";
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    Out +=
        (I ? "," : "") + kernelJson(P, P.Kernels[I], R.Kernels[I]->Plan,
                                    R.Kernels[I]->Verify.Diags, Where, Level);
  return Out + "]}\n";
}

std::string Driver::html(const std::string &Title, const Program &P,
                         const Outcome &R, const Locator &Where,
                         const SourceLines &Lines) const {
  std::vector<HtmlKernel> Kernels;
  for (size_t I = 0; I < R.Kernels.size(); ++I)
    Kernels.push_back(
        {&P.Kernels[I], &R.Kernels[I]->Plan, &R.Kernels[I]->Verify});
  return htmlReport(
      Title, P, Kernels, Where, [this](const Diag &D) { return levelName(D); },
      Lines);
}

std::string Driver::dot(const Program &P) const {
  std::string Out;
  for (const Kernel &K : P.Kernels)
    Out += graphDot(P, K);
  return Out;
}

} // namespace ts
