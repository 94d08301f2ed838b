//===- Model.h - Tasks, resources, schedules and kernels --------*- C++ -*-===//
//
// The plain-data model every layer below the front end works on. It knows
// nothing of clang: source positions are opaque handles the front end maps
// back to clang locations.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_MODEL_MODEL_H
#define LIBTS_MODEL_MODEL_H

#include "model/Stores.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

/// Opaque source position; 0 means "no location". The front end stores a
/// clang SourceLocation's raw encoding here.
using SourceHandle = uint64_t;

/// How a resource is produced and consumed (reference: PipelineType).
enum class PipelineKind {
  Gmem,       ///< Global memory: no pipeline, no shared memory.
  AsyncAsync, ///< Threads produce, threads consume.
  TmaAsync,   ///< TMA produces (transaction bytes), threads consume.
  TaskOwned,  ///< Shared memory one task owns: no stages, no barriers.
  Turns,      ///< A turn passed round a ring of tasks: named barriers.
  TmaUmma,    ///< TMA produces, tcgen05 MMAs consume (release = commit).
  UmmaAsync,  ///< tcgen05 MMAs produce into tensor memory, threads consume.
  ClcAsync,   ///< Cluster launch control fills a tile queue, threads consume.
  AsyncUmma,  ///< Threads produce in shared memory, tcgen05 MMAs consume.
  UmmaUmma,   ///< tcgen05 MMAs produce into tensor memory and consume it.
};

const char *pipelineKindName(PipelineKind K);
inline bool isPipelined(PipelineKind K) {
  return K == PipelineKind::AsyncAsync || K == PipelineKind::TmaAsync ||
         K == PipelineKind::TmaUmma || K == PipelineKind::UmmaAsync ||
         K == PipelineKind::ClcAsync || K == PipelineKind::AsyncUmma ||
         K == PipelineKind::UmmaUmma;
}
/// Stages that TMA fills (transaction bytes, ts::tma::load).
inline bool isTma(PipelineKind K) {
  return K == PipelineKind::TmaAsync || K == PipelineKind::TmaUmma;
}
/// Kinds whose consumer is tcgen05 MMAs: the release is lane 0's
/// tcgen05.commit, which arrives once they have read the stage.
inline bool mmaConsumes(PipelineKind K) {
  return K == PipelineKind::TmaUmma || K == PipelineKind::AsyncUmma ||
         K == PipelineKind::UmmaUmma;
}
/// Kinds whose producer is tcgen05 MMAs into tensor memory: the commit is
/// lane 0's tcgen05.commit, which arrives once they are done.
inline bool mmaProduces(PipelineKind K) {
  return K == PipelineKind::UmmaAsync || K == PipelineKind::UmmaUmma;
}
/// Pipelines whose one side is tcgen05 MMAs (sm_100a).
inline bool isUmma(PipelineKind K) { return mmaConsumes(K) || mmaProduces(K); }
/// Resources the shared-memory layout places.
inline bool inSharedMemory(PipelineKind K) {
  return isPipelined(K) || K == PipelineKind::TaskOwned;
}

