//===- Bracketing.cpp - Work inside acquire/commit and wait/release -------===//
//
// On head + one loop iteration + tail (guards ignored), every stage access
// must sit between the op that makes the stage the task's and the op that
// hands it back; otherwise the task touches memory another task owns.
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
  OpKind Open, Close, Try;
  const char *Opened, *Closed; ///< "acquired" / "committed".
};
const Words ProducerWords{OpKind::Acquire, OpKind::Commit, OpKind::TryAcquire,
                          "acquired", "committed"};
const Words ConsumerWords{OpKind::Wait, OpKind::Release, OpKind::TryWait,
                          "waited for", "released"};

const char *guardWords(Guard G) {
  switch (G) {
  case Guard::Always:
    return "every iteration";
  case Guard::FirstIter:
    return "only on the first iteration";
  case Guard::LastIter:
    return "only on the last iteration";
  }
  return "";
}

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
  void closeLoop(const std::vector<unsigned> &Linear);
  void checkTry(const std::vector<unsigned> &Linear, size_t Pos);

  const Program &P;
  const Task &T;
  unsigned R;
  const Words &W;
  Role Ro;
  DiagList &Out;
  std::optional<unsigned> Open, LastClose;
  bool WorkReported = false; ///< One error per run of stray work.
};

void BracketChecker::run(const std::vector<unsigned> &Linear) {
  bool LoopHasOps = std::any_of(Linear.begin(), Linear.end(), [&](unsigned I) {
    return op(I).Sec == Section::Loop && mine(I);
  });
  Section Prev = Section::Head;
  for (size_t Pos = 0; Pos < Linear.size(); ++Pos) {
    unsigned I = Linear[Pos];
    const Op &O = op(I);
    if (O.Sec != Prev) {
      if (Prev == Section::Head && O.Sec == Section::Loop && Open &&
          LoopHasOps) {
        Diag &D = report(Out, Check::Bracket, op(*Open).Loc,
                         "stage of " + res() + " " + W.Opened +
                             " before the loop is still held in the loop");
        note(D, op(*Open).Loc,
             name(W.Close) + " it before the loop, or " + name(W.Open) +
                 " and " + name(W.Close) + " inside the loop body");
      }
      if (Prev == Section::Loop)
        closeLoop(Linear);
      Prev = O.Sec;
    }
    if (!mine(I))
      continue;

    if (O.Kind == W.Try) {
      checkTry(Linear, Pos);
    } else if (O.Kind == W.Open) {
      if (Open) {
        Diag &D = report(Out, Check::Bracket, O.Loc,
                         name(W.Open) + " of " + res() +
                             " while a stage is still held");
        note(D, op(*Open).Loc, std::string("stage ") + W.Opened + " here");
        note(D, O.Loc,
             name(W.Close) + " the held stage first; a task holds "
                             "one stage of a resource at a time");
      }
      Open = I;
      WorkReported = false;
    } else if (O.Kind == W.Close) {
      if (!Open) {
        Diag &D = report(Out, Check::Bracket, O.Loc,
                         name(W.Close) + " of " + res() + " without an open " +
                             name(W.Open));
        if (LastClose)
          note(D, op(*LastClose).Loc,
               std::string("the last stage was ") + W.Closed + " here");
        note(D, O.Loc, name(W.Open) + " a stage before the " + name(W.Close));
      }
      if (Open && op(*Open).Sec == Section::Loop && O.Sec == Section::Loop &&
          op(*Open).G != O.G) {
        // Guarded differently, the pair balances in no iteration count but
        // one: stages leak (or are handed back twice) on the others.
        const Op &Guarded = O.G != Guard::Always ? O : op(*Open);
        Diag &D = report(Out, Check::Bracket, Guarded.Loc,
                         name(O.Kind) + " of " + res() + " runs " +
                             guardWords(O.G) + " but its " + name(W.Open) +
                             " runs " + guardWords(op(*Open).G));
        note(D, op(*Open).Loc, std::string("stage ") + W.Opened + " here");
        note(D, Guarded.Loc,
             "guard the " + name(W.Open) + " and the " + name(W.Close) +
                 " alike: both under the same i.first()/i.last(), or neither");
      }
      Open.reset();
      LastClose = I;
      WorkReported = false;
    } else if (O.Kind == OpKind::Work && !Open && !WorkReported) {
      WorkReported = true;
      if (LastClose) {
        Diag &D =
            report(Out, Check::Bracket, O.Loc,
                   "work on a stage of " + res() + " after it was " + W.Closed);
        note(D, op(*LastClose).Loc, std::string("stage ") + W.Closed + " here");
        note(D, O.Loc, "move the work before the " + name(W.Close));
        continue;
      }
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
    closeLoop(Linear);
  if (Open) {
    Diag &D = report(Out, Check::Bracket, op(*Open).Loc,
                     "stage of " + res() + " " + W.Opened + " here is never " +
                         W.Closed);
    note(D, op(*Open).Loc,
         name(W.Close) + " the stage before the task returns");
  }
}

/// A stage taken in the body must be handed back in the same iteration, or
/// the next iteration takes a second one.
void BracketChecker::closeLoop(const std::vector<unsigned> &Linear) {
  if (!Open || op(*Open).Sec != Section::Loop)
    return;
  Diag &D =
      report(Out, Check::Bracket, op(*Open).Loc,
             "stage of " + res() + " " + W.Opened + " in the loop is not " +
                 W.Closed + " in the same iteration");
  note(D, op(*Open).Loc, name(W.Close) + " it before the end of the loop body");
  Open.reset();
}

/// A try_* only tests; the blocking op must follow (in a loop, possibly in
/// the next iteration).
void BracketChecker::checkTry(const std::vector<unsigned> &Linear, size_t Pos) {
  auto IsOpen = [&](unsigned J) { return mine(J) && op(J).Kind == W.Open; };
  if (std::any_of(Linear.begin() + Pos + 1, Linear.end(), IsOpen))
    return;
  const Op &O = op(Linear[Pos]);
  if (O.Sec == Section::Loop &&
      std::any_of(Linear.begin(), Linear.begin() + Pos, [&](unsigned J) {
        return op(J).Sec == Section::Loop && IsOpen(J);
      }))
    return;
  Diag &D = report(Out, Check::Bracket, O.Loc,
                   name(W.Try) + " of " + res() + " is never followed by " +
                       name(W.Open));
  note(D, O.Loc,
       "pass its token to " + name(W.Open) + "(token) on the same handle");
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
      if (isPipelined(P.Resources[O.Resource].Kind) &&
          std::find(Resources.begin(), Resources.end(), O.Resource) ==
              Resources.end())
        Resources.push_back(O.Resource);
    for (unsigned R : Resources)
      for (Role Ro : {Role::Producer, Role::Consumer})
        BracketChecker(P, T, R, Ro, Out).run(Linear);
  }
}

} // namespace ts
