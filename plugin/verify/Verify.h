//===- Verify.h - Schedule verification -------------------------*- C++ -*-===//
//
// All checks of a kernel, as data. Each check lives in its own file; this
// header is the seam the front end (and the later exhaustive checker) use.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_VERIFY_H
#define LIBTS_VERIFY_VERIFY_H

#include "model/Diag.h"
#include "model/Model.h"
#include "plan/Plan.h"

#include <memory>
#include <string>
#include <vector>

namespace ts {

void checkWarps(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out);
void checkRegisters(const Program &P, const Kernel &K, const KernelPlan &Plan,
                    DiagList &Out);
/// A task whose budget is below PressureBudget but that copies or reads
/// stages with threads (not TMA) will spill: warn (a bug users shipped).
void checkRegisterPressure(const Program &P, const Kernel &K, DiagList &Out);
constexpr unsigned PressureBudget = 64;
void checkRoles(const Program &P, const Kernel &K, DiagList &Out);
void checkBracketing(const Program &P, const Kernel &K, DiagList &Out);
/// Each task alone: stages used only while held, handed back once and
/// oldest first; try_ tokens consumed by their own blocking op.
void checkStages(const Program &P, const Kernel &K, DiagList &Out);
/// ts-domain: the threads of a task agree on each of its domains' trip count.
void checkThreadBounds(const Program &P, const Kernel &K, DiagList &Out);
/// Tasks that exchange stages must run trip counts that provably match or
/// differ by a known constant.
void checkDomains(const Program &P, const Kernel &K, const KernelPlan &Plan,
                  DiagList &Out);
/// ts::tiles loops: their queue is async_async, filled by one one-warp
/// task, taken only by the loops, in a kernel without a cluster.
void checkTileQueues(const Program &P, const Kernel &K, DiagList &Out);
/// ts-fixup: stream-K segments settled once each (verify/Fixup.cpp).
void checkFixup(const Program &P, const Kernel &K, DiagList &Out);
/// Every tma_async stage a task commits got a TMA load on every path.
void checkTmaBytes(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out);
void checkGraph(const Program &P, const Kernel &K, DiagList &Out);
/// The rings of ts::turns resources are whole and each task takes and
/// passes the turn in pairs.
void checkTurns(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out);
/// ts::alias and ts::grid_dependent name resources the kernel uses.
void checkDeclarations(const Program &P, const Kernel &K, DiagList &Out);
/// Fences, barriers and waits around each task's TMA stores (model/Stores.h).
void checkTmaStores(const Program &P, const Kernel &K, DiagList &Out);
void checkUnlistedTasks(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, DiagList &Out);
/// Tasks that touch grid-dependent resources call ts::pdl_wait() first.
void checkPdlWaits(const Program &P, const Kernel &K, DiagList &Out);
/// tcgen05 MMAs only on ts::tma_umma / ts::umma_async stages, from one-warp
/// tasks; no thread reads of a stage a commit hands back.
void checkUmma(const Program &P, const Kernel &K, const KernelPlan &Plan,
               DiagList &Out);
/// ts-target: tensor memory without sm_100a, wgmma with it.
void checkTarget(const Program &P, const Kernel &K, const KernelPlan &Plan,
                 DiagList &Out);
void checkCapacity(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out);
/// TMA multicast loads fill ts::multicast resources, with masks inside the
/// kernel's cluster.
void checkCluster(const Program &P, const Kernel &K, DiagList &Out);
/// ts::cta_pair: a cluster of two, every tcgen05 resource paired, rank 0's
/// MMA task on paired stages and a CLC queue only, tile-mode loads.
void checkPairs(const Program &P, const Kernel &K, const KernelPlan &Plan,
                DiagList &Out);
/// The kernels of one file agree on the tcgen05 CTA group.
void checkPairFile(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out);

/// One executed (or blocked) entry of the round-robin credit simulation.
struct SimStep {
  unsigned Step = 0;
  unsigned Task = 0;      ///< Index into Program::Tasks.
  unsigned OpIndex = 0;   ///< Index into Task::Ops.
  unsigned Iteration = 0; ///< Loop iteration (0 for head and tail).
  bool Blocked = false;   ///< The entry a task was stuck on at a deadlock.
};

struct SimResult {
  uint64_t Trips = 0;         ///< Trip count simulated.
  std::vector<SimStep> Steps; ///< Executed entries, in order.
  bool Deadlocked = false;
};

/// The trip count K such that the runs up to K decide every runtime trip
/// count, or nullopt when the argument does not cover the schedule.
std::optional<uint64_t> decidingTripCount(const Program &P, const Kernel &K,
                                          const KernelPlan &Plan);

/// Trip counts of the kernel's tasks (Kernel::Tasks order) when the
/// runtime trip count is N: N plus each task's known offset, clamped at 0;
/// constant domains keep their count.
std::vector<uint64_t> tripCountsAt(const Program &P, const Kernel &K,
                                   int64_t N);
/// Smallest N worth checking (below it every loop is empty).
int64_t smallestTripCount(const Program &P, const Kernel &K);
/// One run at these trip counts: true when it deadlocks or ends unbalanced.
bool runFails(const Program &P, const Kernel &K, const KernelPlan &Plan,
              const std::vector<uint64_t> &Trips);

/// Every trip count: runs from the smallest N to a bound derived from the
/// steady state (TripCounts.cpp), or the exact constant counts. Says in
/// `Coverage` which counts the runs cover.
SimResult checkCredits(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, DiagList &Out,
                       std::string *Coverage = nullptr);

/// Seam for the exhaustive interleaving checker (a later issue): every
/// check above plus the credit simulation, in reference order.
struct VerifyResult {
  DiagList Diags;
  SimResult Sim;
  std::string Coverage; ///< Which trip counts the protocol checks cover.
  /// False when a structural finding kept the protocol checks (deadlock,
  /// balance, races) from running: the kernel is then not verified, even
  /// where that finding is only a warning under the compile's -W flags.
  bool ProtocolRun = true;
  /// For kernels with nested tasks: the program Sim ran on (their k-loops
  /// written out, Nested.h); Sim's op indices refer to it.
  std::shared_ptr<const Program> View;
  const Program &simProgram(const Program &P) const { return View ? *View : P; }
};
VerifyResult verifyKernel(const Program &P, const Kernel &K,
                          const KernelPlan &Plan);
/// The checks of a kernel that read the whole translation unit (Scope::Unit
/// in verify/Registry.h): run at its end, on the program as complete.
DiagList verifyUnit(const Program &P, const Kernel &K, const KernelPlan &Plan);

/// The checks of a kernel with nested k-loops at one inner trip count N
/// (every outer count), on the view that writes the k-loops out N times;
/// roles and nesting are checked on the kernel itself, not here.
/// R.View holds the view. verifyKernel runs it for each N it covers.
VerifyResult verifyInnerCount(const Program &P, const Kernel &K,
                              const KernelPlan &Plan, uint64_t N);
/// The same with each k-loop of K (nestsOf order) running its own count.
VerifyResult verifyInnerCount(const Program &P, const Kernel &K,
                              const KernelPlan &Plan,
                              const std::vector<uint64_t> &PerNest);

} // namespace ts

#endif
