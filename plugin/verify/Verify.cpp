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

/// The k-loop (position in IC.Nests) a finding is at: the loop of the op
/// it is at, or its task's first; else the first k-loop.
size_t innerNestAt(const Program &P, const Kernel &K, const InnerCounts &IC,
                   SourceHandle At) {
  for (size_t N = 0; N < IC.Nests.size(); ++N) {
    const Task &T = P.Tasks[K.Tasks[IC.Nests[N].Task]];
    auto Here = [&](const Op &O) {
      return O.Loc == At &&
             (O.Sec != Section::Inner || O.Loop == IC.Nests[N].Loop);
    };
    if ((At == T.Loc && IC.Nests[N].Loop == 0) ||
        std::any_of(T.Ops.begin(), T.Ops.end(), Here))
      return N;
  }
  return 0;
}

/// The counts of a failing view: the finding's k-loop, then one k-loop of
/// each other class with more than one count (chosen independently), the
/// finding's task's own where it has one.
void noteCounts(const Program &P, const Kernel &K, const InnerCounts &IC,
                const std::vector<uint64_t> &PerNest, size_t At, Diag &D) {
  auto LoopOf = [&](size_t N) {
    const Nest &X = IC.Nests[N];
    return P.Tasks[K.Tasks[X.Task]].Inners[X.Loop].Loc;
  };
  note(D, LoopOf(At),
       "found with this inner ts::domain loop running " +
           plural(PerNest[At], "time") +
           " in each iteration of the loop around it");
  std::set<int> Told{IC.ClassOf[At]};
  for (bool Own : {true, false})
    for (size_t N = 0; N < IC.Nests.size(); ++N)
      if ((IC.Nests[N].Task == IC.Nests[At].Task) == Own &&
          IC.Counts[size_t(IC.ClassOf[N])].size() > 1 &&
          Told.insert(IC.ClassOf[N]).second)
        note(D, LoopOf(N),
             "and this one running " + plural(PerNest[N], "time"));
}

/// Every combination of the classes' inner counts, the last class fastest.
class CountCombos {
public:
  explicit CountCombos(InnerCounts IC) : IC(std::move(IC)) {
    Pos.assign(this->IC.Counts.size(), 0);
  }
  std::vector<uint64_t> perNest() const { return countsPerNest(IC, Pos); }
  bool next() { return nextCountChoice(Pos, IC); }
  /// The combination the report's table shows when nothing fails: each
  /// class at two inner iterations (or its one count).
  bool shown() const {
    for (size_t C = 0; C < Pos.size(); ++C)
      if (IC.Counts[C][Pos[C]] != std::min<uint64_t>(2, IC.Counts[C].back()))
        return false;
    return true;
  }
  std::string coverage() const {
    std::string Text;
    for (const std::vector<uint64_t> &Ns : IC.Counts)
      Text += (Text.empty() ? "" : ", ") +
              (Ns.size() == 1 ? plural(Ns[0], "time") + " (constant)"
                              : std::to_string(Ns.front()) + " to " +
                                    std::to_string(Ns.back()) + " times");
    return (IC.Counts.size() > 1 ? "inner loops " : "inner loop ") + Text +
           (IC.Counts.size() > 1 ? " (each pair its own count)" : "");
  }
  bool bounded() const {
    return std::any_of(IC.Counts.begin(), IC.Counts.end(),
                       [](const auto &Ns) { return Ns.size() > 1; });
  }

private:
  InnerCounts IC;
  std::vector<size_t> Pos;
};

/// Every check on the view of each inner trip count, smallest first; the
/// first count with an error is the counterexample shown.
VerifyResult verifyNested(const Program &P, const Kernel &K,
                          const KernelPlan &Plan) {
  bool Sound = true;
  VerifyResult R =
      runRows(P, K, Plan, /*Nested=*/true, /*OnKernel=*/true, Sound);
  if (!Sound) // The views write out a loop whose structure is broken.
    return R;
  InnerCounts IC = innerCounts(P, K);
  CountCombos Combos(IC);
  std::set<std::string> Seen;
  NestedViews Views;
  bool Shown = false;
  do {
    std::vector<uint64_t> PerNest = Combos.perNest();
    VerifyResult VR = verifyInnerCount(P, K, Plan, PerNest);
    Views[PerNest] = VR.View;
    bool Fails = hasError(VR.Diags);
    for (Diag &D : VR.Diags) {
      if (!Seen.insert(std::to_string(int(D.Group)) + "@" +
                       std::to_string(D.Loc) + D.Message)
               .second)
        continue;
      if (checkIsErrorByDefault(D.Group))
        noteCounts(P, K, IC, PerNest, innerNestAt(P, K, IC, D.Loc), D);
      R.Diags.push_back(std::move(D));
    }
    // The table shows two inner iterations per tile unless a run fails.
    if (Fails || !Shown || Combos.shown()) {
      R.Sim = std::move(VR.Sim);
      R.View = VR.View;
      R.Coverage = VR.Coverage;
      Shown = true;
    }
    if (Fails)
      return R;
  } while (Combos.next());
  size_t Before = R.Diags.size();
  std::string PerTile = checkPerTileCounts(P, K, Plan, IC, Views, R.Diags);
  if (hasError(DiagList(R.Diags.begin() + Before, R.Diags.end())))
    return R;
  R.Coverage =
      Combos.coverage() + PerTile +
      (Combos.bounded() ? " (bounded: docs/verifier.md, \"Nested domains\"); "
                          "outer loop, at each: "
                        : "; outer loop: ") +
      R.Coverage;
  return R;
}

} // namespace

VerifyResult verifyInnerCount(const Program &P, const Kernel &K,
                              const KernelPlan &Plan, uint64_t N) {
  return verifyInnerCount(P, K, Plan,
                          std::vector<uint64_t>(nestsOf(P, K).size(), N));
}

VerifyResult verifyInnerCount(const Program &P, const Kernel &K,
                              const KernelPlan &Plan,
                              const std::vector<uint64_t> &PerNest) {
  auto View = std::make_shared<Program>(innerUnrolled(P, K, PerNest));
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
