//===- NestedViews.cpp - Nested k-loops written out for one count ---------===//
//
// A task may nest one ts::domain loop (the k-loop) in the body of its
// domain loop (the tile loop), as persistent kernels do. For one inner trip
// count N, writing the k-loop out N times leaves a task with a single loop,
// which every check already covers for every tile count (the trip-count
// argument of verify/TripCounts.cpp). N itself is checked from 0 up to a
// bound (docs/verifier.md, "Nested domains"); a constant k-loop runs once.
//
//===----------------------------------------------------------------------===//
#include "plan/NestedViews.h"

#include <algorithm>
#include <set>
#include <string>

namespace ts {

namespace {

/// Op indices of one task after its inner ops are written out N times:
/// where each original op's copy for inner iteration C went (-1: did not run).
struct Unrolled {
  std::vector<Op> Ops;
  std::vector<std::vector<int>> Copy; ///< [original op][inner iteration]
};

/// Stage variables an inner op binds are new in each inner iteration.
int renumberStage(int Stage, const std::set<int> &InnerBound, int Vars,
                  uint64_t C) {
  if (Stage < 0 || !InnerBound.count(Stage))
    return Stage;
  return Stage + int(C) * Vars;
}

Unrolled unroll(const Task &T, uint64_t N) {
  Unrolled U;
  U.Copy.assign(T.Ops.size(), std::vector<int>(std::max<uint64_t>(N, 1), -1));
  std::set<int> InnerBound;
  int Vars = 0;
  for (const Op &O : T.Ops) {
    Vars = std::max(Vars, O.Stage + 1);
    if (O.Sec == Section::Inner && O.Stage >= 0 &&
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
    if (T.Ops[I].Sec != Section::Inner) {
      Emit(I, 0, T.Ops[I]);
      ++I;
      continue;
    }
    size_t End = I;
    while (End < T.Ops.size() && T.Ops[End].Sec == Section::Inner)
      ++End;
    for (uint64_t C = 0; C < N; ++C)
      for (size_t J = I; J < End; ++J) {
        if (!guardRuns(T.Ops[J].G, C, N))
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
    int C = O.InnerIt < 0 ? 0 : O.InnerIt;
    bool Inner = T.Ops[size_t(O.Token)].Sec == Section::Inner;
    int At = U.Copy[size_t(O.Token)][Inner ? size_t(C) : 0];
    O.Token = At < 0 ? Op::ForgedToken : At;
  }
  return U;
}

} // namespace

bool hasNestedTask(const Program &P, const Kernel &K) {
  return std::any_of(K.Tasks.begin(), K.Tasks.end(),
                     [&](unsigned TI) { return P.Tasks[TI].Inner.Present; });
}

bool trapsWhenEmpty(const Task &T) {
  if (!T.Inner.Present || !T.Inner.NonEmpty)
    return false;
  // Ops are in source order: the first inner op ends the way to the k-loop.
  // Without inner ops, loop ops before and after it cannot be told apart.
  for (const Op &O : T.Ops) {
    if (O.Sec == Section::Inner)
      return true;
    if (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait ||
        O.Kind == OpKind::Take)
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

/// Stage operations (take or hand back) T does in section S of its loop.
unsigned stageOps(const Task &T, Section S) {
  return unsigned(std::count_if(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Sec == S &&
           (O.Kind == OpKind::Acquire || O.Kind == OpKind::Commit ||
            O.Kind == OpKind::Wait || O.Kind == OpKind::Release);
  }));
}

/// The counts of class C's longest k-loop to check: from the least where
/// no task that traps when empty runs none (all nonempty() and none
/// shorter: 1) to the bound, moved up by the most iterations a partner
/// runs fewer; each of those is one more op per step outside the loop.
std::vector<uint64_t> classCounts(const Program &P, const Kernel &K,
                                  const InnerCounts &IC, int C, unsigned Stages,
                                  unsigned Outside) {
  uint64_t Lo = 0, Span = 0;
  unsigned PerStep = 0;
  bool AllNonEmpty = true;
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    if (IC.ClassOf[I] != C)
      continue;
    const Task &T = P.Tasks[K.Tasks[I]];
    if (trapsWhenEmpty(T))
      Lo = std::max(Lo, IC.Fewer[I] + 1);
    AllNonEmpty = AllNonEmpty && T.Inner.NonEmpty;
    Span = std::max(Span, IC.Fewer[I]);
    PerStep = std::max(PerStep, stageOps(T, Section::Inner));
  }
  // When every k-loop of a class is nonempty() and they run one count, an
  // empty run either traps where the first task reaches its loop, or every
  // task blocks before its loop in the first tile: a run that count 1
  // repeats up to that point.
  if (AllNonEmpty && Span == 0)
    Lo = std::max<uint64_t>(Lo, 1);
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
  unsigned Outside = 0;
  for (unsigned TI : K.Tasks)
    Outside = std::max(Outside, outsideStageOps(P.Tasks[TI]));
  InnerCounts IC;
  std::vector<std::string> Keys;
  std::vector<int64_t> Longest; // per class: the largest trip offset
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.Inner.Present) {
      IC.ClassOf.push_back(-1);
      continue;
    }
    std::string Key = innerKey(T.Inner);
    auto It = std::find(Keys.begin(), Keys.end(), Key);
    IC.ClassOf.push_back(int(It - Keys.begin()));
    if (It == Keys.end()) {
      Keys.push_back(Key);
      Longest.push_back(offsetOf(T.Inner));
    }
    int64_t &L = Longest[size_t(IC.ClassOf.back())];
    L = std::max(L, offsetOf(T.Inner));
  }
  for (size_t I = 0; I < K.Tasks.size(); ++I)
    IC.Fewer.push_back(IC.ClassOf[I] < 0
                           ? 0
                           : uint64_t(Longest[size_t(IC.ClassOf[I])] -
                                      offsetOf(P.Tasks[K.Tasks[I]].Inner)));
  for (size_t C = 0; C < Keys.size(); ++C)
    IC.Counts.push_back(
        Keys[C][0] == '='
            ? std::vector<uint64_t>{std::stoull(Keys[C].substr(1))}
            : classCounts(P, K, IC, int(C), Stages, Outside));
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

std::vector<uint64_t> countsPerTask(const InnerCounts &IC,
                                    const std::vector<size_t> &Pos) {
  std::vector<uint64_t> V;
  for (size_t I = 0; I < IC.ClassOf.size(); ++I) {
    int C = IC.ClassOf[I];
    uint64_t N = C < 0 ? 0 : IC.Counts[size_t(C)][Pos[size_t(C)]];
    uint64_t Fewer = I < IC.Fewer.size() ? IC.Fewer[I] : 0;
    V.push_back(N > Fewer ? N - Fewer : 0);
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
  return T.Inner.Present ? stageOps(T, Section::Loop) : 0;
}

Program innerUnrolled(const Program &P, const Kernel &K,
                      const std::vector<uint64_t> &PerTask) {
  Program V = P;
  for (size_t I = 0; I < K.Tasks.size(); ++I) {
    Task &T = V.Tasks[K.Tasks[I]];
    if (!T.Inner.Present)
      continue;
    T.Ops = unroll(P.Tasks[K.Tasks[I]], PerTask[I]).Ops;
    T.Inner = Domain();
  }
  return V;
}

Program innerUnrolled(const Program &P, const Kernel &K, uint64_t N) {
  return innerUnrolled(P, K, std::vector<uint64_t>(K.Tasks.size(), N));
}

} // namespace ts
