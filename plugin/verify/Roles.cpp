//===- Roles.cpp - Producer/consumer roles --------------------------------===//
//
// A handle's role decides which pipeline calls are legal on it, every
// pipelined resource needs both sides or its barriers never complete, and
// task-owned memory has exactly one owner.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

const char *roleName(Role R) {
  return R == Role::Producer   ? "producer"
         : R == Role::Consumer ? "consumer"
                               : "turn";
}

std::string handle(Role R, const Resource &Res) {
  return std::string("ts::") + roleName(R) + "<" + Res.Name + ">";
}

void checkOp(const Program &P, const Task &T, const Op &O, DiagList &Out) {
  if (!O.onResource() || O.R == Role::Turn)
    return; // turns: verify/Turns.cpp
  const Resource &Res = P.Resources[O.Resource];
  if (O.Kind != OpKind::Work && !isPipelined(Res.Kind)) {
    Diag &D = report(Out, Check::Roles, O.Loc,
                     std::string(opKindName(O.Kind)) + " on gmem resource " +
                         quote(Res.Name) + ", which has no pipeline");
    note(D, Res.Loc,
         "declare " + quote(Res.Name) +
             " with ts::tma_async or ts::async_async and "
             "ts::stages(n), or drop the call");
    return;
  }
  bool Mismatch = (O.R == Role::Consumer && isProducerOp(O.Kind)) ||
                  (O.R == Role::Producer && isConsumerOp(O.Kind));
  if (Mismatch) {
    Diag &D = report(Out, Check::Roles, O.Loc,
                     std::string(opKindName(O.Kind)) + " on a " +
                         roleName(O.R) + " handle of " + quote(Res.Name));
    note(D, O.Loc,
         isProducerOp(O.Kind)
             ? "only producer handles acquire and commit stages"
             : "only consumer handles wait for and release stages");
    return;
  }
  bool Held =
      O.R == Role::Producer ? T.produces(O.Resource) : T.consumes(O.Resource);
  if (!Held) {
    Diag &D =
        report(Out, Check::Roles, O.Loc,
               "task " + quote(T.Name) + " uses " + quote(Res.Name) + " as " +
                   roleName(O.R) + " without a " + roleName(O.R) + " handle");
    note(D, T.Loc,
         "add a " + handle(O.R, Res) + " parameter to task " + quote(T.Name));
  }
}

bool hasOp(const Task &T, unsigned R, OpKind A, OpKind B) {
  return std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Resource == R && (O.Kind == A || O.Kind == B);
  });
}

/// Task-owned memory has no barriers: a second task touching it would race.
void checkOneOwner(const Program &P, const Kernel &K, unsigned R,
                   DiagList &Out) {
  const Task *First = nullptr;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (!T.owns(R))
      continue;
    if (!First) {
      First = &T;
      continue;
    }
    const Resource &Res = P.Resources[R];
    SourceHandle At = T.Loc;
    for (const TaskParam &TP : T.Params)
      if (TP.K == TaskParam::Kind::Owned && TP.Resource == R)
        At = TP.Loc;
    Diag &D =
        report(Out, Check::Roles, At,
               "task-owned resource " + quote(Res.Name) + " is taken by task " +
                   quote(T.Name) + " and by task " + quote(First->Name));
    note(D, First->Loc,
         "memory a task owns has no barriers, so only one task of a kernel may "
         "touch it; to pass data between tasks, make " +
             quote(Res.Name) + " a pipeline (ts::async_async)");
  }
}

