//===- Bracketing.cpp - Work inside acquire/commit and wait/release -------===//
//
// On head + one loop iteration + tail (guards ignored): stages are taken
// before they are worked on or handed back, pairs are guarded alike, and
// nothing taken is left behind. Which stage a use touches is followed
// exactly by the ownership check (Stages.cpp).
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <optional>

namespace ts {
using namespace detail;

namespace {

/// Spelling of one bracket kind in messages.
struct Words {
  OpKind Open, Close;
  const char *Opened, *Closed; ///< "acquired" / "committed".
};
const Words ProducerWords{OpKind::Acquire, OpKind::Commit, "acquired",
                          "committed"};
const Words ConsumerWords{OpKind::Wait, OpKind::Release, "waited for",
                          "released"};

Role roleOf(const Op &O) {
  if (isProducerOp(O.Kind))
    return Role::Producer;
  if (isConsumerOp(O.Kind))
    return Role::Consumer;
  return O.R;
}

class BracketChecker {
public:
  BracketChecker(const Program &P, const Task &T, unsigned R, Role Ro,
                 DiagList &Out)
      : P(P), T(T), R(R),
        W(Ro == Role::Producer ? ProducerWords : ConsumerWords), Ro(Ro),
        Out(Out) {}

  void run(const std::vector<unsigned> &Linear);

private:
  const Op &op(unsigned I) const { return T.Ops[I]; }
  std::string res() const { return quote(P.Resources[R].Name); }
  std::string name(OpKind K) const { return opKindName(K); }
  bool mine(unsigned I) const {
    return op(I).Resource == R && roleOf(op(I)) == Ro;
  }
  void closeLoop();
  bool balancedForEveryN() const;