struct Resource {
  std::string Name;     ///< Unqualified type name, used in reports.
  std::string TypeName; ///< Fully qualified spelling for generated code.
  PipelineKind Kind = PipelineKind::Gmem;
  unsigned Stages = 1;
  uint64_t PayloadBytes = 0; ///< sizeof(payload type).
  unsigned PayloadAlign = 1; ///< alignof(payload type): alignas is honoured.
  /// ts::tx_bytes(N) as written: the TMA transaction bytes per stage
  /// (without it the plan arms the whole payload: PipelinePlan::TxBytes).
  std::optional<uint64_t> TxBytes;
  /// ts::align(N) as written, a power of two of at least 16 (the plan
  /// decides the stage alignment: ResourceLayout::Align).
  std::optional<unsigned> Align;
  bool Swizzled = false; ///< ts::swizzled: a 128-byte-swizzled TMA destination.
  /// ts::multicast: every CTA of the cluster may fill this stage in every
  /// other (TMA multicast), so each release hands the stage back to all.
  bool Multicast = false;
  SourceHandle MulticastLoc = 0;
  /// ts::fork: a shared-memory stage that tcgen05 MMAs read may also have
  /// consumers that read it with threads (and hand it back by arriving).
  bool Fork = false;
  SourceHandle ForkLoc = 0;
  /// ts::merge: a TMA-filled stage that producer tasks may also fill with
  /// threads (each thread arrives on the full barrier at the commit).
  bool Merge = false;
  SourceHandle MergeLoc = 0;
  /// ts::cta_pair: a tcgen05 resource of a CTA pair (cta_group::2 MMAs
  /// issued by rank 0 over both CTAs' stages and tensor memory).
  bool Pair = false;
  SourceHandle PairLoc = 0;
  /// The payload's members, in order (empty when the payload has base
  /// classes): TMA loads must fill each one when the bytes are the payload's.
  struct Field {
    std::string Name;
    uint64_t Bytes = 0;
    SourceHandle Loc = 0;
  };
  std::vector<Field> Fields;
  /// ts::tmem(N): the resource is N columns of tensor memory, not shared
  /// memory (0: not in tensor memory).
  unsigned TmemColumns = 0;
  SourceHandle TmemLoc = 0;
  bool inTmem() const { return TmemColumns != 0; }
  SourceHandle Loc = 0;
};

/// Resources the shared-memory layout places: a pipeline in tensor memory
/// has its barriers there, task-owned tensor memory nothing.
inline bool inSharedMemory(const Resource &R) {
  return isPipelined(R.Kind) || (inSharedMemory(R.Kind) && !R.inTmem());
}

/// A value read by a domain bound or a multicast load's argument that may
/// not be the same in every CTA of a cluster (front end: Variance.cpp; the
/// kernel's cluster shape decides whether it differs: verify/Cluster.cpp).
struct Varying {
  enum class Source {
    CtaIndex,    ///< blockIdx.<Dim> / Divisor (%ctaid).
    ClusterRank, ///< The CTA's rank or position in its cluster.
    ThreadIndex, ///< threadIdx.<Dim> / Divisor (%tid).
    Thread,      ///< Differs between threads otherwise (lane, atomics, clocks).
    /// One value per warp: a per-thread value broadcast from one lane
    /// (`__shfl_sync(mask, v, lane)`); the same in every thread of a warp.
    Warp,
  } Src = Source::CtaIndex;
  unsigned Dim = 0; ///< CtaIndex, ThreadIndex: 0, 1, 2 for x, y, z.
  uint64_t Divisor =
      1; ///< Index reads: blockIdx/threadIdx.<Dim> divided by this,
  uint64_t Modulus = 0; ///< then taken modulo this (0: not).
  std::string What;     ///< "blockIdx.x", "ts::cluster::rank()", ...
  SourceHandle Loc = 0; ///< The read, or the library call that makes it.
};

inline bool perThread(const Varying &V) {
  return V.Src == Varying::Source::Thread ||
         V.Src == Varying::Source::ThreadIndex ||
         V.Src == Varying::Source::Warp;
}

/// What the front end found an expression reads. Complete: it saw every
/// value (no memory load, opaque call or unknown asm) so nothing else varies.
struct Reads {
  std::vector<Varying> Varies;
  bool Complete = true;
};

enum class OpKind {
  TryAcquire,
  Acquire,
  Commit,
  TryWait,
  Wait,
  Release,
  Work,      ///< A statement that touches a stage of the resource.
  PdlWait,   ///< ts::pdl_wait(): griddepcontrol.wait (no resource).
  PdlLaunch, ///< ts::pdl_launch_dependents(): griddepcontrol.launch_dependents.
  MmaCommit, ///< ts::wgmma::commit_group(): closes the group of MMAs issued so
             ///< far.
  MmaWait,   ///< ts::wgmma::wait_group<N>(): all but the newest N groups are
             ///< done.
  /// `ts::stage<R> prev;` (Op::From none) or `prev = s;`: a carried stage
  /// variable holds nothing, or the stage s holds (no resource).
  Carry,
  Take, ///< ts::turn::take(): waits until the ring's turn is the task's.
  Pass, ///< ts::turn::pass(): hands the turn to the next position.
};