/// A task pinned to one CTA may not take part in a pipeline or a turn
/// ring: its partners run on every CTA and would wait forever elsewhere.
void checkPinned(const Program &P, const Task &T, DiagList &Out) {
  for (const TaskParam &Param : T.Params) {
    const bool Pipe = Param.K == TaskParam::Kind::Handle &&
                      isPipelined(P.Resources[Param.Resource].Kind);
    if (!Pipe && Param.K != TaskParam::Kind::Turn)
      continue;
    const std::string What = Pipe ? "pipeline " : "the turn ring of ";
    Diag &D = report(Out, Check::Roles, Param.Loc,
                     "task " + quote(T.Name) + " is pinned to CTA " +
                         std::to_string(*T.Cta) + " but takes part in " + What +
                         quote(P.Resources[Param.Resource].Name));
    note(D, T.Loc,
         "its partner tasks run on every CTA and would wait forever "
         "elsewhere; pin only tasks that use ts::gmem resources");
    return;
  }
}

} // namespace

void checkRoles(const Program &P, const Kernel &K, DiagList &Out) {
  const std::vector<unsigned> Leaders = pairLeaders(P, K);
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (const Op &O : T.Ops)
      checkOp(P, T, O, Out);

    // Without cluster-aware signalling a pinned task would leave its
    // partners waiting forever on every other CTA. A CTA pair's MMA task
    // is rank 0's by itself (verify/Pairs.cpp says so).
    bool Leads = std::count(Leaders.begin(), Leaders.end(), TI) != 0;
    if (T.Cta && !Leads)
      checkPinned(P, T, Out);

    // A handle that never takes a stage leaves the other side waiting.
    for (unsigned R : T.Produces) {
      const Resource &Res = P.Resources[R];
      if (!isPipelined(Res.Kind) ||
          hasOp(T, R, OpKind::Acquire, OpKind::Commit))
        continue;
      Diag &D = report(Out, Check::Roles, T.Loc,
                       "task " + quote(T.Name) + " produces " +
                           quote(Res.Name) + " but never acquires a stage");
      note(D, T.Loc,
           "acquire and commit a stage on the producer handle, or "
           "drop the parameter");
    }
    for (unsigned R : T.Consumes) {
      const Resource &Res = P.Resources[R];
      if (!isPipelined(Res.Kind) || hasOp(T, R, OpKind::Wait, OpKind::Release))
        continue;
      Diag &D = report(Out, Check::Roles, T.Loc,
                       "task " + quote(T.Name) + " consumes " +
                           quote(Res.Name) + " but never waits for a stage");
      note(D, T.Loc,
           "wait for and release a stage on the consumer handle, "
           "or drop the parameter");
    }
  }

  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    if (Res.Kind == PipelineKind::TaskOwned)
      checkOneOwner(P, K, R, Out);
    if (!isPipelined(Res.Kind))
      continue;
    bool Produced = false, Consumed = false;
    for (unsigned TI : K.Tasks) {
      Produced |= P.Tasks[TI].produces(R);
      Consumed |= P.Tasks[TI].consumes(R);
    }
    for (Role Missing : {Role::Producer, Role::Consumer}) {
      if ((Missing == Role::Producer ? Produced : Consumed))
        continue;
      Diag &D =
          report(Out, Check::Roles, K.Loc,
                 "pipelined resource " + quote(Res.Name) + " has no " +
                     roleName(Missing) + " task in kernel " + quote(K.Name));
      bool Unlisted = false;
      for (unsigned TI = 0; TI < P.Tasks.size(); ++TI) {
        const Task &T = P.Tasks[TI];
        bool Has = Missing == Role::Producer ? T.produces(R) : T.consumes(R);
        if (!Has || std::count(K.Tasks.begin(), K.Tasks.end(), TI))
          continue;
        Unlisted = true;
        note(D, T.Loc,
             "task " + quote(T.Name) +
                 (Missing == Role::Producer ? " produces " : " consumes ") +
                 quote(Res.Name) + " but kernel " + quote(K.Name) +
                 " does not list it: add it to [[ts::kernel(...)]]");
      }
      if (!Unlisted)
        note(D, Res.Loc,
             "add a task with a " + handle(Missing, Res) + " parameter");
    }
  }
}

} // namespace ts
