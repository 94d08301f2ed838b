// libts runtime internals: the pieces the generated kernel body calls
// (docs/generated-code.md, "Runtime pieces"). Users never call these.
#ifndef LIBTS_DETAIL_H
#define LIBTS_DETAIL_H

#include <cstdint>
#ifdef LIBTS_DEBUG_HANGS
#include <cstdio>
#endif

#include <cuda/ptx>

#include "ts/attributes.h"

namespace ts {
namespace detail {

/// `p` rounded up to N bytes. CUDA only guarantees 16 for dynamic shared
/// memory, so the launch size carries N bytes of slack for this.
template <unsigned N>
__device__ __forceinline__ unsigned char *align_base(unsigned char *p) {
  static_assert((N & (N - 1)) == 0, "alignment must be a power of two");
  if constexpr (N <= 16) {
    return p;
  } else {
    const uintptr_t a = (reinterpret_cast<uintptr_t>(p) + (N - 1)) & ~uintptr_t(N - 1);
    return reinterpret_cast<unsigned char *>(a);
  }
}

/// threadIdx.x / 32, broadcast from lane 0 so the compiler knows it is
/// warp-uniform and the role branches stay non-divergent.
__device__ __forceinline__ unsigned warp_index() {
  return __shfl_sync(0xffffffffu, threadIdx.x / 32u, 0);
}

/// Rank of this CTA in its cluster (0 without clusters): tasks pinned with
/// ts::cta(rank) run only where it matches.
__device__ __forceinline__ unsigned cta_rank() {
  return cuda::ptx::get_sreg_cluster_ctarank();
}

/// Lane within the warp; generated blocks are one-dimensional.
__device__ __forceinline__ unsigned lane_index() { return threadIdx.x & 31u; }

/// mbarrier.init of n consecutive barriers, each completing after `count`
/// arrivals. Called by one thread before the block-wide __syncthreads.
__device__ __forceinline__ void init_barriers(uint64_t *bar, unsigned n, unsigned count) {
  for (unsigned i = 0; i < n; ++i)
    cuda::ptx::mbarrier_init(bar + i, count);
}

/// Makes the barrier inits visible to the other threads and to the async
/// proxy (TMA completes transactions on them).
__device__ __forceinline__ void fence_barrier_init() {
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
  cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
}

// setmaxnreg exists only on arch-specific targets (sm_90a, sm_100a, ...);
// CCCL has no wrapper, so this is the one inline asm of the runtime. Code
// that is not inlined (clang -O0: __NO_INLINE__; nvcc -G) calls functions
// with a stack, where ptxas ignores setmaxnreg (-G) or crashes on it (CUDA
// 13.0, clang -O0 PTX of examples/gemm_sm90.cu): a debug build keeps the
// launch's registers. nvcc defines __NO_INLINE__ after its host compiler's
// -O0 while its device code is still optimized, so it only counts for clang.
#if defined(__NVCC__) ? defined(__CUDACC_DEBUG__) : defined(__NO_INLINE__)
#define LIBTS_DEBUG_DEVICE_CODE 1
#else
#define LIBTS_DEBUG_DEVICE_CODE 0
#endif
#if defined(__CUDA_ARCH__) && !LIBTS_DEBUG_DEVICE_CODE &&                               \
    (defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL) ||      \
     defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define LIBTS_HAS_SETMAXNREG 1
#else
#define LIBTS_HAS_SETMAXNREG 0
#endif

template <unsigned N>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: 24..256, multiple of 8");
#if LIBTS_HAS_SETMAXNREG
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" : : "n"(N));
#endif
}

template <unsigned N>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(N >= 24 && N <= 256 && N % 8 == 0, "setmaxnreg: 24..256, multiple of 8");
#if LIBTS_HAS_SETMAXNREG
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" : : "n"(N));
#endif
}

