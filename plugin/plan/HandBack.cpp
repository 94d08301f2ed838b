//===- HandBack.cpp - Stages handed back out of order ---------------------===//
#include "plan/HandBack.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace ts {

namespace {

/// Follows T alone for one trip count: which instance each stage variable
/// holds and what each hand-back credits.
class CreditWalk {
public:
  CreditWalk(const Program &P, const Task &T, std::vector<int> &Credit)
      : P(P), T(T), Credit(Credit) {}
  bool run(uint64_t Trips);
  bool Reordered = false;

private:
  using Key = std::pair<unsigned, bool>; ///< Resource, producer side.
  bool step(unsigned I);
  bool giveBack(unsigned I, Key K);
  bool endSection();

  const Program &P;
  const Task &T;
  std::vector<int> &Credit;                 ///< -1: not run yet.
  std::map<Key, std::deque<unsigned>> Held; ///< Oldest first.
  std::map<Key, std::set<unsigned>> Early;  ///< Handed back ahead.
  std::map<Key, bool> OldestUsed;
  std::map<int, unsigned> Bound; ///< Stage variable -> instance.
  unsigned Next = 0;
};

bool CreditWalk::step(unsigned I) {
  const Op &O = T.Ops[I];
  if (O.Kind == OpKind::Carry) {
    auto From = Bound.find(O.From);
    if (From == Bound.end())
      Bound.erase(O.Stage);
    else
      Bound[O.Stage] = From->second;
    return true;
  }
  if (!O.onResource() || !isPipelined(P.Resources[O.Resource].Kind))
    return true;
  Key K{O.Resource, isProducerOp(O.Kind)};
  if (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait) {
    Held[K].push_back(Next);
    Bound[O.Stage] = Next++;
    return true;
  }
  if (O.Kind == OpKind::Commit || O.Kind == OpKind::Release)
    return giveBack(I, K);
  return true;
}

bool CreditWalk::giveBack(unsigned I, Key K) {
  const Op &O = T.Ops[I];
  std::deque<unsigned> &Q = Held[K];
  std::set<unsigned> &E = Early[K];
  OldestUsed[K] |= O.Oldest;
  auto B = Bound.find(O.Stage);
  std::optional<unsigned> Inst;
  if (O.Oldest && !Q.empty())
    Inst = Q.front();
  else if (!O.Oldest && B != Bound.end())
    Inst = B->second;
  unsigned C = 1; // misuse (nothing held, twice): the ownership check's
  if (Inst && std::find(Q.begin(), Q.end(), *Inst) != Q.end() &&
      !E.count(*Inst)) {
    if (*Inst != Q.front()) {
      E.insert(*Inst);
      Reordered = true;
      C = 0;
    } else {
      Q.pop_front();
      while (!Q.empty() && E.erase(Q.front()))
        Q.pop_front(), ++C;
    }
  }
  if (Reordered && OldestUsed[K] && !E.empty())
    return false;
  if (Credit[I] >= 0 && Credit[I] != int(C))
    return false;
  Credit[I] = int(C);
  return true;
}

bool CreditWalk::endSection() {
  for (auto &[K, E] : Early)
    if (!E.empty() || (Reordered && OldestUsed[K]))
      return false;
  return true;
}

bool CreditWalk::run(uint64_t Trips) {
  auto RunSection = [&](Section S, uint64_t It) {
    for (unsigned I = 0; I < T.Ops.size(); ++I)
      if (T.Ops[I].Sec == S &&
          (S != Section::Loop || guardRuns(T.Ops[I].G, It, Trips)) && !step(I))
        return false;
    return endSection();
  };
  if (!RunSection(Section::Head, 0))
    return false;
  for (uint64_t It = 0; It < (T.Dom.Present ? Trips : 0); ++It)
    if (!RunSection(Section::Loop, It))
      return false;
  return RunSection(Section::Tail, 0);
}

} // namespace

std::optional<std::vector<unsigned>> handBackCredits(const Program &P,
                                                     const Task &T) {
  std::vector<int> Credit(T.Ops.size(), -1);
  bool Reordered = false;
  // Guards tell the first and last iterations apart: 0 to 3 trips run
  // every combination (as the ownership check's walk does).
  for (uint64_t N = 0; N <= 3; ++N) {
    CreditWalk W(P, T, Credit);
    if (!W.run(N))
      return std::nullopt;
    Reordered |= W.Reordered;
  }
  if (!Reordered)
    return std::vector<unsigned>{};
  std::vector<unsigned> Out(T.Ops.size(), 1);
  for (size_t I = 0; I < Out.size(); ++I)
    if (Credit[I] >= 0)
      Out[I] = unsigned(Credit[I]);
  return Out;
}

} // namespace ts
