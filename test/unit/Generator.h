//===- Generator.h - Random schedules for tests and benches -----*- C++ -*-===//
//
// Builds well-formed producer/consumer schedules (each resource filled by
// one task and drained by one or two others, per iteration or once around
// the loop), interleaves the tasks' ops at random, then optionally applies
// one fault: a dropped or duplicated op, a guarded op, a stage fewer, a
// domain one longer. Deterministic for a seed.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_TEST_UNIT_GENERATOR_H
#define LIBTS_TEST_UNIT_GENERATOR_H

#include "Builders.h"

#include <random>
#include <vector>

namespace ts::test {

/// Lists merged into one, each list's order kept: the next element comes
/// from the list Choose(L) picks among the L lists not yet used up. One
/// merge for every random interleaving of op sequences in the tests, so
/// that they differ only in how they draw the choice (their seeds stay
/// valid).
template <class T, class ChooseFn>
std::vector<T> mergeInOrder(const std::vector<std::vector<T>> &Lists,
                            ChooseFn Choose) {
  std::vector<size_t> Pos(Lists.size(), 0);
  std::vector<T> Out;
  for (;;) {
    std::vector<size_t> Live;
    for (size_t I = 0; I < Lists.size(); ++I)
      if (Pos[I] < Lists[I].size())
        Live.push_back(I);
    if (Live.empty())
      return Out;
    size_t I = Live[Choose(Live.size())];
    Out.push_back(Lists[I][Pos[I]++]);
  }
}

struct GenOptions {
  unsigned MinTasks = 2, MaxTasks = 4;
  unsigned MinResources = 1, MaxResources = 3;
  unsigned MaxStages = 3;
  double FaultRate = 0.5;
  bool Symbolic = true;  ///< Runtime domains ("n"); else constant Trips.
  int64_t Trips = 6;     ///< For constant domains.
  double OnceRate = 0.2; ///< Resources taken once around the loop.
};

class Generator {
public:
  explicit Generator(uint64_t Seed) : Rng(Seed) {}

  Builder make(const GenOptions &O) {
    Builder B;
    unsigned NT = pick(O.MinTasks, O.MaxTasks),
             NR = pick(O.MinResources, O.MaxResources);
    std::vector<std::vector<std::vector<Step>>> Chunks(
        NT, std::vector<std::vector<Step>>(3));
    std::vector<std::vector<std::pair<unsigned, Role>>> Handles(NT);
    for (unsigned R = 0; R < NR; ++R) {
      B.resource("R" + std::to_string(R), PipelineKind::AsyncAsync,
                 pick(1, O.MaxStages), 1024);
      unsigned Prod = pick(0, NT - 1), Cons = (Prod + pick(1, NT - 1)) % NT;
      bool Once = chance(O.OnceRate);
      add(Chunks[Prod], Handles[Prod], R, Role::Producer, Once);
      add(Chunks[Cons], Handles[Cons], R, Role::Consumer, Once);
      unsigned Cons2 = (Prod + pick(1, NT - 1)) % NT;
      if (NT > 2 && Cons2 != Cons && chance(0.2))
        add(Chunks[Cons2], Handles[Cons2], R, Role::Consumer, Once);
    }
    for (unsigned T = 0; T < NT; ++T) {
      TaskRef TR = B.task("t" + std::to_string(T), T, 1);
      for (auto [R, Ro] : Handles[T])
        Ro == Role::Producer ? TR.produces(R) : TR.consumes(R);
      if (O.Symbolic)
        TR.loop(std::nullopt, "n");
      else
        TR.loop(O.Trips);
      for (unsigned S = 0; S < 3; ++S) {
        TR.sec(S == 2 ? Section::Tail : Section(S));
        for (const Step &St : interleave(Chunks[T][S]))
          TR.opAs(St.Kind, St.R, St.Ro);
      }
    }
    if (chance(O.FaultRate))
      fault(B);
    return B;
  }

private:
  struct Step {
    OpKind Kind;
    unsigned R;
    Role Ro;
  };