/// One pipelined resource, constant per CTA. Generated code builds it as a
/// const local with constant fields, so after inlining every use folds.
struct pipe {
  unsigned char *data;  ///< first stage
  unsigned stride;      ///< bytes between stages
  unsigned stages;
  uint64_t *full;       ///< `stages` full barriers
  uint64_t *empty;      ///< `stages` empty barriers
  unsigned tx_bytes;    ///< TMA transaction bytes per stage
  pipeline_kind kind;
  /// CTAs of the cluster each release reaches (ranks 0..peers-1): above 1
  /// for a ts::multicast resource, whose stages every CTA's loads fill.
  unsigned peers = 1;
  /// CTAs a stage's multicast loads write (bit i: rank i).
  unsigned mcast_mask = 1;
  /// A ts::umma_async pipeline: its first stage's tensor-memory address
  /// and the columns between stages.
  unsigned tmem = 0;
  unsigned tmem_stride = 0;
  /// A ts::cta_pair resource: its stages span the two CTAs of the pair
  /// (peers 2), not a multicast cluster.
  bool pair = false;
};

/// A task's position in a pipe: stage index and the parity to wait for.
struct cursor {
  unsigned index;
  unsigned phase;
};

/// Next stage; the parity flips when the index wraps.
__device__ __forceinline__ void advance(const pipe &p, cursor &c) {
  if (++c.index == p.stages) {
    c.index = 0;
    c.phase ^= 1u;
  }
}

/// Blocks until the phase with parity `phase` of `bar` has completed.
__device__ __forceinline__ void wait_parity(uint64_t *bar, unsigned phase) {
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, phase)) {
  }
}

/// One non-blocking test of the same condition.
__device__ __forceinline__ bool test_parity(uint64_t *bar, unsigned phase) {
  return cuda::ptx::mbarrier_test_wait_parity(bar, phase);
}

/// Every thread of every CTA of the cluster arrives, then waits for all
/// (release / acquire): barrier inits before are visible cluster-wide after.
__device__ __forceinline__ void cluster_sync() {
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  cuda::ptx::barrier_cluster_wait(cuda::ptx::sem_acquire);
}

/// A kernel generated for clusters of N CTAs stops at once when launched
/// otherwise (e.g. with <<<>>>): its multicasts would write CTAs that do
/// not exist. ts::launch sets the cluster shape.
template <unsigned N>
__device__ __forceinline__ void expect_cluster_ctas() {
  if (cuda::ptx::get_sreg_cluster_nctarank() != N)
    __trap();
}

/// The shared::cluster address of `local` (this CTA's shared memory) in the
/// CTA of rank `cta`. Inline asm: CCCL's cluster-space mbarrier_arrive takes
/// a generic pointer and converts it to a shared::cta address, while a
/// peer's barrier needs this mapa'd shared::cluster address.
__device__ __forceinline__ uint32_t map_rank(const void *local, unsigned cta) {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(local));
  uint32_t r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(r) : "r"(a), "r"(cta));
  return r;
}

// mbarrier.arrive.relaxed needs PTX ISA 8.6, which nvcc emits from CUDA 12.8
// on; clang 19 writes PTX 8.5 at most, so there a relaxed hand-back takes the
// release form (one fence more, never less ordering). Without this, code
// that keeps both forms (-O0, nvcc -G) fails in ptxas.
#if defined(__NVCC__) && defined(__CUDACC_VER_MAJOR__) &&                              \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
#define LIBTS_HAS_RELAXED_ARRIVE 1
#else
#define LIBTS_HAS_RELAXED_ARRIVE 0
#endif

/// Arrival on the barrier at `local_bar`'s offset in CTA `cta`. Release
/// (cluster scope): orders this thread's prior accesses for whoever waits
/// there, at the cost of a cluster-scope fence (MEMBAR in SASS) per call.
/// Relaxed: no fence; only for a buffer this thread read through the async
/// proxy and saw those reads complete (wgmma.wait_group).
template <bool Relaxed>
__device__ __forceinline__ void arrive_on_rank(uint64_t *local_bar, unsigned cta) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t remote = map_rank(local_bar, cta);
  if constexpr (Relaxed && LIBTS_HAS_RELAXED_ARRIVE)
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];\n"
                 :
                 : "r"(remote)
                 : "memory");
  else
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n"
                 :
                 : "r"(remote)
                 : "memory");
#else
  (void)local_bar;
  (void)cta;
#endif
}
/// Arms `bytes` on the barrier at `local_bar`'s offset in CTA `cta` with
/// one arrival (release, cluster scope): a ts::clc_async queue's rank 0
/// arms each CTA's stage for the multicast response.
__device__ __forceinline__ void arrive_expect_tx_on_rank(uint64_t *local_bar, unsigned cta,
                                                         unsigned bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uint32_t remote = map_rank(local_bar, cta);
  asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;\n"
               :
               : "r"(remote), "r"(bytes)
               : "memory");