  const Program &P;
  const Task &T;
  unsigned R;
  const Words &W;
  Role Ro;
  DiagList &Out;
  std::vector<unsigned> Open; ///< Stages held, oldest first.
  std::optional<unsigned> LastClose;
  bool WorkReported = false; ///< One error per run of stray work.
  /// A hand-back under 'if (!i.first())': it returns the stage the previous
  /// iteration took (the lag of an asynchronous reader).
  bool CarriesOver = false;
};

/// Takes and hand-backs are equal for trip counts 0 to 3: both counts are
/// linear in N from N = 2 on, so equal there means equal for every N.
bool BracketChecker::balancedForEveryN() const {
  for (uint64_t N = 0; N <= 3; ++N) {
    int64_t Net = 0;
    for (const Op &O : T.Ops) {
      if (O.Resource != R || roleOf(O) != Ro ||
          (O.Kind != W.Open && O.Kind != W.Close))
        continue;
      uint64_t Runs = 1;
      if (O.Sec == Section::Loop) {
        Runs = 0;
        for (uint64_t It = 0; It < N; ++It)
          Runs += guardRuns(O.G, It, N);
      }
      Net += O.Kind == W.Open ? int64_t(Runs) : -int64_t(Runs);
    }
    if (Net != 0)
      return false;
  }
  return true;
}

void BracketChecker::run(const std::vector<unsigned> &Linear) {
  Section Prev = Section::Head;
  for (size_t Pos = 0; Pos < Linear.size(); ++Pos) {
    unsigned I = Linear[Pos];
    const Op &O = op(I);
    if (O.Sec != Prev) {
      if (Prev == Section::Loop)
        closeLoop();
      Prev = O.Sec;
    }
    if (!mine(I))
      continue;

    if (O.Kind == W.Open) {
      Open.push_back(I);
      WorkReported = false;
    } else if (O.Kind == W.Close && (O.Oldest || O.CarriedStage) &&
               O.Sec == Section::Loop && O.G == Guard::NotFirstIter) {
      CarriesOver = true; // Stages.cpp follows which stage it returns.
      LastClose = I;
    } else if (O.Kind == W.Close) {
      if (Open.empty()) {
        Diag &D = report(Out, Check::Bracket, O.Loc,
                         name(W.Close) + " of " + res() + " without an open " +
                             name(W.Open));
        if (LastClose)
          note(D, op(*LastClose).Loc,
               std::string("the last stage was ") + W.Closed + " here");
        note(D, O.Loc, name(W.Open) + " a stage before the " + name(W.Close));
      }
      unsigned Front = Open.empty() ? I : Open.front();
      if (!Open.empty() && op(Front).Sec == Section::Loop &&
          O.Sec == Section::Loop && op(Front).G != O.G &&
          !balancedForEveryN()) {
        // Guarded differently, the pair balances in no iteration count but
        // one: stages leak (or are handed back twice) on the others.
        const Op &Guarded = O.G != Guard::Always ? O : op(Front);
        Diag &D = report(Out, Check::Bracket, Guarded.Loc,
                         name(O.Kind) + " of " + res() + " runs " +
                             guardWords(O.G) + " but its " + name(W.Open) +
                             " runs " + guardWords(op(Front).G));
        note(D, op(Front).Loc, std::string("stage ") + W.Opened + " here");
        note(D, Guarded.Loc,
             "guard the " + name(W.Open) + " and the " + name(W.Close) +
                 " alike: both under the same i.first()/i.last(), or neither");
      }
      // The stage the op names, when it is held; else the oldest.
      auto Named = std::find_if(Open.begin(), Open.end(), [&](unsigned J) {
        return O.Stage != Op::NoStage && op(J).Stage == O.Stage;
      });
      if (!Open.empty())
        Open.erase(Named != Open.end() ? Named : Open.begin());
      LastClose = I;
      WorkReported = false;
    } else if (O.Kind == OpKind::Work && Open.empty() && !WorkReported &&
               !LastClose) {
      WorkReported = true;
      Diag &D =
          report(Out, Check::Bracket, O.Loc,
                 "work on a stage of " + res() + " before it is " + W.Opened);
      auto Next =
          std::find_if(Linear.begin() + Pos, Linear.end(), [&](unsigned J) {
            return mine(J) && op(J).Kind == W.Open;
          });
      if (Next != Linear.end())
        note(D, op(*Next).Loc, std::string("stage ") + W.Opened + " here");
      note(D, O.Loc, name(W.Open) + " a stage before working on it");
    }
  }
  if (Prev == Section::Loop)
    closeLoop();
  for (unsigned I : Open) {
    Diag &D = report(Out, Check::Bracket, op(I).Loc,
                     "stage of " + res() + " " + W.Opened + " here is never " +
                         W.Closed);
    note(D, op(I).Loc, name(W.Close) + " the stage before the task returns");
  }
}

/// A stage taken in the body must be handed back in the same iteration:
/// its variable ends with the iteration, nothing could hand it back later;
/// except by release_oldest() under 'if (!i.first())' in the next one.
void BracketChecker::closeLoop() {
  bool Lagged = CarriesOver && balancedForEveryN();
  for (auto It = Open.begin(); It != Open.end();) {
    if (op(*It).Sec != Section::Loop) {
      ++It;
      continue;
    }
    if (!Lagged) {
      Diag &D =
          report(Out, Check::Bracket, op(*It).Loc,
                 "stage of " + res() + " " + W.Opened + " in the loop is not " +
                     W.Closed + " in the same iteration");
      note(D, op(*It).Loc,
           name(W.Close) + " it before the end of the loop body");
      if (CarriesOver)
        note(D, op(*It).Loc,
             "or, for an asynchronous reader, hand it back in the next "
             "iteration with "
             "release_oldest() under 'if (!i.first())' and hand the last one "
             "back "
             "under 'if (i.last())'");
    }
    It = Open.erase(It);
  }
}

} // namespace

void checkBracketing(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    // Head, then one loop iteration, then tail.
    std::vector<unsigned> Linear;
    for (Section S : {Section::Head, Section::Loop, Section::Tail})
      for (unsigned I = 0; I < T.Ops.size(); ++I)
        if (T.Ops[I].Sec == S)
          Linear.push_back(I);

    std::vector<unsigned> Resources;
    for (const Op &O : T.Ops)
      if (O.onResource() && isPipelined(P.Resources[O.Resource].Kind) &&
          std::find(Resources.begin(), Resources.end(), O.Resource) ==
              Resources.end())
        Resources.push_back(O.Resource);
    for (unsigned R : Resources)
      for (Role Ro : {Role::Producer, Role::Consumer})
        BracketChecker(P, T, R, Ro, Out).run(Linear);
  }
}

} // namespace ts
