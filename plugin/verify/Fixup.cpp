//===- Fixup.cpp - The stream-K fix-up (ts::stream_k::settle) -------------===//
//
// settle() is the whole cross-CTA protocol of a stream-K GEMM: the segment
// that starts a tile waits for the CTAs holding the rest and adds their
// partial sums, every other segment writes its sum and signals; who does
// which, for which tile, follows from the partition (include/ts/stream_k.h,
// its properties in test/lit/codegen/stream-k-partition.cu). It holds only
// if each segment of the CTA settles exactly once, its own segment, with
// whole warpgroups and complete accumulators: the rules below. A segment
// left unsettled leaves its owner waiting forever; one settled twice or
// with another segment signals a slot nobody waits for or adds it twice.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

const char *const LoopNote =
    "settle once per iteration of the task's loop 'for (auto i : "
    "ts::domain(0, P.segments()))', after the segment's k-loop, as a "
    "statement, an if's condition or a local's initializer";

/// The MMA groups committed before the settle are all waited for, with
/// nothing pending, after the last of them: settle reads the accumulators.
bool accumulatorsComplete(const Task &T, const SettleCall &S) {
  bool Pending = false;
  for (size_t I = 0; I < S.OpIndex && I < T.Ops.size(); ++I) {
    const Op &O = T.Ops[I];
    if (O.Kind == OpKind::MmaCommit)
      Pending = true;
    else if (O.Kind == OpKind::MmaWait && O.Pending == 0 &&
             O.G == Guard::Always && O.Sec == Section::Loop)
      Pending = false;
  }
  return !Pending;
}

void checkPlace(const Task &T, const SettleCall &S, DiagList &Out) {
  if (!S.Once) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "settle() of " + quote(S.Partition) + " in task " +
                         quote(T.Name) + " is inside " + S.Where +
                         ", so a segment may settle never or more than once");
    note(D, S.WhereLoc ? S.WhereLoc : S.Loc, LoopNote);
    return;
  }
  if (S.Discarded) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "the result of settle() is not used: the tile would be "
                     "stored by every CTA holding a part of it");
    note(D, S.Loc,
         "store the tile only when settle() returns true, as 'if (" +
             S.Partition + ".settle(sg, acc)) store(...)'");
  }
  if (T.Dom.Segments != S.Partition) {
    Diag &D = report(Out, Check::Fixup, T.Dom.Present ? T.Dom.Loc : T.Loc,
                     "task " + quote(T.Name) + " settles segments of " +
                         quote(S.Partition) +
                         " but its loop does not run that partition's "
                         "segments");
    note(D, S.Loc,
         "loop 'for (auto i : ts::domain(0, " + S.Partition +
             ".segments()))', so each segment of the CTA settles once");
  }
  if (!S.SegmentOfLoop) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "settle() is not given this iteration's segment");
    note(D, S.Loc,
         "pass 'sg', declared 'const ts::segment sg = " + S.Partition +
             ".at(int(i));' from the loop's variable i");
  }
}

void checkThreads(const Task &T, const SettleCall &S, DiagList &Out) {
  if (T.FirstWarp % 4 || T.NumWarps % 4) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "settle() in task " + quote(T.Name) + " on warps " +
                         range(T.FirstWarp, T.endWarp()) +
                         ", which are not whole warpgroups");
    note(D, T.Loc,
         "settle() exchanges a warpgroup's accumulators through a barrier "
         "of its 128 threads: give the task whole warpgroups");
  } else if (S.Warpgroups && T.endWarp() > 4 * S.Warpgroups) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "task " + quote(T.Name) + " settles from warpgroup " +
                         std::to_string(T.endWarp() / 4 - 1) + ", but " +
                         quote(S.Partition) + " holds partial sums for " +
                         plural(S.Warpgroups, "warpgroup"));
    note(D, S.Loc,
         "declare the partition ts::stream_k<Floats, " +
             std::to_string(T.endWarp() / 4) + ">");
  }
  if (!accumulatorsComplete(T, S)) {
    Diag &D = report(Out, Check::Fixup, S.Loc,
                     "settle() reads the accumulators while MMAs committed "
                     "before it may still write them");
    note(D, S.Loc,
         "call ts::wgmma::wait_group<0>() after the segment's k-loop, "
         "before settle()");
  }
}

} // namespace

void checkFixup(const Program &P, const Kernel &K, DiagList &Out) {
  std::vector<std::string> Settled;
  for (unsigned I : K.Tasks) {
    const Task &T = P.Tasks[I];
    for (size_t J = 0; J < T.Settles.size(); ++J) {
      const SettleCall &S = T.Settles[J];
      Settled.push_back(S.Partition);
      if (J > 0 && S.Once && T.Settles[0].Once) {
        Diag &D = report(Out, Check::Fixup, S.Loc,
                         "task " + quote(T.Name) +
                             " settles a segment a second time");
        note(D, T.Settles[0].Loc, "it settles first here");
        continue;
      }
      checkPlace(T, S, Out);
      checkThreads(T, S, Out);
    }
  }
  for (unsigned I : K.Tasks) {
    const Task &T = P.Tasks[I];
    if (T.Dom.Segments.empty() || std::find(Settled.begin(), Settled.end(),
                                            T.Dom.Segments) != Settled.end())
      continue;
    Settled.push_back(T.Dom.Segments); // reported once
    Diag &D = report(Out, Check::Fixup, T.Dom.Loc,
                     "kernel " + quote(K.Name) + " runs the segments of " +
                         quote(T.Dom.Segments) +
                         " but no task settles them: a tile split across "
                         "CTAs is never summed");
    note(D, T.Dom.Loc,
         "in the task that holds the accumulators, call 'if (" +
             T.Dom.Segments +
             ".settle(sg, acc))' after each segment's "
             "k-loop and store the tile only then");
  }
}

} // namespace ts
