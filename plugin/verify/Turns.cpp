//===- Turns.cpp - The ring of a ts::turns resource -----------------------===//
//
// A turn goes round its ring one position at a time: position 0 holds it
// first, and each holder hands it to the next position. The ring must be
// whole (positions 0 .. n-1, each taken once, n >= 2) and each task must
// take the turn and pass it on in pairs, within one loop body and under one
// guard: a missing pass leaves the next position waiting forever, and a
// pass without a take arrives on the next barrier twice in one phase. The
// simulation (verify/Credit.cpp) then proves the ring cannot deadlock with
// the pipelines.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <map>

namespace ts {
using namespace detail;

namespace {

const char *const RingHint =
    "give the tasks of the ring positions 0, 1, ... with ts::turn<R, Pos>: "
    "position 0 takes the turn first and each position passes it to the "
    "next";

/// Positions 0 .. n-1, each once, n >= 2.
void checkRing(const Program &P, const Kernel &K, unsigned R, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  std::map<unsigned, const Task *> Held;
  const TaskParam *Last = nullptr;
  bool Twice = false;
  for (unsigned TI : K.Tasks)
    for (const TaskParam &TP : P.Tasks[TI].Params) {
      if (TP.K != TaskParam::Kind::Turn || TP.Resource != R)
        continue;
      Last = &TP;
      auto [It, New] = Held.insert({TP.Position, &P.Tasks[TI]});
      if (!New) {
        Diag &D = report(Out, Check::Turn, TP.Loc,
                         "tasks " + quote(It->second->Name) + " and " +
                             quote(P.Tasks[TI].Name) + " both take position " +
                             std::to_string(TP.Position) + " of the ring of " +
                             quote(Res.Name));
        note(D, TP.Loc, RingHint);
        Twice = true;
      }
    }
  if (!Last || Twice)
    return;
  if (Held.size() < 2) {
    Diag &D = report(Out, Check::Turn, Last->Loc,
                     "the ring of " + quote(Res.Name) +
                         " has one task: a turn needs two");
    note(D, Res.Loc, RingHint);
    return;
  }
  unsigned Expect = 0;
  for (const auto &[Pos, T] : Held) {
    if (Pos != Expect) {
      Diag &D = report(Out, Check::Turn, Last->Loc,
                       "the ring of " + quote(Res.Name) + " has no position " +
                           std::to_string(Expect) + ": its " +
                           std::to_string(Held.size()) +
                           " tasks must take positions 0 to " +
                           std::to_string(Held.size() - 1));
      note(D, Res.Loc, RingHint);
      return;
    }
    ++Expect;
  }
}

/// In each section of T, the ops on R run take, pass, take, pass, ... with
/// each pass under its take's guard.
void checkPairs(const Program &P, const Task &T, unsigned R, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  bool Any = false;
  for (Section S :
       {Section::Head, Section::Loop, Section::Inner, Section::Tail}) {
    const Op *Open = nullptr;
    for (const Op &O : T.Ops) {
      if (O.Sec != S || O.Resource != R)
        continue;
      Any = true;
      if (O.Kind == OpKind::Take && Open) {
        Diag &D = report(Out, Check::Turn, O.Loc,
                         "turn of " + quote(Res.Name) +
                             " taken again before it was passed on");
        note(D, Open->Loc, "it was taken here; pass it on in between");
        return;
      }
      if (O.Kind == OpKind::Pass && (!Open || Open->G != O.G)) {
        Diag &D = report(Out, Check::Turn, O.Loc,
                         "turn of " + quote(Res.Name) + " passed by " +
                             quote(T.Name) +
                             (Open ? " under another guard than its take"
                                   : " without being taken") +
                             ": the next position would get it twice");
        note(D, O.Loc,
             "take the turn, then pass it, in the same loop body under the "
             "same guard");
        return;
      }
      Open = O.Kind == OpKind::Take ? &O : nullptr;
    }
    if (Open) {
      Diag &D =
          report(Out, Check::Turn, Open->Loc,
                 "turn of " + quote(Res.Name) + " taken by " + quote(T.Name) +
                     " is not passed on in the same loop body: the "
                     "next position waits forever");
      note(D, Open->Loc, "call pass() after the work the turn orders");
      return;
    }
  }
  if (!Any) {
    Diag &D = report(Out, Check::Turn, T.Loc,
                     "task " + quote(T.Name) + " has a place in the ring of " +
                         quote(Res.Name) +
                         " but never takes the turn: the ring stops there");
    note(D, T.Loc, "call take() and pass(), or drop its ts::turn parameter");
  }
}

} // namespace

void checkTurns(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out) {
  for (const TurnPlan &TP : Plan.Turns) {
    checkRing(P, K, TP.Resource, Out);
    for (unsigned TI : K.Tasks)
      for (const TaskParam &X : P.Tasks[TI].Params)
        if (X.K == TaskParam::Kind::Turn && X.Resource == TP.Resource)
          checkPairs(P, P.Tasks[TI], TP.Resource, Out);
  }
  if (Plan.TurnIdsShort) {
    Diag &D = report(Out, Check::Turn, K.Loc,
                     "the turns of kernel " + quote(K.Name) + " need " +
                         std::to_string(Plan.TurnIdsShort) +
                         " more named barriers than the " +
                         std::to_string(Plan.Tgt->NamedBarriers) +
                         " the hardware has");
    note(D, K.Loc,
         "each position of a ring takes one barrier, after id 0 and one per "
         "warp group: use fewer positions or fewer warp groups");
  }
}

} // namespace ts
