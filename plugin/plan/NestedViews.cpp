//===- NestedViews.cpp - Nested k-loops written out for one count ---------===//
//
// A task may nest ts::domain loops (k-loops, one after the other) in the
// body of its domain loop (the tile loop), as persistent kernels do. For
// one inner trip count N per k-loop, writing each out N times leaves a task
// with a single loop, which every check already covers for every tile
// count (the trip-count argument of verify/TripCounts.cpp). N itself is
// checked from 0 up to a bound (docs/verifier.md, "Nested domains"); a
// constant k-loop runs once.
//
//===----------------------------------------------------------------------===//
#include "plan/NestedViews.h"

#include <algorithm>
#include <set>
#include <string>

namespace ts {

namespace {

/// Op indices of one task after its inner ops are written out: where each
/// original op's copy for inner iteration C went (-1: did not run).
struct Unrolled {
  std::vector<Op> Ops;
  std::vector<std::vector<int>> Copy; ///< [original op][inner iteration]
};

/// Stage variables an inner op binds are new in each inner iteration (and
/// differ between a task's k-loops, so their copies never collide).
int renumberStage(int Stage, const std::set<int> &InnerBound, int Vars,
                  uint64_t C) {
  if (Stage < 0 || !InnerBound.count(Stage))
    return Stage;
  return Stage + int(C) * Vars;
}

/// T with inner loop L written out N[L] times.
Unrolled unroll(const Task &T, const std::vector<uint64_t> &N) {
  Unrolled U;
  U.Copy.resize(T.Ops.size());
  std::set<int> InnerBound;
  int Vars = 0;
  for (size_t I = 0; I < T.Ops.size(); ++I) {
    const Op &O = T.Ops[I];
    bool In = O.Sec == Section::Inner;
    U.Copy[I].assign(In ? std::max<uint64_t>(N[O.Loop], 1) : 1, -1);
    Vars = std::max(Vars, O.Stage + 1);
    if (In && O.Stage >= 0 &&
        (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait))
      InnerBound.insert(O.Stage);
  }
  auto Emit = [&](size_t I, uint64_t C, Op O) {
    O.Stage = renumberStage(O.Stage, InnerBound, Vars, C);
    O.From = renumberStage(O.From, InnerBound, Vars, C);
    U.Copy[I][C] = int(U.Ops.size());
    U.Ops.push_back(std::move(O));
  };
  for (size_t I = 0; I < T.Ops.size();) {
    const Op &First = T.Ops[I];
    if (First.Sec != Section::Inner) {
      Emit(I, 0, First);
      ++I;
      continue;
    }
    size_t End = I;
    while (End < T.Ops.size() && T.Ops[End].Sec == Section::Inner &&
           T.Ops[End].Loop == First.Loop)
      ++End;
    uint64_t Steps = N[First.Loop];
    for (uint64_t C = 0; C < Steps; ++C)
      for (size_t J = I; J < End; ++J) {
        if (!guardRuns(T.Ops[J].G, C, Steps))
          continue;
        Op O = T.Ops[J];
        O.Sec = Section::Loop;
        O.G = Guard::Always;
        O.InnerIt = int(C);
        Emit(J, C, std::move(O));
      }
    I = End;
  }
  // A token names the try_ op of its own inner iteration (or one before the
  // k-loop); a try_ op that did not run there leaves a forged token.
  for (Op &O : U.Ops) {
    if (O.Token < 0)
      continue;
    bool Inner = T.Ops[size_t(O.Token)].Sec == Section::Inner;
    size_t C = Inner && O.InnerIt >= 0 ? size_t(O.InnerIt) : 0;
    const std::vector<int> &Of = U.Copy[size_t(O.Token)];
    int At = C < Of.size() ? Of[C] : -1;
    O.Token = At < 0 ? Op::ForgedToken : At;
  }
  return U;
}

bool blocks(const Op &O) {
  return O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait ||
         O.Kind == OpKind::Take;
}

} // namespace

bool hasNestedTask(const Program &P, const Kernel &K) {
  return std::any_of(K.Tasks.begin(), K.Tasks.end(),
                     [&](unsigned TI) { return P.Tasks[TI].nested(); });
}

std::vector<Nest> nestsOf(const Program &P, const Kernel &K) {
  std::vector<Nest> Out;
  for (size_t I = 0; I < K.Tasks.size(); ++I)
    for (unsigned L = 0; L < P.Tasks[K.Tasks[I]].Inners.size(); ++L)
      Out.push_back({I, L});
  return Out;
}

bool trapsWhenEmpty(const Task &T, unsigned L) {
  if (L >= T.Inners.size() || !T.Inners[L].NonEmpty)
    return false;
  // Ops are in source order: loop L's first op ends the way to it. Without
  // ops of its own, every blocking op of the task may come before it.
  for (const Op &O : T.Ops) {
    if (O.Sec == Section::Inner && O.Loop == L)
      return true;
    if (blocks(O))
      return false; // it may block forever before the trap
  }
  return true;
}

namespace {

/// What makes two k-loops run the same count up to a constant: their
/// constant, or their bounds' values (Domain::tripOffset is the constant).
std::string innerKey(const Domain &D) {
  if (auto C = D.constantTrips())
    return "=" + std::to_string(*C);
  return D.symbolicKey();
}

int64_t offsetOf(const Domain &D) {
  return D.constantTrips() ? 0 : D.tripOffset();
}

bool movesStage(const Op &O) {
  return O.Kind == OpKind::Acquire || O.Kind == OpKind::Commit ||
         O.Kind == OpKind::Wait || O.Kind == OpKind::Release;
}

/// Stage operations (take or hand back) T does in section S of its loop
/// (in inner loop L only, for Section::Inner).
unsigned stageOps(const Task &T, Section S, unsigned L = 0) {
  return unsigned(std::count_if(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Sec == S && (S != Section::Inner || O.Loop == L) && movesStage(O);
  }));
}

const Task &taskOf(const Program &P, const Kernel &K, const Nest &N) {
  return P.Tasks[K.Tasks[N.Task]];
}

/// Stage operations per tile that may shift where a task of class C's
/// k-loops sits in a ring: those of its tile loop, and those of its k-loops
/// of other classes on a resource that C's k-loops also use. A ring of S
/// stages repeats its positions and phases every 2S operations, so each
/// such resource counts at most 2S of them (tested against enumeration:
/// NestedShapesTest.cpp, two loops per tile).
unsigned outsideOf(const Program &P, const Kernel &K, const InnerCounts &IC,
                   int C) {
  unsigned Most = 0;
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    const Task &T = P.Tasks[K.Tasks[I]];
    std::set<unsigned> InC, Other;
    for (const Op &O : T.Ops) {
      if (O.Sec != Section::Inner || !O.onResource() || !movesStage(O))
        continue;
      bool Mine = false;
      for (size_t N = 0; N < IC.Nests.size(); ++N)
        Mine |= IC.Nests[N].Task == I && IC.Nests[N].Loop == O.Loop &&
                IC.ClassOf[N] == C;
      (Mine ? InC : Other).insert(O.Resource);
    }
    unsigned Shift = outsideStageOps(T);
    for (unsigned R : Other)
      if (InC.count(R))
        Shift += 2 * P.Resources[R].Stages;
    Most = std::max(Most, Shift);
  }
  return Most;
}