  unsigned pick(unsigned Lo, unsigned Hi) {
    return std::uniform_int_distribution<unsigned>(Lo, Hi)(Rng);
  }
  bool chance(double P) { return std::bernoulli_distribution(P)(Rng); }

  /// One handle's ops: take, work, give per iteration; or take in the head,
  /// work in the loop, give in the tail.
  void add(std::vector<std::vector<Step>> &Secs,
           std::vector<std::pair<unsigned, Role>> &Handles, unsigned R, Role Ro,
           bool Once) {
    Handles.push_back({R, Ro});
    OpKind Take = Ro == Role::Producer ? OpKind::Acquire : OpKind::Wait;
    OpKind Give = Ro == Role::Producer ? OpKind::Commit : OpKind::Release;
    std::vector<Step> Seq{{Take, R, Ro}, {OpKind::Work, R, Ro}, {Give, R, Ro}};
    if (!Once) {
      Secs[1].insert(Secs[1].end(), Seq.begin(), Seq.end());
      Secs[1].push_back({OpKind::Work, ~0u, Ro}); // chunk separator
      return;
    }
    Secs[0].push_back(Seq[0]);
    Secs[0].push_back({OpKind::Work, ~0u, Ro});
    Secs[1].push_back(Seq[1]);
    Secs[1].push_back({OpKind::Work, ~0u, Ro});
    Secs[2].push_back(Seq[2]);
    Secs[2].push_back({OpKind::Work, ~0u, Ro});
  }

  /// Random merge of the chunks (separated by R == ~0u), order within each
  /// kept.
  std::vector<Step> interleave(const std::vector<Step> &All) {
    std::vector<std::vector<Step>> Lists(1);
    for (const Step &S : All) {
      if (S.R == ~0u)
        Lists.emplace_back();
      else
        Lists.back().push_back(S);
    }
    return mergeInOrder(
        Lists, [&](size_t L) { return size_t(pick(0, unsigned(L - 1))); });
  }

  void fault(Builder &B) {
    std::vector<Task> &Ts = B.P.Tasks;
    Task &T = Ts[pick(0, unsigned(Ts.size() - 1))];
    switch (pick(0, 4)) {
    case 0:   // drop a take or give
    case 1: { // duplicate one
      std::vector<size_t> Ops;
      for (size_t I = 0; I < T.Ops.size(); ++I)
        if (T.Ops[I].Kind != OpKind::Work)
          Ops.push_back(I);
      if (Ops.empty())
        return;
      size_t I = Ops[pick(0, unsigned(Ops.size() - 1))];
      if (Rng() % 2)
        T.Ops.erase(T.Ops.begin() + I);
      else
        T.Ops.insert(T.Ops.begin() + I, T.Ops[I]);
      return;
    }
    case 2: // guard a loop op
      for (Op &O : T.Ops)
        if (O.Sec == Section::Loop && O.Kind != OpKind::Work && chance(0.5)) {
          O.G = chance(0.5) ? Guard::FirstIter : Guard::LastIter;
          return;
        }
      return;
    case 3: { // a stage fewer
      Resource &R = B.P.Resources[pick(0, unsigned(B.P.Resources.size() - 1))];
      if (R.Stages > 1)
        --R.Stages;
      return;
    }
    default: // one iteration more
      T.Dom.EndOff += 1;
      T.Dom.EndText += " + 1";
      if (T.Dom.End)
        *T.Dom.End += 1;
      return;
    }
  }

  std::mt19937_64 Rng;
};

/// How many random schedules a property test draws: all of \p Full in the
/// normal build; a fifth under ASan/UBSan, where the brute force runs about
/// fifteen times slower and a memory error shows on any schedule.
inline unsigned propertyCases(unsigned Full) {
#ifdef LIBTS_SANITIZED_BUILD
  return Full / 5;
#else
  return Full;
#endif
}

} // namespace ts::test

#endif