const char *opKindName(OpKind K);
inline bool isProducerOp(OpKind K) {
  return K == OpKind::TryAcquire || K == OpKind::Acquire || K == OpKind::Commit;
}
inline bool isConsumerOp(OpKind K) {
  return K == OpKind::TryWait || K == OpKind::Wait || K == OpKind::Release;
}
inline bool isPdlOp(OpKind K) {
  return K == OpKind::PdlWait || K == OpKind::PdlLaunch;
}
inline bool isMmaGroupOp(OpKind K) {
  return K == OpKind::MmaCommit || K == OpKind::MmaWait;
}

/// Where an op sits relative to the task's domain loop. Inner: in the body
/// of a ts::domain loop nested in the first (a k-loop in a tile loop; a
/// tile may hold several, one after the other: Op::Loop says which); Loop
/// ops before one run before it, those after it after (Task::Ops keeps
/// source order).
enum class Section { Head, Loop, Inner, Tail };
const char *sectionName(Section S);

/// Guard on loop ops (reference: LoopGuard): `if (i.first())`,
/// `if (i.last())` and their negations, of the innermost domain loop
/// around the op.
enum class Guard { Always, FirstIter, LastIter, NotFirstIter, NotLastIter };

/// Whether an op under G runs on iteration It of Trips.
bool guardRuns(Guard G, uint64_t It, uint64_t Trips);
/// Whether it runs on iterations that are neither first nor last.
inline bool runsInMiddle(Guard G) {
  return G != Guard::FirstIter && G != Guard::LastIter;
}
/// "every iteration", "only on the first iteration", ...
const char *guardWords(Guard G);
/// "always", "first", "last", "not first", "not last".
const char *guardName(Guard G);

enum class Role { Producer, Consumer, Turn };

/// One TMA load into a stage: the box its descriptor moves (a
/// ts::tma::map's type) or none (a plain CUtensorMap, whose box the host
/// sets), and the destination object it writes, when whole.
struct TmaLoadBox {
  SourceHandle Loc = 0;
  std::string Map;                  ///< The descriptor as written (`&p.a`).
  std::optional<uint64_t> Box, Dst; ///< Bytes of one box, of the object.
  std::string Suggest; ///< The ts::tma::map type the destination's shape gives.
  uint64_t Times = 0;  ///< How often it runs on every path (0: may be skipped).
  bool Multicast = false; ///< load_multicast: a box from every CTA arrives.
  bool Im2col = false;    ///< load_im2col.
  /// What a tile-mode load's coordinates read: each CTA of a ts::cta_pair
  /// loads its own half.
  Reads Coords;
  /// In one branch of an if-else whose branches load different bytes or
  /// members (alike branches deliver on every path: frontend/TmaLoads.cpp).
  bool UnalikeBranches = false;
};

