// libts attribute vocabulary: the values written inside [[ts::resource(...)]],
// [[ts::task(...)]] and [[ts::kernel(...)]]. The plugin evaluates these
// expressions; their field order is part of the plugin's contract.
#ifndef LIBTS_ATTRIBUTES_H
#define LIBTS_ATTRIBUTES_H

namespace ts {

/// How a resource is produced and consumed.
enum class pipeline_kind : int {
  gmem = 0,        ///< global memory, no pipeline
  async_async = 1, ///< threads produce, threads consume
  tma_async = 2,   ///< TMA produces (transaction bytes), threads consume
  task_owned = 3,  ///< shared memory private to one task (ts::owned<R>)
  turns = 4,       ///< a turn passed round a ring of tasks (ts::turn<R, Pos>)
  /// sm_100a: TMA produces, a one-warp task's tcgen05 MMAs consume; the
  /// release commits (tcgen05.commit), so it waits for the MMAs' reads.
  tma_umma = 5,
  /// sm_100a: a one-warp task's tcgen05 MMAs produce into tensor memory
  /// (ts::tmem(N) columns per stage; the commit arrives when they are
  /// done), threads consume with tcgen05.ld.
  umma_async = 6,
  /// sm_100a: the tile queue of a ts::tiles loop fed by cluster launch
  /// control: the scheduling warp's try_cancel writes each stage (a
  /// ts::clc::response, 16 transaction bytes), threads consume.
  clc_async = 7,
  /// sm_100a: threads produce shared-memory operands (a fence hands them to
  /// the async proxy), a one-warp task's tcgen05 MMAs consume (the release
  /// commits).
  async_umma = 8,
  /// sm_100a: one-warp tasks' tcgen05 MMAs on both sides: the producer's
  /// MMAs fill ts::tmem(N) columns per stage, the consumer's MMAs read them
  /// (ts::tcgen05::mma_bf16_ts); commit and release are tcgen05.commit.
  umma_umma = 9,
};
inline constexpr pipeline_kind gmem = pipeline_kind::gmem;
inline constexpr pipeline_kind async_async = pipeline_kind::async_async;
inline constexpr pipeline_kind tma_async = pipeline_kind::tma_async;
inline constexpr pipeline_kind task_owned = pipeline_kind::task_owned;
inline constexpr pipeline_kind turns = pipeline_kind::turns;
inline constexpr pipeline_kind tma_umma = pipeline_kind::tma_umma;
inline constexpr pipeline_kind umma_async = pipeline_kind::umma_async;
inline constexpr pipeline_kind clc_async = pipeline_kind::clc_async;
inline constexpr pipeline_kind async_umma = pipeline_kind::async_umma;
inline constexpr pipeline_kind umma_umma = pipeline_kind::umma_umma;

struct stages_t { int count; };
/// Number of shared-memory stages of a pipelined resource.
constexpr stages_t stages(int count) { return {count}; }

struct tx_bytes_t { long long bytes; };
/// TMA transaction bytes per stage (default: sizeof the payload).
constexpr tx_bytes_t tx_bytes(long long bytes) { return {bytes}; }

struct align_t { int bytes; };
/// Stage alignment in shared memory (default 128).
constexpr align_t align(int bytes) { return {bytes}; }

struct swizzled_t { int unused; };
/// The payload is a swizzled TMA destination: stages align to 1024 bytes.
inline constexpr swizzled_t swizzled{0};

struct multicast_t { int unused; };
/// The stages of this tma_async resource are filled across the cluster:
/// TMA loads may multicast into the same stage of every CTA, so every
/// consumer hands a stage back to all of them (ts/tma.h, load_*_multicast).
inline constexpr multicast_t multicast{0};

struct fork_t { int unused; };
/// A ts::tma_umma or ts::async_umma resource whose stages both tcgen05 MMA
/// tasks (they hand a stage back by tcgen05.commit) and thread tasks (by
/// arriving) consume: one fill feeds consumers of both kinds (the
/// reference's Fork group).
inline constexpr fork_t fork{0};

struct merge_t { int unused; };
/// A ts::tma_async or ts::tma_umma resource whose stages TMA producer tasks
/// and thread producer tasks fill together (the reference's FusedMerge
/// group: one full barrier, the TMA bytes and every filling thread
/// complete it; one empty barrier).
inline constexpr merge_t merge{0};

struct cta_pair_t { int unused; };
/// A ts::tma_umma or ts::umma_async resource of a CTA pair (sm_100a, a
/// ts::cluster_shape(2) kernel): rank 0 issues MMAs of up to M = 256 that
/// read both CTAs' operand stages and write both CTAs' tensor memory
/// (tcgen05 cta_group::2). Each CTA loads its half of a stage; the plan
/// routes both halves' bytes to rank 0's barrier and runs the MMA task on
/// rank 0 only. Every tcgen05 resource of the kernel is paired or none is.
inline constexpr cta_pair_t cta_pair{0};

struct warps_t { int first; int count; };
/// The task runs on warps [first, first + count) of the block.
constexpr warps_t warps(int first, int count) { return {first, count}; }

struct regs_t { int count; };
/// setmaxnreg budget (per thread) of the task's warp group.
constexpr regs_t regs(int count) { return {count}; }

struct cta_t { int rank; };
/// Run the task only on this CTA rank of the cluster.
constexpr cta_t cta(int rank) { return {rank}; }

struct smem_capacity_t { long long bytes; };
/// Shared-memory capacity of the target (default 232448 bytes, sm_90).
constexpr smem_capacity_t smem_capacity(long long bytes) { return {bytes}; }

struct cluster_shape_t { int x; int y; int z; };
/// The kernel runs in thread-block clusters of x * y * z CTAs (at most 8):
/// ts::launch launches it so, and its barriers are initialised and synced
/// cluster-wide.
constexpr cluster_shape_t cluster_shape(int x, int y = 1, int z = 1) { return {x, y, z}; }

/// The GPU a kernel is written for (default sm_90a): it selects the target
/// constants and which resources and instructions are legal.
enum class target_arch : int {
  sm_90a = 90,   ///< Hopper (H100, H200).
  sm_100a = 100, ///< Blackwell (B200): tensor memory, tcgen05, CLC.
};
inline constexpr target_arch sm_90a = target_arch::sm_90a;
inline constexpr target_arch sm_100a = target_arch::sm_100a;
struct target_t { target_arch arch; };
/// The kernel's target: ts::target(ts::sm_100a).
constexpr target_t target(target_arch arch) { return {arch}; }

struct tmem_t { int columns; };
/// The resource lives in tensor memory (sm_100a): `columns` 32-bit columns
/// of all 128 lanes, allocated by the plan (ts/tcgen05.h).
constexpr tmem_t tmem(int columns) { return {columns}; }

struct tmem_capacity_t { int columns; };
/// Tensor-memory columns this kernel may allocate (default: all 512); less
/// leaves room for another CTA on the SM.
constexpr tmem_capacity_t tmem_capacity(int columns) { return {columns}; }

template <class Upstream, class Downstream> struct edge_t { int unused; };
/// A dependency the kernel expects: Upstream is consumed before Downstream
/// is produced by some task.
template <class Upstream, class Downstream>
inline constexpr edge_t<Upstream, Downstream> edge{0};

struct trip_bound_t { long long count; };
/// Opt this kernel out of the every-trip-count proof: runtime trip counts
/// are verified from 0 up to `count` only (a ts-bound warning says so).
constexpr trip_bound_t trip_bound(long long count) { return {count}; }

template <class... Phases> struct alias_t { int unused; };
/// The resources share shared-memory bytes, one after another in time: the
/// layout gives them one base and the verifier proves that every use of a
/// phase happens before the first use of the next (no race).
template <class... Phases>
inline constexpr alias_t<Phases...> alias{0};

template <class... Resources> struct grid_dependent_t { int unused; };
/// The previous grid in the stream writes these resources' data (programmatic
/// dependent launch): every task that produces them, or reads them from
/// global memory, calls ts::pdl_wait() first.
template <class... Resources>
inline constexpr grid_dependent_t<Resources...> grid_dependent{0};

struct pdl_waited_t { int unused; };
/// The kernel needs no ts::pdl_wait() in its schedule: it has no predecessor
/// in the stream, or waits for it (griddepcontrol.wait) before the schedule.
inline constexpr pdl_waited_t pdl_waited{0};

} // namespace ts

#endif
