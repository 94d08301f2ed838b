//===- TmaStores.cpp - Fences, barriers and waits around TMA stores -------===//
//
// Runs each task's store events (model/Stores.h) for every trip count a
// loop may take up to a bound: a store's source must be fenced by its
// writers and passed through a barrier before one thread issues it, and is
// not written again until the issuer waited for its reads and a barrier
// told the others. A rotation over a buffer array (bufs[i % K]) wraps after
// K iterations, so K + 1 runs of a loop of unknown count show every reuse.
// A branch whose condition is unknown is taken in some runs and skipped in
// others (the first ones each run meets, within a budget), so code that
// stores on both sides of an `if` is checked path by path; past the budget
// both outcomes are joined, which may refuse but never accepts a race.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>
#include <map>
#include <optional>

namespace ts {

using namespace detail;

namespace {

/// Counts a loop of unknown trip count is run for; a loop of known count
/// up to kMaxTrips runs exactly.
const int64_t kUnknownTrips[] = {0, 1, 2, 3, 5};
const int64_t kMaxTrips = 64;
const size_t kMaxRuns = 1024;
/// Runs per task with the branches of unknown condition explored: each run
/// takes or skips the first branches it meets as its choices say (both
/// ways, over the runs), within this budget; later ones join both outcomes.
const size_t kMaxChoiceRuns = 4096;

bool known(const StoreEvent &Loop) {
  return Loop.Trips && *Loop.Trips <= kMaxTrips;
}

/// A step of an access with its index evaluated (none: any element).
struct Part {
  std::string Field;
  std::optional<int64_t> Elem;
};
using Place = std::vector<Part>;

/// Two accesses of one buffer overlap unless some step tells them apart:
/// another member, or another element of an array.
bool overlap(int B1, const Place &P1, int B2, const Place &P2) {
  if (B1 == AnyBuffer || B2 == AnyBuffer)
    return true;
  if (B1 != B2)
    return false;
  for (size_t I = 0; I < P1.size() && I < P2.size(); ++I) {
    if (P1[I].Field != P2[I].Field)
      return P1[I].Field.empty() || P2[I].Field.empty();
    if (P1[I].Elem && P2[I].Elem && *P1[I].Elem != *P2[I].Elem)
      return false;
  }
  return true;
}

struct Pending {
  int Buffer;
  Place Where;
  bool DoneIssuer = false, DoneAll = false;
  /// Issued by every thread (or warp): only a wait they all run covers it.
  bool ByAll = false;
  uint64_t Loc;
  uint64_t Seq = 0;   ///< Issue order: the same store in either branch.
  bool Surely = true; ///< Issued whichever way the branches before went.
};

struct Written {
  int Buffer;
  Place Where;
  bool ByAll;
  enum { Unfenced, Fenced, Visible } St = Unfenced;
  uint64_t Loc;
  uint64_t Seq = 0;
};

bool holds(int64_t V, const StoreEvent &If) {
  switch (If.Op) {
  case StoreEvent::Cmp::Lt:
    return V < If.Rhs;
  case StoreEvent::Cmp::Le:
    return V <= If.Rhs;
  case StoreEvent::Cmp::Gt:
    return V > If.Rhs;
  case StoreEvent::Cmp::Ge:
    return V >= If.Rhs;
  case StoreEvent::Cmp::Eq:
    return V == If.Rhs;
  case StoreEvent::Cmp::Ne:
    return V != If.Rhs;
  }
  return true;
}

/// A write through a pointer the front end does not follow may be into
/// any buffer: say so, and how to make it followed.
std::string writtenHere(const Written &W) {
  return W.Buffer == AnyBuffer
             ? "written here through a pointer the analysis does not follow "
               "(assigned after its declaration or returned by a call; "
               "initialise it once from the buffer to have it followed), "
               "so it may be this buffer"
             : "written here";
}

/// One run of a task's events with one trip count per unknown loop.
class StoreRun {
public:
  StoreRun(const Task &T, const std::vector<int64_t> &Trips,
           const std::vector<bool> &Choices, size_t MaxChoices,
           std::map<std::pair<int, uint64_t>, Diag> &Found)
      : T(T), E(T.StoreEvents), Trips(Trips), Choices(Choices),
        MaxChoices(MaxChoices), Counter(E.size()), Found(Found) {
    for (size_t I = 0; I < E.size(); ++I)
      if (E[I].K == StoreEvent::Kind::Loop && !known(E[I]))
        Ordinal.emplace(int(I), Ordinal.size());
  }
  void run() { range(0, int(E.size())); }
  /// The branches this run chose for (at most MaxChoices).
  size_t choicesMade() const { return Made; }

private:
  void range(int From, int To) {
    for (int I = From; I < To; I = next(I))
      step(I);
  }
  int next(int I) const {
    return E[I].K == StoreEvent::Kind::Loop || E[I].K == StoreEvent::Kind::If
               ? E[I].End
               : I + 1;
  }
  Place place(const StoreEvent &Ev) const {
    Place Out;
    for (const StoreStep &S : Ev.Path)
      Out.push_back(
          {S.Field, S.Field.empty() ? element(S.Index) : std::nullopt});
    return Out;
  }
  std::optional<int64_t> element(const StoreIndex &X) const {
    if (!X.Known || (X.Loop >= 0 && !Active.count(X.Loop)))
      return std::nullopt;
    int64_t V = X.Mul * (X.Loop >= 0 ? Counter[X.Loop] : 0) + X.Add;
    return X.Mod > 0 ? ((V % X.Mod) + X.Mod) % X.Mod : V;
  }
  void step(int I);
  void loop(int I);
  void branch(int I);
  void join(const std::vector<Pending> &Skipped,
            const std::vector<Written> &SkippedWrites);
  void write(const StoreEvent &Ev);
  void issue(const StoreEvent &Ev, bool FencesGuarded);
  void wait(int N, bool Guarded);
  void barrier();
  void retire(int B);
  void find(int Kind, uint64_t Loc, Check G, std::string Msg, uint64_t NoteLoc,
            std::string Note);