struct Op {
  OpKind Kind = OpKind::Work;
  unsigned Resource =
      0; ///< Index into Program::Resources; NoResource for PDL ops.
  Role R = Role::Producer; ///< The role of the handle/stage used.
  Section Sec = Section::Head;
  Guard G = Guard::Always;
  SourceHandle Loc = 0;
  std::string Text; ///< Short source spelling for tables and traces.
  /// Work that issues ts::tma::load or load_multicast into this stage
  /// (delivering its transaction bytes) on every path through the statement...
  bool TmaLoad = false;
  /// ...or only on some paths (under a condition, in a loop or lambda).
  bool TmaLoadMaybeSkipped = false;
  /// The payload members its TMA loads on every path write (`s->b + off`: "b");
  /// "" for a load at the stage itself (`s.get()`), which may fill every
  /// member. LoadFieldsKnown: every load's destination was resolved.
  std::vector<std::string> LoadFields;
  bool LoadFieldsKnown = true;
  /// Members loads that may be skipped write (a ts::merge stage's TMA
  /// bytes count them: verify/TmaBytes.cpp reports the skipping).
  std::vector<std::string> SkippableLoadFields;
  /// LoadPerWarp: one of its loads is a load_with_barrier, which every warp
  /// issues.
  bool LoadPerWarp = false;
  /// Each of its loads into the stage: what it delivers (verify/TmaBytes.cpp).
  std::vector<TmaLoadBox> Boxes;
  /// The task's stage variable this op binds (acquire/wait), hands back
  /// (commit/release) or touches (work); NoStage when none.
  int Stage = NoStage;
  /// Blocking ops: the index in Task::Ops of the try_ op whose token is
  /// passed, NoToken when none is, ForgedToken when it comes from elsewhere.
  int Token = NoToken;
  /// Work that hands the stage to an asynchronous reader (a ts::wgmma MMA):
  /// the stage is read until a wait_group sees the MMA's group complete.
  bool AsyncRead = false;
  /// Work that issues a ts::tcgen05 MMA on the stage (its operands in a
  /// shared-memory stage, or its accumulator in a tensor-memory one): only
  /// a release or commit by tcgen05.commit waits for it (verify/Umma.cpp).
  bool UmmaAccess = false;
  /// release_oldest(): hands back the oldest stage the task holds.
  bool Oldest = false;
  /// Commit/release of a carried stage variable (`ts::stage<R> prev;`),
  /// which may hold a stage of an earlier iteration, or none.
  bool CarriedStage = false;
  /// Carry: the stage variable copied into Stage (NoStage: its declaration).
  int From = NoStage;
  /// Work that may start a TMA store reading the stage (it calls something
  /// libts cannot see through): the task's releases wait for store reads.
  bool MayStoreAsync = true;
  /// Work whose TMA load multicasts to other CTAs of the cluster; McastMask
  /// is the CTA mask it names (none: the stage's own, every CTA).
  bool TmaMulticast = false;
  std::optional<uint64_t> McastMask;
  SourceHandle McastLoc = 0;
  /// The multicast load's destination and coordinates: in a cluster each
  /// CTA loads its own share, so both must depend on the CTA's rank.
  Reads McastDst, McastCoords;
  /// A destination `s->m + pos * Stride` into a member of Extent elements
  /// (elements of the pointer `s->m` decays to): each CTA's share begins
  /// Stride elements after the previous CTA's.
  std::optional<uint64_t> McastStride, McastExtent;
  /// Work that only takes the stage's address for an asynchronous reader (a
  /// ts::wgmma descriptor): no thread reads the stage's bytes.
  bool AddressOnly = false;
  /// MmaWait: how many of the newest groups may still be pending.
  unsigned Pending = 0;
  /// Section::Inner: which of the task's inner loops (Task::Inners) holds it.
  unsigned Loop = 0;
  /// One of the stage operations a ts::tiles loop does itself.
  bool TileLoop = false;
  /// In the verifier's view of a nested task, whose inner loops are written
  /// out: the inner iteration this copy of an Inner op runs (-1 otherwise).
  int InnerIt = -1;

  static constexpr unsigned NoResource = ~0u;
  bool onResource() const { return Resource != NoResource; }

  static constexpr int NoStage = -1;
  static constexpr int NoToken = -1;
  static constexpr int ForgedToken = -2;
};

