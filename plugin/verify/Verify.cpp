//===- Verify.cpp - All checks of a kernel --------------------------------===//
#include "verify/Verify.h"
#include "verify/Nested.h"
#include "verify/Registry.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <set>

namespace ts {
using namespace detail;

namespace {

bool hasError(const DiagList &Ds) {
  return std::any_of(Ds.begin(), Ds.end(), [](const Diag &D) {
    return checkIsErrorByDefault(D.Group);
  });
}

/// Whether row `Row` runs on the kernel (`OnKernel`) or on a nested
/// kernel's view (`!OnKernel`).
bool runsOn(const CheckRow &Row, bool Nested, bool OnKernel) {
  if (Row.Where == Scope::Protocol || Row.Where == Scope::Unit ||
      (Row.NestedOnly && !Nested))
    return false;
  if (!Nested)
    return true;
  return OnKernel ? Row.Where == Scope::Kernel : Row.Where == Scope::View;
}

/// The rows that run on one program, then the protocol unless a
/// structural row found an error. `Nested`: the kernel has nested k-loops;
/// with `OnKernel` these are its kernel rows, else the rows of one view.
/// `Sound`: no structural row found an error.
VerifyResult runRows(const Program &P, const Kernel &K, const KernelPlan &Plan,
                     bool Nested, bool OnKernel, bool &Sound) {
  VerifyResult R;
  Sound = true;
  for (const CheckRow &Row : checkRegistry()) {
    if (!runsOn(Row, Nested, OnKernel))
      continue;
    // A nested kernel's later rows and views need the structure sound.
    if (Nested && OnKernel && !Sound && !Row.Structural)
      continue;
    size_t Before = R.Diags.size();
    Row.Run(P, K, Plan, R);
    if (Row.Structural &&
        hasError(DiagList(R.Diags.begin() + Before, R.Diags.end())))
      Sound = false;
  }
  for (const CheckRow &Row : checkRegistry())
    if (Row.Where == Scope::Protocol && Sound && !(Nested && OnKernel))
      Row.Run(P, K, Plan, R);
  if (!Sound) {
    R.Coverage = "not run: fix the errors above first";
    R.ProtocolRun = false;
  }
  return R;
}

/// The inner loop of the task a finding is at (by its op), else the first.
SourceHandle innerLoc(const Program &P, const Kernel &K, SourceHandle At) {
  SourceHandle First = K.Loc;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Inner.Present)
      continue;
    if (First == K.Loc)
      First = T.Inner.Loc;
    if (At == T.Loc || std::any_of(T.Ops.begin(), T.Ops.end(),
                                   [&](const Op &O) { return O.Loc == At; }))
      return T.Inner.Loc;
  }
  return First;
}

/// Every check on the view of each inner trip count, smallest first; the
/// first count with an error is the counterexample shown.
VerifyResult verifyNested(const Program &P, const Kernel &K,
                          const KernelPlan &Plan) {
  bool Sound = true;
  VerifyResult R =
      runRows(P, K, Plan, /*Nested=*/true, /*OnKernel=*/true, Sound);
  if (!Sound) // The views write out a loop whose structure is broken.
    return R;
  std::vector<uint64_t> Ns = innerTripCounts(P, K);
  std::set<std::string> Seen;
  bool Shown = false;
  for (uint64_t N : Ns) {
    VerifyResult VR = verifyInnerCount(P, K, Plan, N);
    bool Fails = hasError(VR.Diags);
    for (Diag &D : VR.Diags) {
      if (!Seen.insert(std::to_string(int(D.Group)) + "@" +
                       std::to_string(D.Loc) + D.Message)
               .second)
        continue;
      if (checkIsErrorByDefault(D.Group))
        note(D, innerLoc(P, K, D.Loc),
             "found with this inner ts::domain loop running " +
                 plural(N, "time") +
                 " in each iteration of the loop around it");
      R.Diags.push_back(std::move(D));
    }
    // The table shows two inner iterations per tile unless a run fails.
    if (Fails || !Shown || N == std::min<uint64_t>(2, Ns.back())) {
      R.Sim = std::move(VR.Sim);
      R.View = VR.View;
      R.Coverage = VR.Coverage;
      Shown = true;
    }
    if (Fails)
      return R;
  }
  R.Coverage =
      Ns.size() == 1
          ? "inner loop " + plural(Ns[0], "time") +
                " (constant); outer loop: " + R.Coverage
          : "inner loop " + std::to_string(Ns.front()) + " to " +
                std::to_string(Ns.back()) +
                " times (bounded: docs/verifier.md, \"Nested domains\"); outer "
                "loop, at each: " +
                R.Coverage;
  return R;
}

} // namespace

VerifyResult verifyInnerCount(const Program &P, const Kernel &K,
                              const KernelPlan &Plan, uint64_t N) {
  auto View = std::make_shared<Program>(innerUnrolled(P, K, N));
  bool Sound = true;
  VerifyResult R =
      runRows(*View, K, Plan, /*Nested=*/true, /*OnKernel=*/false, Sound);
  R.View = View;
  return R;
}

DiagList verifyUnit(const Program &P, const Kernel &K, const KernelPlan &Plan) {
  VerifyResult R;
  for (const CheckRow &Row : checkRegistry())
    if (Row.Where == Scope::Unit)
      Row.Run(P, K, Plan, R);
  return R.Diags;
}

VerifyResult verifyKernel(const Program &P, const Kernel &K,
                          const KernelPlan &Plan) {
  if (hasNestedTask(P, K))
    return verifyNested(P, K, Plan);
  bool Sound = true;
  return runRows(P, K, Plan, /*Nested=*/false, /*OnKernel=*/true, Sound);
}

} // namespace ts