#else
  (void)local_bar;
  (void)cta;
  (void)bytes;
#endif
}
__device__ __forceinline__ void arrive_remote(uint64_t *local_bar, unsigned cta) {
  arrive_on_rank<false>(local_bar, cta);
}
__device__ __forceinline__ void arrive_remote_relaxed(uint64_t *local_bar, unsigned cta) {
  arrive_on_rank<true>(local_bar, cta);
}

/// Plain arrival (release.cta): orders this thread's prior accesses.
__device__ __forceinline__ void arrive(uint64_t *bar) { (void)cuda::ptx::mbarrier_arrive(bar); }

/// Waits until this thread's bulk async groups (TMA stores) no longer read
/// shared memory; immediate for a thread that issued none.
__device__ __forceinline__ void wait_bulk_reads() {
  cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<0>{});
}

/// Arrival that also expects `bytes` of TMA transactions in this phase.
__device__ __forceinline__ void arrive_expect_tx(uint64_t *bar, unsigned bytes) {
  (void)cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                             cuda::ptx::space_shared, bar, bytes);
}

/// Arrival (release.cta) by lane 0 of the calling warp: one predicated
/// instruction, no branch (a branch between two wgmma.wait_group ends a basic
/// block, and ptxas then waits for every MMA group before the next
/// accumulator access: examples/attention_sm90.cu, docs/benchmarks.md). The
/// lane is read inside the asm: with it computed outside, ptxas sank the
/// arrival below the attention softmax that follows the release, holding
/// the stage a softmax longer (SASS, CUDA 13.0; test/lit/codegen/
/// attention-sass.cu checks where it stands).
__device__ __forceinline__ void arrive_lane0(uint64_t *bar) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(bar));
  asm volatile("{\n"
               ".reg .pred first;\n"
               ".reg .u32 lane;\n"
               "mov.u32 lane, %%laneid;\n"
               "setp.eq.u32 first, lane, 0;\n"
               "@first mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];\n"
               "}\n"
               :
               : "r"(addr)
               : "memory");
}

/// Hands a stage back on this CTA's barrier: one arrival per thread, or
/// per warp when `relaxed` (the warp's reads were asynchronous MMAs that a
/// warp-aligned wgmma.wait_group saw complete); for a stage the cluster's
/// loads fill, one per warp on every CTA's (lane i arrives on rank i), with
/// no fence when `relaxed`.
__device__ __forceinline__ void hand_back(const pipe &p, unsigned index, bool relaxed) {
  if (p.peers == 1) {
    if (relaxed)
      arrive_lane0(p.empty + index);
    else
      arrive(p.empty + index);
    return;
  }
  // Thread readers meet first, so lane i's release covers the warp's reads.
  if (!relaxed)
    __syncwarp();
  const unsigned lane = lane_index();
  if (lane < p.peers) {
    if (relaxed)
      arrive_remote_relaxed(p.empty + index, lane);
    else
      arrive_remote(p.empty + index, lane);
  }
}

/// A TMA stage of a CTA pair (ts::cta_pair): both CTAs load their halves,
/// whose bytes complete on rank 0's full barrier.
__device__ __forceinline__ bool pair_stage(const pipe &p) {
  return p.kind == pipeline_kind::tma_umma && p.pair;
}

/// A ts::clc_async queue in a cluster: rank 0's scheduler fills every
/// CTA's stage and every reader hands it back to rank 0, so the other
/// ranks' empty barriers stay unused.
__device__ __forceinline__ bool clc_follower(const pipe &p) {
  return p.kind == pipeline_kind::clc_async && p.peers > 1 &&
         cuda::ptx::get_sreg_cluster_ctarank() != 0;
}

/// Waits for every stage's empty barrier from the cursor on: a producer
/// never leaves while consumers still read stages it filled.
__device__ __forceinline__ void producer_drain(const pipe &p, cursor &c) {
  if (clc_follower(p))
    return;
  for (unsigned i = 0; i < p.stages; ++i) {
    wait_parity(p.empty + c.index, c.phase);
    advance(p, c);
  }
}

