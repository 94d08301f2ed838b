//===- Builders.h - Short construction of Programs for tests ----*- C++ -*-===//
//
// Locations are distinct small numbers so tests can assert where a diag
// points: resources 100+i, tasks 200+i, ops 1000*(task+1)+i, domains
// 500+task, kernels 900+i, edges 800+i.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_TEST_UNIT_BUILDERS_H
#define LIBTS_TEST_UNIT_BUILDERS_H

#include "model/Diag.h"
#include "model/Model.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include <algorithm>
#include <string>

namespace ts::test {

inline SourceHandle resLoc(unsigned R) { return 100 + R; }
inline SourceHandle taskLoc(unsigned T) { return 200 + T; }
inline SourceHandle opLoc(unsigned T, unsigned I) { return 1000 * (T + 1) + I; }
inline SourceHandle domLoc(unsigned T) { return 500 + T; }
inline SourceHandle kernelLoc(unsigned K) { return 900 + K; }

class Builder;

/// Appends ops to one task; the role of each op follows its kind.
class TaskRef {
public:
  TaskRef(Builder &B, unsigned T) : B(B), T(T) {}
  operator unsigned() const { return T; }
  Task &task();

  TaskRef &produces(unsigned R);
  TaskRef &consumes(unsigned R);
  TaskRef &owns(unsigned R);
  /// A ts::turn<R, Pos> parameter; take(R) / pass(R) are its ops.
  TaskRef &turn(unsigned R, unsigned Pos);
  TaskRef &take(unsigned R, Guard G = Guard::Always) {
    return opAs(OpKind::Take, R, Role::Turn, G);
  }
  TaskRef &pass(unsigned R, Guard G = Guard::Always) {
    return opAs(OpKind::Pass, R, Role::Turn, G);
  }
  TaskRef &regs(unsigned N) {
    task().Regs = N;
    return *this;
  }
  /// A loop over [0, N); nullopt makes it a runtime bound named `Name`.
  TaskRef &loop(std::optional<int64_t> N, const std::string &Name = "n");
  TaskRef &sec(Section S) {
    Cur = S;
    return *this;
  }
  TaskRef &head() { return sec(Section::Head); }
  TaskRef &body() { return sec(Section::Loop); }
  /// An inner domain loop over [0, N) (runtime `Name` when nullopt) in the
  /// loop body; ops added after it are Section::Inner until body().
  TaskRef &inner(std::optional<int64_t> N, const std::string &Name = "k");
  TaskRef &tail() { return sec(Section::Tail); }
  TaskRef &op(OpKind K, unsigned R, Guard G = Guard::Always);
  TaskRef &opAs(OpKind K, unsigned R, Role Ro, Guard G = Guard::Always);

  TaskRef &acquire(unsigned R, Guard G = Guard::Always) {
    return op(OpKind::Acquire, R, G);
  }
  TaskRef &tryAcquire(unsigned R) { return op(OpKind::TryAcquire, R); }
  TaskRef &commit(unsigned R, Guard G = Guard::Always) {
    return op(OpKind::Commit, R, G);
  }
  TaskRef &wait(unsigned R, Guard G = Guard::Always) {
    return op(OpKind::Wait, R, G);
  }
  TaskRef &tryWait(unsigned R) { return op(OpKind::TryWait, R); }
  TaskRef &release(unsigned R, Guard G = Guard::Always) {
    return op(OpKind::Release, R, G);
  }
  TaskRef &pwork(unsigned R) { return opAs(OpKind::Work, R, Role::Producer); }
  TaskRef &cwork(unsigned R) { return opAs(OpKind::Work, R, Role::Consumer); }
  /// A ts::wgmma MMA issued on the latest stage of R (an asynchronous read).
  TaskRef &mma(unsigned R);
  TaskRef &mmaCommit(Guard G = Guard::Always) {
    return opAs(OpKind::MmaCommit, Op::NoResource, Role::Consumer, G);
  }
  TaskRef &mmaWait(unsigned Pending, Guard G = Guard::Always);
  /// release_oldest() of R.
  TaskRef &releaseOldest(unsigned R, Guard G = Guard::Always);
  /// Carried stage variable V (`ts::stage<R> v;`): its declaration, `v = s;`
  /// with s the latest stage taken, and release(v) of R.
  static constexpr int CarriedBase =
      1000; ///< Op::Stage of variable V: base + V.
  TaskRef &carryDecl(int V);
  TaskRef &carry(int V, Guard G = Guard::Always);
  TaskRef &releaseCarried(unsigned R, int V, Guard G = Guard::Always);

  /// Producer loop body: acquire, work, commit.
  TaskRef &fill(unsigned R) { return acquire(R).pwork(R).commit(R); }
  /// Consumer loop body: wait, work, release.
  TaskRef &drain(unsigned R) { return wait(R).cwork(R).release(R); }

private:
  Builder &B;
  unsigned T;
  Section Cur = Section::Head;
  unsigned CurLoop = 0; ///< The k-loop inner() opened last.
};

class Builder {
public:
  Program P;

