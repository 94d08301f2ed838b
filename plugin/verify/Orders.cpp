//===- Orders.cpp - Happens-before: aliased phases and PDL launch order ---===//
//
// In the Kahn network of tasks (docs/verifier.md, "One run decides") op a
// happens before op b in every interleaving exactly when b never runs in a
// run where a is held back: holding a back only removes credits, and every
// other task still runs as far as it can. So each question is one run with
// a task frozen in front of a.
//
//===----------------------------------------------------------------------===//
#include "verify/Simulation.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
namespace detail {
namespace {

using Findings = std::vector<std::pair<std::string, Diag>>;

struct FirstUse {
  unsigned Task = 0, Op = 0; ///< Simulation-local task, index in Task::Ops.
  uint64_t It = 0;
  bool Found = false;
};

/// Ops of each simulation task on resource R in one unfrozen run.
std::vector<uint64_t> opCounts(const Program &P, const Kernel &K,
                               const KernelPlan &Plan,
                               const std::vector<uint64_t> &Trips, unsigned R) {
  Simulation S(P, K, Plan, Trips, "");
  S.RecordEvents = false;
  std::vector<uint64_t> N(S.taskCount(), 0);
  S.OnExecute = [&](unsigned T, unsigned O, uint64_t) {
    N[T] += P.Tasks[S.programTask(T)].Ops[O].Resource == R;
  };
  S.runToQuiescence();
  return N;
}

std::string where(const Op &O, uint64_t It) {
  return O.Sec == Section::Loop   ? "iteration " + std::to_string(It)
         : O.Sec == Section::Head ? "the head"
                                  : "the tail";
}

/// One thread of task T held back at its last op on Before, every other
/// thread (T's own included) running on: does anything touch After? A
/// task's threads are ordered only through barriers, so T's own later ops
/// run too, but whatever T commits or releases from then on completes no
/// stage (the held thread never arrives).
void phaseOrder(const Program &P, const Kernel &K, const KernelPlan &Plan,
                const std::vector<uint64_t> &Trips, const std::string &RunName,
                const AliasGroup &G, unsigned Before, unsigned After,
                unsigned T, uint64_t Last, Findings &Out) {
  Simulation S(P, K, Plan, Trips, RunName);
  S.RecordEvents = false;
  uint64_t Done = 0;
  bool Held = false;
  SourceHandle HeldAt = 0;
  uint64_t HeldIt = 0;
  FirstUse Use;
  S.OnExecute = [&](unsigned U, unsigned O, uint64_t It) {
    const Op &Op = P.Tasks[S.programTask(U)].Ops[O];
    if (U == T && Op.Resource == Before && ++Done == Last) {
      Held = true;
      HeldAt = Op.Loc;
      HeldIt = It;
    }
    if (Op.Resource == After && !Use.Found)
      Use = {U, O, It, true};
  };
  S.Withheld = [&](unsigned U) { return U == T && Held; };
  S.runToQuiescence();
  if (!Use.Found)
    return;
  const Task &Late = P.Tasks[S.programTask(T)],
             &Early = P.Tasks[S.programTask(Use.Task)];
  const Op &UseOp = Early.Ops[Use.Op];
  const Op &Pending =
      *std::find_if(Late.Ops.begin(), Late.Ops.end(),
                    [&](const Op &O) { return O.Loc == HeldAt; });
  const std::string &A = P.Resources[Before].Name, &B = P.Resources[After].Name;
  Diag D{Check::Race,
         UseOp.Loc,
         "race: task " + quote(Early.Name) + " may use " + quote(B) + " (" +
             opKindName(UseOp.Kind) + ", " + where(UseOp, Use.It) +
             ") while task " + quote(Late.Name) + " still uses " + quote(A) +
             ", which shares its bytes (" + RunName + ")",
         {}};
  note(D, Pending.Loc,
       "a thread of task " + quote(Late.Name) +
           " may still be before this last " + opKindName(Pending.Kind) +
           " of " + quote(A) + " (" + where(Pending, HeldIt) +
           "); the task's other threads do not wait for it");
  note(D, G.Loc,
       quote(A) + " and " + quote(B) + " share shared memory here, " +
           quote(A) + " first");
  note(D, UseOp.Loc,
       "order them: make " + quote(Early.Name) +
           " wait, before its first use of " + quote(B) +
           ", for a stage that every thread of " + quote(Late.Name) +
           " hands over after its last use of " + quote(A) +
           (Early.Name == Late.Name ? " (a stage of another task that needs it)"
                                    : ""));
  Out.push_back({"race:" + std::to_string(Before) + ":" +
                     std::to_string(After) + ":" + std::to_string(UseOp.Loc),
                 std::move(D)});
}

void aliasOrders(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 const std::vector<uint64_t> &Trips, const std::string &RunName,
                 Findings &Out) {
  for (const AliasGroup &G : K.Aliases)
    for (size_t I = 0; I + 1 < G.Phases.size(); ++I) {
      unsigned A = G.Phases[I], B = G.Phases[I + 1];
      std::vector<uint64_t> Count = opCounts(P, K, Plan, Trips, A);
      for (unsigned T = 0; T < Count.size(); ++T)
        if (Count[T]) {
          size_t Before = Out.size();
          phaseOrder(P, K, Plan, Trips, RunName, G, A, B, T, Count[T], Out);
          if (Out.size() != Before)
            break; // One finding per pair of phases tells the story.
        }
    }
}

/// Every task frozen at its first pdl_wait: does a launch still run?
void pdlOrder(const Program &P, const Kernel &K, const KernelPlan &Plan,
              const std::vector<uint64_t> &Trips, const std::string &RunName,
              Findings &Out) {
  if (K.PdlWaited || !Plan.Pdl)
    return;
  Simulation S(P, K, Plan, Trips, RunName);
  S.RecordEvents = false;
  FirstUse Launch;
  S.Frozen = [](unsigned, const Op &Next) {
    return Next.Kind == OpKind::PdlWait;
  };
  S.OnExecute = [&](unsigned U, unsigned O, uint64_t It) {
    if (!Launch.Found &&
        P.Tasks[S.programTask(U)].Ops[O].Kind == OpKind::PdlLaunch)
      Launch = {U, O, It, true};
  };
  S.runToQuiescence();
  if (!Launch.Found)
    return;
  const Task &T = P.Tasks[S.programTask(Launch.Task)];
  const Op &O = T.Ops[Launch.Op];
  Diag D{Check::Pdl,
         O.Loc,
         "task " + quote(T.Name) +
             " may let dependent grids launch before any task has called "
             "ts::pdl_wait() (" +
             RunName + ")",
         {}};
  bool Waits = false;
  for (unsigned U = 0; U < S.taskCount(); ++U)
    if (!S.cursor(U).Done && S.nextOp(U).Kind == OpKind::PdlWait) {
      Waits = true;
      note(D, S.nextOp(U).Loc,
           "task " + quote(P.Tasks[S.programTask(U)].Name) +
               " waits here, but nothing orders this before the launch");
    }
  note(D, Waits ? O.Loc : K.Loc,
       Waits
           ? "call ts::pdl_launch_dependents() after a ts::pdl_wait() of the "
             "same "
             "task, or after waiting for a stage that a waiting task hands over"
           : "no task calls ts::pdl_wait(): add one before the first dependent "
             "access, or mark the kernel ts::pdl_waited if it has no "
             "predecessor "
             "or waits outside the schedule");
  Out.push_back({"pdl:" + std::to_string(O.Loc), std::move(D)});
}

} // namespace

void checkOrders(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 const std::vector<uint64_t> &Trips, const std::string &RunName,
                 Findings &Out) {
  aliasOrders(P, K, Plan, Trips, RunName, Out);
  pdlOrder(P, K, Plan, Trips, RunName, Out);
}

} // namespace detail
} // namespace ts