#ifdef LIBTS_DEBUG_HANGS
// The watchdog of -debug-hangs=<ms> (docs/guide.md): every generated wait
// gives up after LIBTS_DEBUG_HANGS milliseconds without progress, says
// which wait it was and traps. The rewrite passes each handle its site.

/// Where a generated wait stands: the kernel, the task and the resource.
struct hang_site {
  const char *kernel;
  const char *task;
  const char *resource;
};

__device__ __forceinline__ uint64_t global_ns() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ __noinline__ void report_hang(const hang_site *s, const char *which, unsigned stage,
                                         unsigned phase, unsigned nth) {
  if (lane_index() == 0)
    printf("libts -debug-hangs: kernel '%s', task '%s': wait %u of this task on the %s "
           "barrier of '%s' (stage %u, parity %u) made no progress in %u ms; CTA (%u, %u, "
           "%u), warp %u. Trapping.\n",
           s ? s->kernel : "?", s ? s->task : "?", nth, which, s ? s->resource : "?", stage,
           phase, unsigned(LIBTS_DEBUG_HANGS), blockIdx.x, blockIdx.y, blockIdx.z,
           threadIdx.x / 32u);
  __trap();
}

/// wait_parity with a deadline; `nth` counts this handle's waits from 1.
__device__ __forceinline__ void wait_parity_watched(uint64_t *bar, unsigned phase,
                                                    const hang_site *s, const char *which,
                                                    unsigned stage, unsigned nth) {
  const uint64_t start = global_ns();
  while (!cuda::ptx::mbarrier_try_wait_parity(bar, phase))
    if (global_ns() - start > uint64_t(LIBTS_DEBUG_HANGS) * 1000000u)
      report_hang(s, which, stage, phase, nth);
}

__device__ __forceinline__ void producer_drain(const pipe &p, cursor &c, const hang_site *s) {
  if (clc_follower(p))
    return;
  for (unsigned i = 0; i < p.stages; ++i) {
    wait_parity_watched(p.empty + c.index, c.phase, s, "empty (drain at exit)", c.index, i + 1);
    advance(p, c);
  }
}
#endif

/// What a consumer's release does, decided by the plan and written into the
/// generated call (docs/generated-code.md). A task that never stores from a
/// stage need not wait for store reads; one whose only reads are MMAs it
/// awaited before the release hands stages to other CTAs without a fence.
enum class release_mode : unsigned {
  after_store_reads,
  at_once,
  after_store_reads_unfenced,
  at_once_unfenced,
  /// An MMA task's release: lane 0's tcgen05.commit, arriving once the
  /// MMAs it issued have read the stage.
  by_commit,
};
__device__ __forceinline__ constexpr bool waits_store_reads(release_mode m) {
  return m == release_mode::after_store_reads || m == release_mode::after_store_reads_unfenced;
}
__device__ __forceinline__ constexpr bool unfenced(release_mode m) {
  return m == release_mode::after_store_reads_unfenced || m == release_mode::at_once_unfenced;
}

/// How a producer task fills a stage, decided by the plan and written into
/// the generated call: by TMA, its leader arming the stage's transaction
/// bytes or (another producer task armed them) only arriving; or, in a
/// ts::merge stage, by its threads, each arriving at the commit.
enum class fill_mode : unsigned { arms, arrives, threads };

/// The type of parameter I of a task, without reference or const: the
/// generated call builds each handle as the task declares it, so it never
/// names the resource (which may be private, shadowed or spelled by a macro).
template <unsigned I, class T, class... Rest> struct nth {
  using type = typename nth<I - 1, Rest...>::type;
};
template <class T, class... Rest> struct nth<0, T, Rest...> {
  using type = T;
};
template <class T> struct bare { using type = T; };
template <class T> struct bare<T &> : bare<T> {};
template <class T> struct bare<T &&> : bare<T> {};
template <class T> struct bare<const T> : bare<T> {};
template <class F, unsigned I> struct param;
template <class R, class... A, unsigned I> struct param<R (*)(A...), I> {
  using type = typename bare<typename nth<I, A...>::type>::type;
};
template <class F, unsigned I> using param_t = typename param<F, I>::type;

} // namespace detail
} // namespace ts

#endif
