//===- Stages.cpp - Ownership of every stage and token --------------------===//
//
// Follows each task alone through head, iterations and tail: which stage
// instance each stage variable holds, which instances the task still owns,
// and which try_ result each blocking op consumes. What one task does with
// its own stages does not depend on the other tasks, so trip counts 0 to 3
// (every guard combination) cover every run; MMA groups carried across
// iterations add the deepest wait_group's N to that.
//
//===----------------------------------------------------------------------===//
#include "plan/HandBack.h"
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace ts {
using namespace detail;

namespace {

struct Instance {
  unsigned TakenBy = 0;   ///< Op index of the acquire/wait.
  int ReturnedBy = -1;    ///< Op index of the commit/release, once returned.
  int ReadBy = -1;        ///< Op index of the last MMA issued on it.
  uint64_t ReadGroup = 0; ///< The MMA group that read it last.
};

struct Pending {
  unsigned Op = 0;      ///< The try_ op.
  uint64_t Section = 0; ///< Which head/iteration/tail it ran in.
};

class StageWalk {
public:
  StageWalk(const Program &P, const Task &T, DiagList &Out,
            std::set<std::string> &Seen, bool InAnyOrder)
      : P(P), T(T), Out(Out), Seen(Seen), InAnyOrder(InAnyOrder) {}

  void run(uint64_t Trips);

private:
  using Key = std::pair<unsigned, Role>; ///< Resource and the handle's role.
  Key keyOf(const Op &O) const {
    return {O.Resource, isProducerOp(O.Kind)   ? Role::Producer
                        : isConsumerOp(O.Kind) ? Role::Consumer
                                               : O.R};
  }
  std::string res(const Op &O) const {
    return quote(P.Resources[O.Resource].Name);
  }
  Diag *once(const std::string &Id, const Op &O, std::string Msg, Check G);
  void step(unsigned I);
  void take(unsigned I);
  void giveBack(unsigned I);
  void touch(unsigned I);
  void carry(const Op &O);
  void unheld(const Op &O);
  void endSection();
  void dangling(const Pending &Pd);
  void checkAsyncReaders(unsigned I, const Instance &In);

  const Program &P;
  const Task &T;
  DiagList &Out;
  std::set<std::string> &Seen;
  std::vector<Instance> Instances;
  std::map<Key, std::deque<unsigned>> Held; ///< Oldest first.
  std::map<int, unsigned> Bound;            ///< Stage variable -> instance.
  std::map<Key, Pending> Tries;
  uint64_t SectionNo = 0;
  uint64_t Committed = 0; ///< MMA groups closed by commit_group.
  uint64_t Completed = 0; ///< Groups a wait_group has seen complete.
  int LastWait = -1;      ///< The last wait_group op, for notes.
  /// Each slot has its own barriers: stages may go back in any order the
  /// simulation can credit (plan/HandBack.h).
  bool InAnyOrder;
};

Diag *StageWalk::once(const std::string &Id, const Op &O, std::string Msg,
                      Check G) {
  if (!Seen.insert(Id + "@" + std::to_string(O.Loc)).second)
    return nullptr;
  return &report(Out, G, O.Loc, std::move(Msg));
}

void StageWalk::take(unsigned I) {
  const Op &O = T.Ops[I];
  Key K = keyOf(O);
  OpKind Try = O.Kind == OpKind::Acquire ? OpKind::TryAcquire : OpKind::TryWait;
  auto It = Tries.find(K);
  if (O.Token == Op::ForgedToken) {
    if (Diag *D = once("forged", O,
                       std::string(opKindName(O.Kind)) + " of " + res(O) +
                           " is given a token that no " + opKindName(Try) +
                           " of this handle returned",
                       Check::Token))
      note(*D, O.Loc,
           std::string("pass the token of 'auto t = h.") + opKindName(Try) +
               "();' taken just before, in the same iteration; a forged "
               "ready token skips the wait and reads a stage still in flight");
  } else if (O.Token >= 0 &&
             (It == Tries.end() || It->second.Op != unsigned(O.Token) ||
              It->second.Section != SectionNo)) {
    if (Diag *D = once("stale", O,
                       std::string(opKindName(O.Kind)) + " of " + res(O) +
                           " uses a token that does not test this stage",
                       Check::Token)) {
      note(*D, T.Ops[O.Token].Loc,
           "the token comes from this " + std::string(opKindName(Try)) +
               ", which tested an earlier stage or iteration");
      note(
          *D, O.Loc,
          "take the token right before the blocking op, in the same iteration");
    }
  }
  Tries.erase(K);
  Instances.push_back({I, -1});
  Held[K].push_back(unsigned(Instances.size() - 1));
  if (O.Stage != Op::NoStage)
    Bound[O.Stage] = unsigned(Instances.size() - 1);
}

/// A released stage must not be read by an MMA any more: its group must
/// be committed and seen complete by a wait_group.
void StageWalk::checkAsyncReaders(unsigned I, const Instance &In) {
  if (In.ReadBy < 0 || In.ReadGroup < Completed)
    return;
  const Op &O = T.Ops[I];
  bool Open = In.ReadGroup >= Committed;
  Diag *D = once("async", O,
                 "release of " + res(O) +
                     " hands back a stage that a wgmma "
                     "may still be reading",
                 Check::Ownership);
  if (!D)
    return;
  note(*D, T.Ops[In.ReadBy].Loc, "the MMA reading the stage is issued here");
  if (Open)
    note(*D, O.Loc,
         "close its group with ts::wgmma::commit_group() and wait for it "
         "with ts::wgmma::wait_group<0>() before the release");
  else
    note(*D, LastWait >= 0 ? T.Ops[LastWait].Loc : O.Loc,
         "wait with ts::wgmma::wait_group<" +
             std::to_string(Committed - In.ReadGroup - 1) +
             ">() or a smaller N before the release: " +
             plural(Committed - In.ReadGroup, "group") +
             " committed since the read may still be running");
}

void StageWalk::giveBack(unsigned I) {
  const Op &O = T.Ops[I];
  std::deque<unsigned> &Q = Held[keyOf(O)];
  if (O.Oldest && Q.empty()) {
    if (Diag *D = once("none", O,
                       "release_oldest of " + res(O) +
                           " runs while the task holds no stage of it",
                       Check::Ownership))
      note(*D, O.Loc,
           "wait for a stage before handing the oldest back; guard the "
           "release like the wait it follows (i.first(), i.last() or "
           "their negations)");
    return;
  }
  auto B = Bound.find(O.Stage);
  if (!O.Oldest && B == Bound.end()) {
    if (O.CarriedStage)
      unheld(O);
    return;
  }
  unsigned Index = O.Oldest ? Q.front() : B->second;
  Instance &In = Instances[Index];
  if (O.Kind == OpKind::Release)
    checkAsyncReaders(I, In);
  std::string What = O.Kind == OpKind::Commit ? "committed" : "released";
  if (In.ReturnedBy >= 0) {
    if (Diag *D = once("twice", O,
                       std::string(opKindName(O.Kind)) + " of " + res(O) +
                           " hands back a stage that was already " + What,
                       Check::Ownership)) {
      note(*D, T.Ops[In.ReturnedBy].Loc, "the stage was " + What + " here");
      note(*D, O.Loc, "hand each stage back exactly once");
    }
    return;
  }
  if (!Q.empty() && Q.front() != Index && !InAnyOrder) {
    if (Diag *D =
            once("order", O,
                 std::string(opKindName(O.Kind)) + " of " + res(O) +
                     " hands back a newer stage while an older one is held",
                 Check::Ownership)) {
      note(*D, T.Ops[Instances[Q.front()].TakenBy].Loc,
           "the older stage was taken here");
      note(*D, O.Loc,
           "hand stages of one resource back oldest first, or hand the older "
           "one back in the same iteration without release_oldest()");
    }
  }
  Q.erase(std::find(Q.begin(), Q.end(), Index));
  In.ReturnedBy = int(I);
}

/// A carried variable holds the stage it was last assigned, or none since
/// its declaration ran.
void StageWalk::carry(const Op &O) {
  auto From = Bound.find(O.From);
  if (From == Bound.end())
    Bound.erase(O.Stage);
  else
    Bound[O.Stage] = From->second;
}

void StageWalk::unheld(const Op &O) {
  if (Diag *D = once("unheld", O,
                     std::string(opKindName(O.Kind)) + " of " + res(O) +
                         " hands back a carried stage variable that holds no "
                         "stage here",
                     Check::Ownership))
    note(*D, O.Loc,
         "assign it a stage first ('prev = s;'); a release that lags one "
         "iteration runs under 'if (!i.first())'");
}

void StageWalk::touch(unsigned I) {
  const Op &O = T.Ops[I];
  auto B = Bound.find(O.Stage);
  if (B == Bound.end())
    return;
  if (O.AsyncRead) {
    Instances[B->second].ReadBy = int(I);
    Instances[B->second].ReadGroup = Committed;
  }
  if (Instances[B->second].ReturnedBy < 0)
    return;
  const Op &Back = T.Ops[Instances[B->second].ReturnedBy];
  bool Committed = Back.Kind == OpKind::Commit;
  if (Diag *D = once("after", O,
                     "stage of " + res(O) + " is used after it was " +
                         (Committed ? "committed" : "released"),
                     Check::Ownership)) {
    note(*D, Back.Loc,
         std::string("the stage was ") +
             (Committed ? "committed" : "released") +
             " here; another task may now " +
             (Committed ? "read" : "overwrite") + " it");
    note(*D, O.Loc,
         std::string("move the use before the ") + opKindName(Back.Kind));
  }
}

void StageWalk::dangling(const Pending &Pd) {
  const Op &O = T.Ops[Pd.Op];
  const char *Blocking = O.Kind == OpKind::TryAcquire ? "acquire" : "wait";
  if (Diag *D =
          once("dangling", O,
               std::string(opKindName(O.Kind)) + " of " + res(O) +
                   " is not followed by " + Blocking + " in the same iteration",
               Check::UnusedToken))
    note(
        *D, O.Loc,
        std::string("pass its token to ") + Blocking +
            "(token) after it, in the same iteration and under the same guard");
}

/// A try_ must be followed by its blocking op in the same section run.
void StageWalk::endSection() {
  for (auto &[K, Pd] : Tries)
    dangling(Pd);
  Tries.clear();
  ++SectionNo;
}

void StageWalk::step(unsigned I) {
  const Op &O = T.Ops[I];
  if (O.Kind == OpKind::MmaCommit) {
    ++Committed;
    return;
  }
  if (O.Kind == OpKind::Carry)
    return carry(O);
  if (O.Kind == OpKind::MmaWait) {
    Completed =
        std::max(Completed, Committed > O.Pending ? Committed - O.Pending : 0);
    LastWait = int(I);
    return;
  }
  if (!O.onResource() || !isPipelined(P.Resources[O.Resource].Kind))
    return;
  switch (O.Kind) {
  case OpKind::TryAcquire:
  case OpKind::TryWait: {
    auto It = Tries.find(keyOf(O));
    if (It != Tries.end()) // The earlier try is never consumed.
      dangling(It->second);
    Tries[keyOf(O)] = {I, SectionNo};
    return;
  }
  case OpKind::Acquire:
  case OpKind::Wait:
    return take(I);
  case OpKind::Commit:
  case OpKind::Release:
    return giveBack(I);
  case OpKind::Work:
    return touch(I);
  case OpKind::PdlWait:
  case OpKind::PdlLaunch:
  case OpKind::MmaCommit:
  case OpKind::MmaWait:
  case OpKind::Carry:
  case OpKind::Take: // turns: verify/Turns.cpp
  case OpKind::Pass:
    return;
  }
}

void StageWalk::run(uint64_t Trips) {
  auto Runs = [&](const Op &O, Section S, uint64_t It) {
    return O.Sec == S && (S != Section::Loop || guardRuns(O.G, It, Trips));
  };
  for (unsigned I = 0; I < T.Ops.size(); ++I)
    if (Runs(T.Ops[I], Section::Head, 0))
      step(I);
  endSection();
  for (uint64_t It = 0; It < (T.Dom.Present ? Trips : 0); ++It) {
    for (unsigned I = 0; I < T.Ops.size(); ++I)
      if (Runs(T.Ops[I], Section::Loop, It))
        step(I);
    endSection();
  }
  for (unsigned I = 0; I < T.Ops.size(); ++I)
    if (Runs(T.Ops[I], Section::Tail, 0))
      step(I);
  endSection();
}

} // namespace

void checkStages(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    std::set<std::string> Seen;
    // Groups still pending from earlier iterations: each wait_group<N>
    // looks N iterations back, so the steady state starts N later.
    uint64_t Depth = 0;
    for (const Op &O : T.Ops)
      if (O.Kind == OpKind::MmaWait)
        Depth = std::max<uint64_t>(Depth, std::min(O.Pending, 8u));
    std::optional<uint64_t> C = T.Dom.constantTrips();
    uint64_t Last = 3 + Depth;
    bool InAnyOrder = handBackCredits(P, T).has_value();
    for (uint64_t N = 0; N <= Last; ++N)
      if (!C || *C == N || (N == Last && *C > Last))
        StageWalk(P, T, Out, Seen, InAnyOrder).run(N);
  }
}

} // namespace ts
