//===- Plan.h - One kernel plan: what is verified is emitted ----*- C++ -*-===//
//
// Built once per kernel after the structural checks. Warp groups, register
// regions, barrier participants and arrival counts, the shared-memory
// layout and the launch shape are decided here and nowhere else: the
// protocol checks and the lowering both read them from the plan.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_PLAN_H
#define LIBTS_PLAN_PLAN_H

#include "model/Diag.h"
#include "model/Model.h"
#include "plan/Layout.h"
#include "plan/Target.h"
#include "plan/Tmem.h"

#include <optional>
#include <utility>
#include <vector>

namespace ts {

/// How one pipeline kind completes its barriers' phases (reference 10.4,
/// check 13): the one table arrival counts are derived from.
struct Protocol {
  bool TxBytes;        ///< Full phase completes with TMA transaction bytes.
  bool FullPerThread;  ///< Every producer thread arrives (else one leader per
                       ///< task).
  bool EmptyPerThread; ///< Every consumer thread arrives, one lane per warp of
                       ///< async readers (else one per task).
  unsigned
      ProducerStartPhase; ///< Parity a producer waits on a fresh empty barrier.
  unsigned
      ConsumerStartPhase; ///< Parity a consumer waits on a fresh full barrier.
};
const Protocol &protocolOf(PipelineKind K);

/// One pipelined resource of a kernel: who fills it, who drains it, and how
/// many arrivals complete each phase.
struct PipelinePlan {
  unsigned Resource = 0;
  std::vector<unsigned> Producers; ///< Program task indices, kernel order.
  std::vector<unsigned> Consumers;
  ArrivalCounts Counts;
  unsigned ProducerStartPhase = 1;
  unsigned ConsumerStartPhase = 0;
  uint64_t TxBytes = 0; ///< Armed per stage by the producer leader (TMA).
  /// The producer task whose leader arms TxBytes: the first that loads
  /// with TMA. Where several producer tasks fill one TMA stage, the others'
  /// leaders only arrive, so the stage expects its bytes once, whoever
  /// loads them.
  bool armsTxBytes(unsigned Task) const;
  /// Producers of a ts::merge stage that issue no TMA load into it: their
  /// threads fill it and each arrives on the full barrier at the commit.
  std::vector<unsigned> ThreadFillers;
  bool fillsWithThreads(unsigned Task) const;
  /// Consumers whose work on a stage may start a TMA store from it: their
  /// releases wait for the store's reads; the others skip that wait.
  std::vector<unsigned> StoringConsumers;
  bool consumerStores(unsigned Task) const;
  /// CTAs each consumer warp's release arrives on: the cluster for a
  /// ts::multicast resource (ranks 0..Peers-1, whose multicast loads fill
  /// this CTA's stages), else 1 (its own CTA).
  unsigned Peers = 1;
  /// CTA mask a stage's multicast loads write to (bit i: rank i).
  unsigned McastMask = 1;
  /// Consumers whose only reads of a stage are asynchronous MMAs, awaited
  /// before each release (verified), and that start no TMA store from it:
  /// one lane arrives for the warp, with no fence across CTAs.
  std::vector<unsigned> AsyncReaders;
  bool consumerReadsAsync(unsigned Task) const;
  /// Consumers whose release is lane 0's tcgen05.commit: every consumer of
  /// a kind that MMAs consume, but for a ts::fork resource only the tasks
  /// that issue MMAs on it (the others' threads arrive).
  std::vector<unsigned> CommitReleasers;
  bool releasesByCommit(unsigned Task) const;
  /// A ts::cta_pair resource: Peers is 2; a tma_umma stage's bytes (both
  /// CTAs' halves, TxBytes each) complete on rank 0's full barrier; a
  /// umma_async stage's empty barrier on rank 0 counts both CTAs' readers.
  bool Pair = false;
  /// The bytes the arming leader expects: TxBytes, both halves for a pair.
  uint64_t armedBytes() const { return Pair ? 2 * TxBytes : TxBytes; }
};

/// A ts::turns resource: the ring of its tasks by position and one named
/// barrier per position, synced by the holder and arrived at by the
/// position before it (its threads count for both). Ids follow id 0
/// (__syncthreads) and the ones ts::sync_warpgroup uses (1 + warp group).
struct TurnPlan {
  unsigned Resource = 0;
  /// Program task index per position; empty when the positions are not
  /// 0 .. n-1 once each (verify/Turns.cpp reports it).
  std::vector<unsigned> Ring;
  std::vector<unsigned> BarrierId, Threads; ///< Per position.
  unsigned before(unsigned Pos) const {
    return unsigned((Pos + Ring.size() - 1) % Ring.size());
  }
  /// The position of program task TI, or none.
  std::optional<unsigned> position(unsigned TI) const;
};

/// Four consecutive warps sharing one setmaxnreg.
struct WarpGroup {
  unsigned Index = 0;
  std::vector<unsigned> Tasks;   ///< Program task indices touching the group.
  std::vector<unsigned> Budget;  ///< Those of Tasks with ts::regs.
  std::vector<unsigned> Padding; ///< Indices into KernelPlan::Padding.
  bool Covered[4] = {false, false, false, false}; ///< By a task or padding.