/// One `ts::domain(start, end[, step])` loop. Bounds are kept as source text
/// (runtime values) and folded to constants where the front end could.
struct Domain {
  bool Present = false;
  std::string StartText, EndText, StepText;
  std::optional<int64_t> Start, End, Step;
  /// Bounds split as `symbol + constant` ("" symbol for a constant), so
  /// domains that differ by a constant are compared exactly.
  std::string StartSym, EndSym;
  int64_t StartOff = 0, EndOff = 0;
  /// The symbols' values as keys (front end: BoundValue.h): locals replaced
  /// by what they are computed from. Empty: the symbol is its own key.
  std::string StartKey, EndKey;
  /// Where a key stops following a local (one changed after its
  /// declaration, or without an initializer), said in a note when the
  /// bounds then differ from a partner's; 0: none.
  SourceHandle OpaqueLoc = 0;
  std::string OpaqueNote;
  /// A bound reads the enclosing loop's variable: an inner count that may
  /// change from tile to tile.
  bool PerTile = false;
  /// `ts::tiles(q)`: as many iterations as the scheduler publishes tiles
  /// in resource Queue, one unknown every task reading the queue shares.
  bool Dynamic = false;
  unsigned Queue = ~0u;
  /// `ts::domain(0, P.segments())`: the CTA's segments of ts::stream_k
  /// partition P, as written ("" for any other loop).
  std::string Segments;
  /// `ts::domain(...).nonempty()`: the loop traps unless it runs at least
  /// once, so the verifier need not check a run of zero iterations.
  bool NonEmpty = false;
  /// What the bounds read: a multicast pipeline needs the same trip count
  /// in every CTA of the cluster.
  Reads Bounds;
  SourceHandle Loc = 0;

  /// Trip count when every bound is a constant.
  std::optional<uint64_t> constantTrips() const;
  /// Tasks with equal signatures run the same number of iterations.
  std::string signature() const;
  /// Tasks whose runtime domains share this key run `N + tripOffset()`
  /// iterations for one unknown N (clamped at 0); "" for constant domains.
  std::string symbolicKey() const;
  int64_t tripOffset() const;
};

/// A ts::stream_k settle() call (the stream-K fix-up, include/ts/stream_k.h):
/// what the front end found of where it stands (verify/Fixup.cpp).
struct SettleCall {
  SourceHandle Loc = 0;
  std::string Partition;   ///< The partition as written ("p.sk").
  unsigned Warpgroups = 0; ///< Its stream_k's warpgroup count (0: unknown).
  /// Evaluated once in every iteration of the task's loop: a statement, an
  /// if's condition or a local's initializer at the loop body's top level.
  bool Once = false;
  std::string Where; ///< Otherwise what encloses it, for the error.
  SourceHandle WhereLoc = 0;
  bool Discarded = false; ///< A statement of its own: the result unused.
  bool SegmentOfLoop =
      false;          ///< Its segment is Partition.at(i) of the loop's i.
  size_t OpIndex = 0; ///< Task::Ops before it.
};

/// A parameter of a task function.
struct TaskParam {
  /// Value: binds to a kernel parameter; Handle: a producer/consumer handle;
  /// Owned: ts::owned<R>, the task's private shared memory; Turn:
  /// ts::turn<R, Position>, a place in R's ring.
  enum class Kind { Value, Handle, Owned, Turn } K = Kind::Value;
  unsigned Position = 0; ///< For turns.
  std::string
      Name; ///< Parameter name; binds to the kernel parameter of the same name.
  Role R = Role::Producer; ///< For handles.
  unsigned Resource = 0;   ///< For handles and owned memory.
  SourceHandle Loc = 0;
};

struct Task {
  std::string Name;
  unsigned FirstWarp = 0;
  unsigned NumWarps = 1;
  std::optional<unsigned> Regs; ///< setmaxnreg budget.
  SourceHandle RegsLoc = 0;     ///< Its ts::regs argument; 0: Loc.
  std::optional<unsigned> Cta;  ///< Run only on this CTA rank.
  std::vector<TaskParam> Params;
  std::vector<unsigned> Produces; ///< Resources (from producer handles).
  std::vector<unsigned> Consumes; ///< Resources (from consumer handles).
  std::vector<unsigned> Owns;     ///< Task-owned resources (ts::owned<R>).
  std::vector<Op> Ops;            ///< Head, then loop body, then tail.
  Domain Dom;
  /// The domain loops nested in Dom's loop body, in source order
  /// (Section::Inner ops, Op::Loop indexes them); empty: none.
  std::vector<Domain> Inners;
  bool Padding = false; ///< Only on KernelPlan::Padding: fills a warp group.
  SourceHandle Loc = 0;
  /// What the task does around TMA stores, helpers inlined (model/Stores.h);
  /// StoreBuffers names each buffer as the source spells it.
  std::vector<StoreEvent> StoreEvents;
  std::vector<std::string> StoreBuffers;
  std::vector<SettleCall> Settles;
  /// The first call, helpers followed, that every thread of the block must
  /// make (__syncthreads, ts::cluster::sync) and its name; 0: none
  /// (verify/Warps.cpp).
  SourceHandle BlockBarrier = 0;
  std::string BlockBarrierName;
  /// The first call every thread of a warp group must make
  /// (ts::sync_warpgroup, a ts::wgmma instruction) and its name; 0: none.
  SourceHandle WarpgroupCall = 0;
  std::string WarpgroupCallName;