/// The counts of class C's longest k-loop to check: from the least where
/// no nest that traps when empty runs none (all nonempty() and none
/// shorter: 1) to the bound, moved up by the most iterations a partner
/// runs fewer; each of those is one more op per step outside the loop.
std::vector<uint64_t> classCounts(const Program &P, const Kernel &K,
                                  const InnerCounts &IC, int C,
                                  unsigned Stages) {
  uint64_t Lo = 0, Span = 0;
  unsigned PerStep = 0;
  bool AllNonEmpty = true;
  for (size_t N = 0; N < IC.Nests.size(); ++N) {
    if (IC.ClassOf[N] != C)
      continue;
    const Task &T = taskOf(P, K, IC.Nests[N]);
    unsigned L = IC.Nests[N].Loop;
    if (trapsWhenEmpty(T, L))
      Lo = std::max(Lo, IC.Fewer[N] + 1);
    AllNonEmpty = AllNonEmpty && T.Inners[L].NonEmpty;
    Span = std::max(Span, IC.Fewer[N]);
    PerStep = std::max(PerStep, stageOps(T, Section::Inner, L));
  }
  // When every k-loop of a class is nonempty() and they run one count, an
  // empty run either traps where the first task reaches its loop, or every
  // task blocks before its loop in the first tile: a run that count 1
  // repeats up to that point.
  if (AllNonEmpty && Span == 0)
    Lo = std::max<uint64_t>(Lo, 1);
  unsigned Outside = outsideOf(P, K, IC, C);
  uint64_t Hi =
      innerTripBound(Stages, Outside + unsigned(Span) * PerStep) + Span;
  std::vector<uint64_t> Ns;
  for (uint64_t N = Lo; N <= Hi; ++N)
    Ns.push_back(N);
  return Ns;
}

} // namespace