  unsigned first() const { return 4 * Index; }
  bool consistent(const Program &P) const;
  /// Maximal runs of uncovered warps as [begin, end).
  std::vector<std::pair<unsigned, unsigned>> holes() const;
};

/// Consecutive warp groups with one budget: the lowering opens one branch
/// per region with its setmaxnreg first.
struct RegisterRegion {
  unsigned First = 0, End = 0; ///< Warps.
  std::optional<unsigned> Budget;
  std::vector<unsigned> Tasks; ///< Non-padding tasks, in warp order.
};

/// Trip counts checked where the every-N argument ends, unless the kernel
/// says ts::trip_bound(N) or the compile -trip-bound=N.
constexpr uint64_t DefaultTripBound = 64;

struct KernelPlan {
  const Target *Tgt = nullptr;
  unsigned Warps = 0; ///< End of the highest warp range (padding included).
  unsigned Threads = 0;
  unsigned BaselineRegs = 0; ///< Registers per thread before any setmaxnreg.
  std::vector<WarpGroup> Groups;
  /// Idle tasks (Task::Padding) the plan adds where a warp group with a
  /// budget has warps no task covers: setmaxnreg needs the whole group.
  std::vector<Task> Padding;
  /// Per warp of the whole warp groups: the setmaxnreg budget of the task
  /// or padding on it, none for the launch baseline.
  std::vector<std::optional<unsigned>> WarpBudget;
  uint64_t RegisterSum = 0; ///< Registers the block holds, per WarpBudget.
  /// Runtime trip counts checked where the every-N argument ends: the
  /// kernel's ts::trip_bound(N), else the compile's -trip-bound.
  uint64_t TripBound = DefaultTripBound;
  /// Dynamic shared memory a block may use: ts::smem_capacity, else the
  /// target's.
  uint64_t SmemCapacity = 0;
  /// Findings of planning (ts-padding), reported before the checks'.
  DiagList Findings;
  std::vector<RegisterRegion> Regions;
  std::vector<PipelinePlan>
      Pipelines; ///< Pipelined resources, first-use order.
  BlockLayout Layout;
  TmemPlan Tmem; ///< ts::tmem resources' columns (none: Tmem.Alloc == 0).
  std::vector<TurnPlan> Turns; ///< ts::turns resources, first-use order.
  /// Named barrier ids the turns need past the target's: an error.
  unsigned TurnIdsShort = 0;
  /// Some task calls a PDL op: launch with programmatic stream serialization.
  bool Pdl = false;
  /// The compile asked for the hang watchdog (-debug-hangs): the lowering
  /// names each handle's kernel, task and resource for its waits.
  bool WatchHangs = false;
  /// CTAs per cluster along x, y, z (ts::cluster_shape; 1, 1, 1 without).
  unsigned Cluster[3] = {1, 1, 1};
  unsigned ClusterCtas = 1;
  /// The most CTAs of this kernel one SM can hold, from its threads and
  /// launch shared memory (registers are ptxas's: not counted, so this
  /// bounds from above).
  unsigned CtasPerSm = 1;
  /// CTAs one tcgen05 MMA spans: 2 when the kernel's tcgen05 resources are
  /// ts::cta_pair (every tcgen05 instruction then uses cta_group::2).
  unsigned CtaGroup = 1;
  /// Tasks that run on rank 0 of the pair only (pairLeaders).
  std::vector<unsigned> PairLeaders;
  bool leadsPair(unsigned Task) const;

  const PipelinePlan *pipeline(unsigned Resource) const;
  const TurnPlan *turn(unsigned Resource) const;
  /// Tasks A < B that exchange stages (both on some pipeline) or turns
  /// (both in a ring), each pair once, with the first such resource.
  struct TaskPair {
    unsigned A, B, Resource;
  };
  std::vector<TaskPair> exchangingPairs() const;
  /// The kernel's tasks in order, then the padding tasks.
  std::vector<const Task *> tasks(const Program &P, const Kernel &K) const;
  /// Registers per thread on warp W (its budget or the baseline).
  unsigned warpRegs(unsigned W) const;
};

/// Per-thread registers a block of `Warps` warps starts with:
/// RegisterFile / (round_up(Warps, 4) * 32 * granule) * granule, capped.
unsigned baselineRegisters(const Target &T, unsigned Warps);

/// Warp groups of the kernel as its tasks cover them.
std::vector<WarpGroup> warpGroups(const Program &P, const Kernel &K,
                                  const Target &T);

/// Fills the groups' warps that have budgets but no task with padding
/// tasks of the same budget (Plan.Padding), each a ts-padding finding.
void padWarpGroups(const Program &P, const Kernel &K, KernelPlan &Plan);

/// The plan of a kernel. `TripBound`: the compile's -trip-bound.
/// Plan.Turns for K's ts::turns resources (plan/Turns.cpp).
void planTurns(const Program &P, const Kernel &K, KernelPlan &Plan);

/// The tasks that issue a CTA pair's MMAs, so run on rank 0 only: those
/// that consume a ts::cta_pair tma_umma stage or produce a ts::cta_pair
/// umma_async one.
std::vector<unsigned> pairLeaders(const Program &P, const Kernel &K);

KernelPlan buildPlan(const Program &P, const Kernel &K, const Target &T,
                     uint64_t TripBound = DefaultTripBound);

} // namespace ts

#endif