  unsigned endWarp() const { return FirstWarp + NumWarps; }
  bool nested() const { return !Inners.empty(); }
  /// Dom (when present), then the inner loops.
  std::vector<const Domain *> domains() const;
  SourceHandle regsLoc() const { return RegsLoc ? RegsLoc : Loc; }
  bool produces(unsigned R) const;
  bool consumes(unsigned R) const;
  bool owns(unsigned R) const;
};

struct Edge {
  unsigned From = 0,
           To =
               0; ///< Resource indices: From is consumed before To is produced.
  SourceHandle Loc = 0;
};

/// Resources that share shared-memory bytes, in the order their lifetimes
/// follow each other (reference: alias groups). The layout gives them one
/// base; the verifier proves each phase ends before the next begins.
struct AliasGroup {
  std::vector<unsigned> Phases; ///< Resource indices, one per phase.
  SourceHandle Loc = 0;
};

/// The GPU a kernel is written for (ts::target).
enum class TargetArch { Sm90a, Sm100a };
const char *targetArchName(TargetArch A);

struct Kernel {
  std::string Name;            ///< Unqualified.
  std::string QualifiedName;   ///< With namespaces, for generated code.
  std::vector<unsigned> Tasks; ///< Indices into Program::Tasks.
  std::vector<Edge> DeclaredEdges;
  /// ts::smem_capacity(bytes) as written (KernelPlan::SmemCapacity applies).
  std::optional<uint64_t> SmemCapacity;
  /// ts::trip_bound(N) on the kernel: no every-trip-count proof, runtime
  /// counts checked up to N = TripBound only (TripBoundOptOut: where it
  /// is written; 0: not opted out). KernelPlan::TripBound is what applies.
  uint64_t TripBound = 0;
  SourceHandle TripBoundOptOut = 0;
  std::vector<AliasGroup> Aliases;
  /// Resources whose data the previous grid in the stream writes: tasks
  /// call ts::pdl_wait() before touching them (programmatic dependent launch).
  std::vector<unsigned> GridDependent;
  SourceHandle GridDependentLoc = 0;
  /// ts::pdl_waited: the kernel waits for its predecessor outside the
  /// schedule (or has none), so no task needs ts::pdl_wait().
  bool PdlWaited = false;
  /// ts::cluster_shape(x, y, z): CTAs per cluster along each dimension.
  unsigned Cluster[3] = {1, 1, 1};
  SourceHandle ClusterLoc = 0;
  unsigned clusterCtas() const { return Cluster[0] * Cluster[1] * Cluster[2]; }
  /// ts::target(arch) (sm_90a without it).
  TargetArch Arch = TargetArch::Sm90a;
  SourceHandle TargetLoc = 0;
  /// ts::tmem_capacity(N) as written (KernelPlan::TmemCapacity applies).
  std::optional<unsigned> TmemCapacity;
  SourceHandle Loc = 0;
};

struct Program {
  std::vector<Resource> Resources;
  std::vector<Task> Tasks;
  std::vector<Kernel> Kernels;
};

/// Derived graph: consumes X and produces Y in one task gives X -> Y.
std::vector<Edge> deriveEdges(const Program &P, const Kernel &K);

/// Resources touched by a kernel's tasks, in first-use order.
std::vector<unsigned> kernelResources(const Program &P, const Kernel &K);

/// Warps in the block: the end of the highest warp range.
unsigned blockWarps(const Program &P, const Kernel &K);

} // namespace ts

#endif