InnerCounts innerCounts(const Program &P, const Kernel &K) {
  // All stages of the kernel: a task runs ahead of another by at most the
  // stages buffered between them, along a chain of resources.
  unsigned Stages = 0;
  for (unsigned R : kernelResources(P, K))
    if (isPipelined(P.Resources[R].Kind))
      Stages += P.Resources[R].Stages;
  InnerCounts IC;
  IC.Nests = nestsOf(P, K);
  std::vector<std::string> Keys;
  std::vector<int64_t> Longest; // per class: the largest trip offset
  for (const Nest &N : IC.Nests) {
    const Domain &D = taskOf(P, K, N).Inners[N.Loop];
    std::string Key = innerKey(D);
    auto It = std::find(Keys.begin(), Keys.end(), Key);
    IC.ClassOf.push_back(int(It - Keys.begin()));
    if (It == Keys.end()) {
      Keys.push_back(Key);
      Longest.push_back(offsetOf(D));
    }
    int64_t &L = Longest[size_t(IC.ClassOf.back())];
    L = std::max(L, offsetOf(D));
  }
  for (size_t N = 0; N < IC.Nests.size(); ++N)
    IC.Fewer.push_back(
        uint64_t(Longest[size_t(IC.ClassOf[N])] -
                 offsetOf(taskOf(P, K, IC.Nests[N]).Inners[IC.Nests[N].Loop])));
  for (size_t C = 0; C < Keys.size(); ++C)
    IC.Counts.push_back(
        Keys[C][0] == '='
            ? std::vector<uint64_t>{std::stoull(Keys[C].substr(1))}
            : classCounts(P, K, IC, int(C), Stages));
  return IC;
}

bool nextCountChoice(std::vector<size_t> &Pos, const InnerCounts &IC,
                     const std::vector<char> &Mask) {
  for (size_t C = Pos.size(); C-- > 0;) {
    if (!Mask.empty() && !Mask[C])
      continue;
    if (++Pos[C] < IC.Counts[C].size())
      return true;
    Pos[C] = 0;
  }
  return false;
}

std::vector<uint64_t> countsPerNest(const InnerCounts &IC,
                                    const std::vector<size_t> &Pos) {
  std::vector<uint64_t> V;
  for (size_t N = 0; N < IC.Nests.size(); ++N) {
    size_t C = size_t(IC.ClassOf[N]);
    uint64_t Count = IC.Counts[C][Pos[C]];
    V.push_back(Count > IC.Fewer[N] ? Count - IC.Fewer[N] : 0);
  }
  return V;
}

std::vector<uint64_t> innerTripCounts(const Program &P, const Kernel &K) {
  InnerCounts IC = innerCounts(P, K);
  std::vector<uint64_t> Most;
  for (std::vector<uint64_t> &Ns : IC.Counts)
    if (Ns.size() > Most.size())
      Most = std::move(Ns);
  return Most;
}

uint64_t innerTripBound(unsigned Stages, unsigned OutsideOps) {
  return uint64_t(Stages) + OutsideOps + 3;
}

unsigned outsideStageOps(const Task &T) {
  return T.nested() ? stageOps(T, Section::Loop) : 0;
}

Program innerUnrolled(const Program &P, const Kernel &K,
                      const std::vector<uint64_t> &PerNest) {
  Program V = P;
  std::vector<Nest> Nests = nestsOf(P, K);
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    Task &T = V.Tasks[K.Tasks[I]];
    if (!T.nested())
      continue;
    std::vector<uint64_t> Counts(T.Inners.size(), 0);
    for (size_t N = 0; N < Nests.size(); ++N)
      if (Nests[N].Task == I)
        Counts[Nests[N].Loop] = PerNest[N];
    T.Ops = unroll(P.Tasks[K.Tasks[I]], Counts).Ops;
    T.Inners.clear();
  }
  return V;
}

Program innerUnrolled(const Program &P, const Kernel &K, uint64_t N) {
  return innerUnrolled(P, K, std::vector<uint64_t>(nestsOf(P, K).size(), N));
}

} // namespace ts