  unsigned resource(const std::string &Name, PipelineKind Kind,
                    unsigned Stages = 4, uint64_t Bytes = 16384,
                    unsigned Align = 128, bool Swizzled = false) {
    Resource R;
    R.Name = Name;
    R.TypeName = "::" + Name;
    R.Kind = Kind;
    R.Stages = Stages;
    R.PayloadBytes = Bytes;
    R.TxBytes = Bytes;
    R.Align = Align;
    R.Swizzled = Swizzled;
    R.Loc = resLoc(P.Resources.size());
    P.Resources.push_back(R);
    return P.Resources.size() - 1;
  }
  unsigned tma(const std::string &Name, unsigned Stages = 4,
               uint64_t Bytes = 16384) {
    return resource(Name, PipelineKind::TmaAsync, Stages, Bytes);
  }

  /// A task added to the current (last) kernel, creating one if needed.
  TaskRef task(const std::string &Name, unsigned First, unsigned Warps) {
    Task T;
    T.Name = Name;
    T.FirstWarp = First;
    T.NumWarps = Warps;
    T.Loc = taskLoc(P.Tasks.size());
    P.Tasks.push_back(T);
    kernel().Tasks.push_back(P.Tasks.size() - 1);
    return TaskRef(*this, P.Tasks.size() - 1);
  }

  Kernel &kernel(const std::string &Name = "k") {
    if (P.Kernels.empty()) {
      Kernel K;
      K.Name = K.QualifiedName = Name;
      K.Loc = kernelLoc(0);
      P.Kernels.push_back(K);
    }
    return P.Kernels.back();
  }