  const Task &T;
  const std::vector<StoreEvent> &E;
  const std::vector<int64_t> &Trips;
  const std::vector<bool> &Choices;
  size_t MaxChoices, Made = 0;
  std::map<int, bool> Took; ///< Each If's latest way, for its else.
  std::vector<int64_t> Counter;
  std::map<int, bool> Active;    ///< Loops running now.
  std::map<int, size_t> Ordinal; ///< Of each loop of unknown count.
  std::vector<Pending> Stores;
  std::vector<Written> Writes;
  uint64_t NextSeq = 0;
  std::map<std::pair<int, uint64_t>, Diag> &Found;
};

void StoreRun::step(int I) {
  const StoreEvent &Ev = E[I];
  using K = StoreEvent::Kind;
  switch (Ev.K) {
  case K::Loop:
    return loop(I);
  case K::If:
    return branch(I);
  case K::Write:
    return write(Ev);
  case K::Fence:
    for (Written &W : Writes)
      if (W.St == Written::Unfenced && (!Ev.Guarded || !W.ByAll))
        W.St = Written::Fenced;
    return;
  case K::Barrier:
    if (!Ev.Guarded)
      barrier();
    return;
  case K::Issue:
    return issue(Ev, false);
  case K::WarpStore:
    return issue(Ev, true);
  case K::Wait:
    return wait(Ev.Pending, Ev.Guarded);
  case K::Retire:
    return retire(Ev.Buffer);
  }
}

void StoreRun::loop(int I) {
  const StoreEvent &Ev = E[I];
  int64_t N = known(Ev) ? *Ev.Trips : Trips[Ordinal.at(I)];
  Active[I] = true;
  for (int64_t It = 0; It < N; ++It) {
    Counter[I] = Ev.Init + It * Ev.Step;
    range(I + 1, Ev.End);
  }
  Active.erase(I);
}

/// An else goes the other way from its then; a condition of a counter is
/// evaluated; any other is taken or skipped as the run's choices say, and
/// past them both ways are joined, so what follows sees what either leaves.
void StoreRun::branch(int I) {
  const StoreEvent &If = E[I];
  std::optional<bool> Take;
  if (auto It = Took.find(If.Else); If.Else >= 0 && It != Took.end())
    Take = !It->second; // an else: the other way from its then
  else if (std::optional<int64_t> V =
               If.CondKnown ? element(If.Cond) : std::nullopt)
    Take = holds(*V, If);
  else if (If.End > I + 1 && Made < MaxChoices) {  // one way in this run,
    Take = Made < Choices.size() && Choices[Made]; // the other in another
    ++Made;
  }
  if (Take) {
    Took[I] = *Take;
    if (*Take)
      range(I + 1, If.End);
    return;
  }
  Took.erase(I);
  std::vector<Pending> Skipped = Stores;
  std::vector<Written> SkippedWrites = Writes;
  range(I + 1, If.End);
  join(Skipped, SkippedWrites);
}

/// The union of both branches' states, each entry at its worse: a store
/// waited for, or a write fenced, only if it is in both; a store issued in
/// one branch only is not sure to count among the newer ones of a wait.
void StoreRun::join(const std::vector<Pending> &Skipped,
                    const std::vector<Written> &SkippedWrites) {
  std::map<uint64_t, const Pending *> Other;
  for (const Pending &P : Skipped)
    Other[P.Seq] = &P;
  for (Pending &P : Stores) {
    auto It = Other.find(P.Seq);
    if (It == Other.end()) {
      P.Surely = false;
      continue;
    }
    P.Surely = P.Surely && It->second->Surely;
    P.DoneIssuer = P.DoneIssuer && It->second->DoneIssuer;
    P.DoneAll = P.DoneAll && It->second->DoneAll;
    Other.erase(It);
  }
  for (auto &[Seq, P] : Other) {
    Stores.push_back(*P);
    Stores.back().Surely = false;
  }
  std::sort(Stores.begin(), Stores.end(),
            [](const Pending &A, const Pending &B) { return A.Seq < B.Seq; });
  std::map<uint64_t, const Written *> Unwritten;
  for (const Written &W : SkippedWrites)
    Unwritten[W.Seq] = &W;
  for (Written &W : Writes) {
    auto It = Unwritten.find(W.Seq);
    if (It == Unwritten.end())
      continue;
    W.St = std::min(W.St, It->second->St);
    Unwritten.erase(It);
  }
  for (auto &[Seq, W] : Unwritten)
    Writes.push_back(*W);
}

void StoreRun::write(const StoreEvent &Ev) {
  Place Where = place(Ev);
  for (const Pending &P : Stores)
    if (overlap(P.Buffer, P.Where, Ev.Buffer, Where) &&
        !(Ev.Guarded ? P.DoneIssuer : P.DoneAll))
      find(0, Ev.Loc, Check::TmaStore,
           quote(Ev.Text) +
               " is written while a TMA store may still be reading it",
           P.Loc,
           "this store reads it: wait for its reads in the issuing thread "
           "(ts::tma::wait_store_reads<N>(), N counting the newer stores "
           "still allowed in flight), then a barrier "
           "(ts::sync_warpgroup()) before the other threads write");
  Writes.push_back(
      {Ev.Buffer, Where, !Ev.Guarded, Written::Unfenced, Ev.Loc, NextSeq++});
}

void StoreRun::issue(const StoreEvent &Ev, bool FencesGuarded) {
  Place Where = place(Ev);
  bool WarpEach = FencesGuarded && !Ev.Guarded;
  if (!Ev.Guarded && (!FencesGuarded || T.NumWarps > 1))
    find(3, Ev.Loc, Check::RepeatedStore,
         (FencesGuarded ? "ts::tma::store is issued by each of the " +
                              plural(T.NumWarps, "warp")
                        : "ts::tma::issue_store is issued by each of the " +
                              std::to_string(T.NumWarps * 32) + " threads") +
             " of " + quote(T.Name) + ", so " + quote(Ev.Text) +
             " is stored that many times",
         Ev.Loc,
         FencesGuarded
             ? "let one warp store it (under an if that selects one "
               "warp), or fence in every writer, synchronize and have one "
               "thread call ts::tma::issue_store"
             : "let one thread issue it (under an if that selects "
               "one thread) after a ts::tma::store_fence() in every writer "
               "and a barrier");
  for (const Written &W : Writes) {
    if (!overlap(W.Buffer, W.Where, Ev.Buffer, Where) || WarpEach)
      continue;
    bool Own = FencesGuarded && !W.ByAll;
    if (W.St == Written::Unfenced && !Own)
      find(1, Ev.Loc, Check::TmaStore,
           "the TMA store of " + quote(Ev.Text) +
               " reads data threads wrote with no ts::tma::store_fence() "
               "after the writes",
           W.Loc,
           writtenHere(W) +
               ": the TMA unit sees threads' writes only after each writer "
               "calls ts::tma::store_fence(); then a barrier, then one "
               "thread issues the store");
    else if (W.St == Written::Fenced && W.ByAll)
      find(2, Ev.Loc, Check::TmaStore,
           "the TMA store of " + quote(Ev.Text) +
               " is issued by one thread, but no barrier orders the other "
               "threads' writes before it",
           W.Loc,
           writtenHere(W) + " by every thread of " + quote(T.Name) +
               ": call ts::sync_warpgroup() (a one-warp task: __syncwarp()) "
               "between "
               "ts::tma::store_fence() and the store");
  }
  Writes.erase(std::remove_if(Writes.begin(), Writes.end(),
                              [&](const Written &W) {
                                return overlap(W.Buffer, W.Where, Ev.Buffer,
                                               Where);
                              }),
               Writes.end());
  // ts::tma::store from a task of one warp is issued by one lane.
  bool ByAll = !Ev.Guarded && !(FencesGuarded && T.NumWarps == 1);
  Stores.push_back(
      {Ev.Buffer, Where, false, false, ByAll, Ev.Loc, NextSeq++, true});
}

/// Each thread waits for its own bulk groups: a wait in the issuing thread
/// alone leaves the stores every thread issued in flight. A store is done
/// once N newer ones surely exist.
void StoreRun::wait(int N, bool Guarded) {
  size_t Newer = 0;
  for (size_t I = Stores.size(); I-- > 0;) {
    if (Newer >= size_t(N))
      Stores[I].DoneIssuer |= !Guarded || !Stores[I].ByAll;
    Newer += Stores[I].Surely;
  }
}

void StoreRun::barrier() {
  for (Written &W : Writes)
    if (W.St == Written::Fenced)
      W.St = Written::Visible;
  for (Pending &P : Stores)
    P.DoneAll |= P.DoneIssuer;
  Stores.erase(std::remove_if(Stores.begin(), Stores.end(),
                              [](const Pending &P) { return P.DoneAll; }),
               Stores.end());
}

/// A stage handed back: its release waited for the stores' reads, and the
/// next stage under the same name is another buffer.
void StoreRun::retire(int B) {
  Stores.erase(std::remove_if(Stores.begin(), Stores.end(),
                              [&](const Pending &P) { return P.Buffer == B; }),
               Stores.end());
  Writes.erase(std::remove_if(Writes.begin(), Writes.end(),
                              [&](const Written &W) { return W.Buffer == B; }),
               Writes.end());
}

/// The first run that finds a kind of problem at a place reports it.
void StoreRun::find(int Kind, uint64_t Loc, Check G, std::string Msg,
                    uint64_t NoteLoc, std::string Note) {
  auto [It, New] = Found.try_emplace({Kind, Loc});
  if (!New)
    return;
  It->second = Diag{G, Loc, std::move(Msg), {}};
  note(It->second, NoteLoc, std::move(Note));
}

/// Every combination of kUnknownTrips over the loops of unknown count, the
/// first kMaxRuns of them.
std::vector<std::vector<int64_t>> tripChoices(const Task &T) {
  size_t Unknown = 0;
  for (const StoreEvent &Ev : T.StoreEvents)
    Unknown += Ev.K == StoreEvent::Kind::Loop && !known(Ev);
  std::vector<std::vector<int64_t>> Out{{}};
  for (size_t L = 0; L < Unknown; ++L) {
    std::vector<std::vector<int64_t>> Next;
    for (const auto &Prefix : Out)
      for (int64_t N : kUnknownTrips)
        if (Next.size() < kMaxRuns) {
          Next.push_back(Prefix);
          Next.back().push_back(N);
        }
    Out = std::move(Next);
  }
  return Out;
}

/// Every way of taking or skipping the first MaxChoices branches of unknown
/// condition a run meets, depth first: the next run takes the last branch
/// this one skipped, keeps the choices before it and skips the ones after.
void runChoices(const Task &T, const std::vector<int64_t> &Trips,
                size_t MaxChoices,
                std::map<std::pair<int, uint64_t>, Diag> &Found) {
  std::vector<bool> Choices;
  for (;;) {
    StoreRun R(T, Trips, Choices, MaxChoices, Found);
    R.run();
    Choices.resize(R.choicesMade(), false);
    while (!Choices.empty() && Choices.back())
      Choices.pop_back();
    if (Choices.empty())
      return;
    Choices.back() = true;
  }
}

} // namespace

void checkTmaStores(const Program &P, const Kernel &K, DiagList &Out) {
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.StoreEvents.empty())
      continue;
    std::map<std::pair<int, uint64_t>, Diag> Found;
    std::vector<std::vector<int64_t>> AllTrips = tripChoices(T);
    size_t MaxChoices = 0;
    while (MaxChoices < 16 &&
           AllTrips.size() << (MaxChoices + 1) <= kMaxChoiceRuns)
      ++MaxChoices;
    for (const auto &Trips : AllTrips)
      runChoices(T, Trips, MaxChoices, Found);
    for (auto &[Key, D] : Found)
      Out.push_back(std::move(D));
  }
}

} // namespace ts
