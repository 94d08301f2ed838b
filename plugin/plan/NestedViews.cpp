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
    if (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait)
      return false; // it may block forever before the trap
  }
  return true;
}

std::vector<uint64_t> innerTripCounts(const Program &P, const Kernel &K) {
  // All stages of the kernel: a task runs ahead of another by at most the
  // stages buffered between them, along a chain of resources.
  unsigned Stages = 0;
  for (unsigned R : kernelResources(P, K))
    if (isPipelined(P.Resources[R].Kind))
      Stages += P.Resources[R].Stages;
  for (unsigned TI : K.Tasks)
    if (P.Tasks[TI].Inner.Present)
      if (auto C = P.Tasks[TI].Inner.constantTrips())
        return {*C};
  // A nonempty() k-loop that its task surely reaches traps the whole
  // kernel on an empty run, so its partners (same count: ts-domain) never
  // run one either.
  uint64_t First =
      std::any_of(K.Tasks.begin(), K.Tasks.end(),
                  [&](unsigned TI) { return trapsWhenEmpty(P.Tasks[TI]); });
  unsigned Outside = 0;
  for (unsigned TI : K.Tasks)
    Outside = std::max(Outside, outsideStageOps(P.Tasks[TI]));
  std::vector<uint64_t> Ns;
  for (uint64_t N = First; N <= innerTripBound(Stages, Outside); ++N)
    Ns.push_back(N);
  return Ns;
}

uint64_t innerTripBound(unsigned Stages, unsigned OutsideOps) {
  return uint64_t(Stages) + OutsideOps + 3;
}

unsigned outsideStageOps(const Task &T) {
  if (!T.Inner.Present)
    return 0;
  return unsigned(std::count_if(T.Ops.begin(), T.Ops.end(), [](const Op &O) {
    return O.Sec == Section::Loop &&
           (O.Kind == OpKind::Acquire || O.Kind == OpKind::Commit ||
            O.Kind == OpKind::Wait || O.Kind == OpKind::Release);
  }));
}

Program innerUnrolled(const Program &P, const Kernel &K, uint64_t N) {
  Program V = P;
  for (unsigned TI : K.Tasks) {
    Task &T = V.Tasks[TI];
    if (!T.Inner.Present)
      continue;
    T.Ops = unroll(P.Tasks[TI], N).Ops;
    T.Inner = Domain();
  }
  return V;
}

} // namespace ts