  void edge(unsigned From, unsigned To) {
    kernel().DeclaredEdges.push_back(
        {From, To, SourceHandle(800 + kernel().DeclaredEdges.size())});
  }
};

inline Task &TaskRef::task() { return B.P.Tasks[T]; }

inline TaskRef &TaskRef::produces(unsigned R) {
  TaskParam Param;
  Param.K = TaskParam::Kind::Handle;
  Param.Name = "p" + std::to_string(R);
  Param.R = Role::Producer;
  Param.Resource = R;
  task().Params.push_back(Param);
  task().Produces.push_back(R);
  return *this;
}

inline TaskRef &TaskRef::consumes(unsigned R) {
  TaskParam Param;
  Param.K = TaskParam::Kind::Handle;
  Param.Name = "c" + std::to_string(R);
  Param.R = Role::Consumer;
  Param.Resource = R;
  task().Params.push_back(Param);
  task().Consumes.push_back(R);
  return *this;
}

inline TaskRef &TaskRef::owns(unsigned R) {
  TaskParam Param;
  Param.K = TaskParam::Kind::Owned;
  Param.Name = "o" + std::to_string(R);
  Param.Resource = R;
  Param.Loc = SourceHandle(900 + R);
  task().Params.push_back(Param);
  task().Owns.push_back(R);
  return *this;
}

inline TaskRef &TaskRef::turn(unsigned R, unsigned Pos) {
  TaskParam Param;
  Param.K = TaskParam::Kind::Turn;
  Param.Name = "t" + std::to_string(R);
  Param.R = Role::Turn;
  Param.Resource = R;
  Param.Position = Pos;
  Param.Loc = SourceHandle(950 + Pos);
  task().Params.push_back(Param);
  return *this;
}

inline TaskRef &TaskRef::loop(std::optional<int64_t> N,
                              const std::string &Name) {
  Domain &D = task().Dom;
  D.Present = true;
  D.StartText = "0";
  D.StepText = "1";
  D.Start = 0;
  D.Step = 1;
  D.EndText = N ? std::to_string(*N) : Name;
  D.End = N;
  D.EndSym = N ? "" : Name;
  D.EndOff = N ? *N : 0;
  D.Loc = domLoc(T);
  Cur = Section::Loop;
  return *this;
}

inline TaskRef &TaskRef::inner(std::optional<int64_t> N,
                               const std::string &Name) {
  // Each call opens the tile's next k-loop (its own loop variable).
  task().Inners.push_back(task().Dom);
  Domain &D = task().Inners.back();
  D.EndText = N ? std::to_string(*N) : Name;
  D.End = N;
  D.EndSym = N ? "" : Name;
  D.EndOff = N ? *N : 0;
  D.Loc = domLoc(T) + 50 + 10 * SourceHandle(task().Inners.size() - 1);
  CurLoop = unsigned(task().Inners.size() - 1);
  Cur = Section::Inner;
  return *this;
}

inline TaskRef &TaskRef::opAs(OpKind K, unsigned R, Role Ro, Guard G) {
  Op O;
  O.Kind = K;
  O.Resource = R;
  O.R = Ro;
  O.Sec = Cur;
  O.Loop = Cur == Section::Inner ? CurLoop : 0;
  O.G = G;
  O.Loc = opLoc(T, task().Ops.size());
  O.Text = std::string(opKindName(K)) + "()";
  // Producer work on a TMA stage is its load unless a test says otherwise.
  O.TmaLoad = K == OpKind::Work && Ro == Role::Producer &&
              R != Op::NoResource &&
              B.P.Resources[R].Kind == PipelineKind::TmaAsync;
  // Stage variables: each take binds a new one; hand-backs and work use
  // the latest of the same resource and role, as 'auto s = h.wait();' does.
  if (K == OpKind::Acquire || K == OpKind::Wait) {
    O.Stage = int(task().Ops.size());
  } else if (K == OpKind::Commit || K == OpKind::Release || K == OpKind::Work) {
    OpKind Take = Ro == Role::Producer ? OpKind::Acquire : OpKind::Wait;
    for (const Op &E : task().Ops)
      if (E.Resource == R && E.Kind == Take)
        O.Stage = E.Stage;
  }
  task().Ops.push_back(O);
  return *this;
}

inline TaskRef &TaskRef::mma(unsigned R) {
  cwork(R);
  task().Ops.back().AsyncRead = true;
  return *this;
}

inline TaskRef &TaskRef::mmaWait(unsigned Pending, Guard G) {
  opAs(OpKind::MmaWait, Op::NoResource, Role::Consumer, G);
  task().Ops.back().Pending = Pending;
  return *this;
}

inline TaskRef &TaskRef::releaseOldest(unsigned R, Guard G) {
  release(R, G);
  task().Ops.back().Oldest = true;
  task().Ops.back().Stage = Op::NoStage;
  return *this;
}

inline TaskRef &TaskRef::carryDecl(int V) {
  opAs(OpKind::Carry, Op::NoResource, Role::Consumer, Guard::Always);
  task().Ops.back().Stage = CarriedBase + V;
  return *this;
}

inline TaskRef &TaskRef::carry(int V, Guard G) {
  int Latest = Op::NoStage;
  for (const Op &E : task().Ops)
    if (E.Kind == OpKind::Acquire || E.Kind == OpKind::Wait)
      Latest = E.Stage;
  carryDecl(V);
  task().Ops.back().G = G;
  task().Ops.back().From = Latest;
  return *this;
}

inline TaskRef &TaskRef::releaseCarried(unsigned R, int V, Guard G) {
  release(R, G);
  task().Ops.back().Stage = CarriedBase + V;
  task().Ops.back().CarriedStage = true;
  return *this;
}

inline TaskRef &TaskRef::op(OpKind K, unsigned R, Guard G) {
  return opAs(K, R, isConsumerOp(K) ? Role::Consumer : Role::Producer, G);
}

/// Whether D holds an error (a check that is an error by default).
inline bool hasError(const DiagList &D) {
  return std::any_of(D.begin(), D.end(), [](const Diag &X) {
    return checkIsErrorByDefault(X.Group);
  });
}

/// What a task does with its own stages: ts-bracketing and the ownership
/// walk (ts-ownership, ts-token), without the credit simulation.
inline DiagList stageChecks(Builder &B) {
  DiagList D;
  checkBracketing(B.P, B.kernel(), D);
  checkStages(B.P, B.kernel(), D);
  return D;
}

/// Diags of one group.
inline DiagList only(const DiagList &D, Check G) {
  DiagList Out;
  std::copy_if(D.begin(), D.end(), std::back_inserter(Out),
               [&](const Diag &X) { return X.Group == G; });
  return Out;
}

inline bool contains(const std::string &S, const std::string &Sub) {
  return S.find(Sub) != std::string::npos;
}

/// Every diag carries at least one note (the fix hint).
inline bool allHaveNotes(const DiagList &D) {
  return std::all_of(D.begin(), D.end(),
                     [](const Diag &X) { return !X.Notes.empty(); });
}

/// Joined messages, for readable test failures.
inline std::string dump(const DiagList &D) {
  std::string S;
  for (const Diag &X : D) {
    S += std::string(checkFlag(X.Group)) + " @" + std::to_string(X.Loc) + ": " +
         X.Message + "\n";
    for (const DiagNote &N : X.Notes)
      S += "    note @" + std::to_string(N.Loc) + ": " + N.Message + "\n";
  }
  return S;
}

/// The kernel plan on sm_90a, as the plugin builds it.
inline KernelPlan planFor(const Program &P, const Kernel &K) {
  return buildPlan(P, K, targetSm90a());
}

/// The padding tasks the plan of the kernel adds, and their findings.
inline std::vector<Task> pad(const Program &P, const Kernel &K, DiagList &D) {
  KernelPlan Plan = planFor(P, K);
  D.insert(D.end(), Plan.Findings.begin(), Plan.Findings.end());
  return Plan.Padding;
}

} // namespace ts::test

#endif
