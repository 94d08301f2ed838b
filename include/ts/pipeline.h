// Pipeline handles: what a task holds to produce or consume a resource.
// Generated code builds them (docs/generated-code.md); task bodies call
// acquire/commit and wait/release. The handle points at the pipe and the
// cursor of the generated kernel body, so the cursor the task advances is
// the one producer_drain sees afterwards; everything inlines to registers.
#ifndef LIBTS_PIPELINE_H
#define LIBTS_PIPELINE_H

#include "ts/clc.h"
#include "ts/detail.h"
#include "ts/tcgen05.h"

namespace ts {

/// A stage's full barrier as TMA loads see it: the thread that armed the
/// transaction bytes (lane 0 of the producer task's first warp) is the one
/// that issues the copies, so multi-warp producer tasks load each byte once.
class tma_barrier {
public:
  __device__ __forceinline__ tma_barrier(uint64_t *bar, bool issuer, unsigned mask = 1,
                                         bool pair = false)
      : bar_(bar), issuer_(issuer), mask_(mask), pair_(pair) {}
  __device__ __forceinline__ uint64_t *get() const { return bar_; }
  __device__ __forceinline__ bool issuer() const { return issuer_; }
  /// CTAs (bit i: rank i) whose same stage a multicast load fills: every
  /// CTA of the cluster for a ts::multicast resource, else 1.
  __device__ __forceinline__ unsigned mask() const { return mask_; }
  /// A CTA pair's stage (ts::cta_pair): the bytes land on rank 0's barrier.
  __device__ __forceinline__ bool pair() const { return pair_; }
  /// For hand-written PTX that takes the barrier's address.
  __device__ __forceinline__ operator uint64_t *() const { return bar_; }

private:
  uint64_t *bar_;
  bool issuer_;
  unsigned mask_;
  bool pair_;
};

/// One stage of a pipelined resource: the payload in shared memory, its
/// index and its full barrier (what a TMA load completes its bytes on).
template <class R>
class stage {
public:
  /// A stage variable that carries a stage into the next iteration
  /// (`ts::stage<R> prev; ... prev = s;`): it holds no stage until the
  /// first assignment, and the verifier rejects a hand-back before it.
  __device__ __forceinline__ stage()
      : payload_(nullptr), index_(0), full_(nullptr), issuer_(false), mask_(1), pair_(false),
        tmem_(0) {}
  __device__ __forceinline__ stage(R *payload, unsigned index, uint64_t *full, bool issuer,
                                   unsigned mask = 1, bool pair = false)
      : payload_(payload), index_(index), full_(full), issuer_(issuer), mask_(mask), pair_(pair),
        tmem_(0) {}
  /// The stage at cursor `c` of pipe `p`.
  __device__ __forceinline__ stage(const detail::pipe &p, const detail::cursor &c, bool issuer)
      : stage(reinterpret_cast<R *>(p.data + c.index * p.stride), c.index, p.full + c.index,
              issuer, p.mcast_mask, detail::pair_stage(p)) {
    tmem_ = p.tmem + c.index * p.tmem_stride;
  }

  __device__ __forceinline__ R *operator->() const { return payload_; }
  __device__ __forceinline__ R &operator*() const { return *payload_; }
  __device__ __forceinline__ R *get() const { return payload_; }
  __device__ __forceinline__ unsigned index() const { return index_; }
  __device__ __forceinline__ tma_barrier barrier() const {
    return tma_barrier(full_, issuer_, mask_, pair_);
  }
  /// A ts::umma_async stage: the tensor-memory address of its lane 0,
  /// first column (the MMAs' accumulator, what tcgen05.ld reads).
  __device__ __forceinline__ unsigned tmem() const { return tmem_; }

private:
  R *payload_;
  unsigned index_;
  uint64_t *full_;
  bool issuer_;
  unsigned mask_;
  bool pair_;
  unsigned tmem_;
};

/// Result of one non-blocking test (try_acquire / try_wait). Passing it to
/// acquire/wait skips the blocking wait when it already succeeded.
class token {
public:
  __device__ __forceinline__ explicit token(bool ready) : ready_(ready) {}
  __device__ __forceinline__ bool ready() const { return ready_; }
  __device__ __forceinline__ explicit operator bool() const { return ready_; }

private:
  bool ready_;
};

/// Fills stages of R. `gmem` resources get a default-constructed handle
/// that carries no pipeline (it only names the dependency).
template <class R>
class producer {
public:
  __device__ __forceinline__ producer()
      : pipe_(nullptr), cur_(nullptr), leader_(false), fill_(detail::fill_mode::arrives) {}
  /// `leader`: this warp is the task's first warp; its lane 0 issues the
  /// task's TMA loads and arms the transaction bytes of a tma_async stage.
  /// `fill` (the plan decides): every TMA producer task of the stage but
  /// the first only arrives, so the stage expects its bytes once; a thread
  /// filler of a ts::merge stage arrives with every thread at the commit.
  __device__ __forceinline__ producer(const detail::pipe &p, detail::cursor &c, bool leader,
                                      detail::fill_mode fill = detail::fill_mode::arms)
      : pipe_(&p), cur_(&c), leader_(leader), fill_(fill) {}
#ifdef LIBTS_DEBUG_HANGS
  __device__ __forceinline__ producer(const detail::pipe &p, detail::cursor &c, bool leader,
                                      detail::fill_mode fill, const detail::hang_site *site)
      : pipe_(&p), cur_(&c), leader_(leader), fill_(fill), site_(site) {}
#endif

  /// Waits until the next stage is empty and returns it.
  __device__ __forceinline__ stage<R> acquire() { return acquire(token(false)); }

  __device__ __forceinline__ stage<R> acquire(token t) {
    if (pipe_->kind == pipeline_kind::clc_async && pipe_->peers > 1)
      return acquire_clc_cluster();
    if (!t.ready())
      block(pipe_->empty + cur_->index, "empty");
    // No lane may run ahead of the leader's expect_tx into its TMA issue.
    __syncwarp();
    // Lane 0 of the leader arms the bytes TMA loads (or, for a CLC queue,
    // the try_cancel of ts/tiles.h) complete.
    const bool tma = fill_ != detail::fill_mode::threads &&
                     (pipe_->kind == pipeline_kind::tma_async ||
                      pipe_->kind == pipeline_kind::tma_umma ||
                      pipe_->kind == pipeline_kind::clc_async);
    const bool issuer = tma && leader_ && detail::lane_index() == 0;
    // The MMAs that refill a tensor-memory stage come after the consumer's
    // reads of it (the wait above).
    if (pipe_->kind == pipeline_kind::umma_async || pipe_->kind == pipeline_kind::umma_umma)
      tcgen05::fence_after_thread_sync();
    // A CTA pair's stage completes on rank 0's barrier alone: rank 0 arms
    // both halves' bytes, the other rank only loads.
    const bool arrives = issuer && (!detail::pair_stage(*pipe_) || detail::cta_rank() == 0);
    if (arrives && fill_ == detail::fill_mode::arms)
      detail::arrive_expect_tx(pipe_->full + cur_->index, pipe_->tx_bytes);
    else if (arrives)
      detail::arrive(pipe_->full + cur_->index);
    const stage<R> s = stage<R>(*pipe_, *cur_, issuer);
    detail::advance(*pipe_, *cur_);
    return s;
  }

  /// One non-blocking test whether the next stage is empty.
  __device__ __forceinline__ token try_acquire() const {
    return token(detail::test_parity(pipe_->empty + cur_->index, cur_->phase));
  }

  /// The parity the next stage's full barrier completes with, for a
  /// producer that also reads what it filled (a CLC scheduler).
  __device__ __forceinline__ unsigned next_full_parity() const { return cur_->phase ^ 1u; }
  /// CTAs of the cluster that share the stages (1: this CTA's alone).
  __device__ __forceinline__ unsigned cluster_peers() const { return pipe_->peers; }

  /// Publishes the stage. Threads arrive for async_async, and for
  /// async_umma after a proxy fence (the MMAs read through the async
  /// proxy); for tma_async the transaction bytes complete the phase, so
  /// there is nothing to do; for umma_async and umma_umma lane 0, which
  /// issued the MMAs (ts/tcgen05.h), commits them to the full barrier: it
  /// arrives once they are done. The stage names its slot, so a task may
  /// hold several (the verifier checks they are handed back oldest first).
  /// A thread filler of a ts::merge stage fences like async_umma's: its
  /// readers may be MMAs or TMA stores.
  __device__ __forceinline__ void commit(const stage<R> &s) {
    const bool threads = pipe_->kind == pipeline_kind::async_async ||
                         pipe_->kind == pipeline_kind::async_umma ||
                         fill_ == detail::fill_mode::threads;
    if (threads && pipe_->kind != pipeline_kind::async_async)
      cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    if (threads)
      detail::arrive(pipe_->full + s.index());
    // A CLC scheduler in a cluster read the response on lane 0 (ts/tiles.h)
    // and hands it back to rank 0 as the consumers do.
    else if (pipe_->kind == pipeline_kind::clc_async && pipe_->peers > 1 &&
             detail::lane_index() == 0)
      detail::arrive_remote(pipe_->empty + s.index(), 0);
    else if (pipe_->kind == pipeline_kind::umma_async ||
             pipe_->kind == pipeline_kind::umma_umma)
      tcgen05::commit(pipe_->full + s.index());
  }

private:
  /// A CLC queue in a cluster: rank 0's scheduler waits until every CTA's
  /// readers handed the stage back, then lane i arms CTA i's full barrier
  /// for the response the multicast try_cancel writes into every CTA (lane
  /// 0 issues it); the other ranks' schedulers only take the stage.
  __device__ __forceinline__ stage<R> acquire_clc_cluster() {
    const bool lead = cuda::ptx::get_sreg_cluster_ctarank() == 0;
    if (lead) {
      block(pipe_->empty + cur_->index, "empty");
      __syncwarp();
      if (leader_ && detail::lane_index() < pipe_->peers)
        detail::arrive_expect_tx_on_rank(pipe_->full + cur_->index, detail::lane_index(),
                                         pipe_->tx_bytes);
      __syncwarp();
    }
    const stage<R> s =
        stage<R>(*pipe_, *cur_, lead && leader_ && detail::lane_index() == 0);
    detail::advance(*pipe_, *cur_);
    return s;
  }

  /// The wait of acquire; with -debug-hangs, watched.
  __device__ __forceinline__ void block(uint64_t *bar, const char *which) {
#ifdef LIBTS_DEBUG_HANGS
    detail::wait_parity_watched(bar, cur_->phase, site_, which, cur_->index, ++waits_);
#else
    (void)which;
    detail::wait_parity(bar, cur_->phase);
#endif
  }

  const detail::pipe *pipe_;
  detail::cursor *cur_;
  bool leader_;
  detail::fill_mode fill_;
#ifdef LIBTS_DEBUG_HANGS
  const detail::hang_site *site_ = nullptr;
  unsigned waits_ = 0;
#endif
};

/// Reads stages of R, then hands them back to the producer.
template <class R>
class consumer {
public:
  __device__ __forceinline__ consumer()
      : pipe_(nullptr), cur_(nullptr), oldest_(0), mode_(detail::release_mode::after_store_reads) {}
  /// `mode`: what a release waits for and how it reaches other CTAs; the
  /// plan decides it from what the task does with a stage.
  __device__ __forceinline__ consumer(
      const detail::pipe &p, detail::cursor &c,
      detail::release_mode mode = detail::release_mode::after_store_reads)
      : pipe_(&p), cur_(&c), oldest_(c.index), mode_(mode) {}
#ifdef LIBTS_DEBUG_HANGS
  __device__ __forceinline__ consumer(const detail::pipe &p, detail::cursor &c,
                                      detail::release_mode mode, const detail::hang_site *site)
      : pipe_(&p), cur_(&c), oldest_(c.index), mode_(mode), site_(site) {}
#endif

  /// Waits until the next stage is full and returns it.
  __device__ __forceinline__ stage<R> wait() { return wait(token(false)); }

  __device__ __forceinline__ stage<R> wait(token t) {
    if (!t.ready()) {
#ifdef LIBTS_DEBUG_HANGS
      detail::wait_parity_watched(pipe_->full + cur_->index, cur_->phase, site_, "full",
                                  cur_->index, ++waits_);
#else
      detail::wait_parity(pipe_->full + cur_->index, cur_->phase);
#endif
    }
    // tcgen05 reads (MMAs of a stage, loads of an accumulator) come after
    // the wait.
    if (pipe_->kind == pipeline_kind::tma_umma || pipe_->kind == pipeline_kind::umma_async ||
        pipe_->kind == pipeline_kind::async_umma || pipe_->kind == pipeline_kind::umma_umma)
      tcgen05::fence_after_thread_sync();
    const stage<R> s = stage<R>(*pipe_, *cur_, false);
    detail::advance(*pipe_, *cur_);
    return s;
  }

  /// One non-blocking test whether the next stage is full.
  __device__ __forceinline__ token try_wait() const {
    return token(detail::test_parity(pipe_->full + cur_->index, cur_->phase));
  }
  /// CTAs of the cluster that share the stages (1: this CTA's alone).
  __device__ __forceinline__ unsigned cluster_peers() const { return pipe_->peers; }

  /// Every thread arrives on the stage's empty barrier (one lane per warp
  /// whose reads were awaited MMAs; every warp on every CTA's, for a
  /// multicast stage); the producer may refill it once all consumers have. A thread that stored from the stage with TMA first
  /// waits until those reads are done.
  __device__ __forceinline__ void release(const stage<R> &s) {
    hand_back(s.index());
    oldest_ = s.index() + 1 == pipe_->stages ? 0 : s.index() + 1;
  }

  /// Hands back the oldest stage this task holds: the stage of an earlier
  /// iteration that an asynchronous reader (a ts::wgmma MMA) kept, once a
  /// wait_group saw that read complete. The verifier checks the order, so
  /// the oldest is always the one after the last stage handed back.
  __device__ __forceinline__ void release_oldest() {
    hand_back(oldest_);
    oldest_ = oldest_ + 1 == pipe_->stages ? 0 : oldest_ + 1;
  }

private:
  /// A stage this task's MMAs read goes back by lane 0's commit of them
  /// (one arrival once they have read it; the plan passes by_commit to the
  /// MMA consumers of tma_umma, async_umma and umma_umma); a umma_async
  /// one after this thread's tensor-memory loads are done; a clc_async one
  /// after a proxy fence (the next try_cancel writes it); others as the
  /// mode says.
  __device__ __forceinline__ void hand_back(unsigned index) {
    // A multicast stage: every CTA whose loads fill it counts this commit.
    if (mode_ == detail::release_mode::by_commit && pipe_->peers > 1 && !pipe_->pair) {
      tcgen05::commit_multicast(pipe_->empty + index, uint16_t(pipe_->mcast_mask));
      return;
    }
    if (mode_ == detail::release_mode::by_commit) {
      tcgen05::commit(pipe_->empty + index);
      return;
    }
    if (pipe_->kind == pipeline_kind::umma_async) {
      tcgen05::wait_ld();
      tcgen05::fence_before_thread_sync();
      // A pair's accumulator: rank 0's MMA task refills both CTAs' halves.
      if (pipe_->pair) {
        detail::arrive_remote(pipe_->empty + index, 0);
        return;
      }
    }
    if (pipe_->kind == pipeline_kind::clc_async) {
      clc::detail::reads_done();
      if (pipe_->peers > 1) { // rank 0 refills every CTA's stage
        detail::arrive_remote(pipe_->empty + index, 0);
        return;
      }
    }
    if (detail::waits_store_reads(mode_))
      detail::wait_bulk_reads();
    detail::hand_back(*pipe_, index, detail::unfenced(mode_));
  }

  const detail::pipe *pipe_;
  detail::cursor *cur_;
  unsigned oldest_; ///< Slot of the oldest stage held (release order is verified).
  detail::release_mode mode_;
#ifdef LIBTS_DEBUG_HANGS
  const detail::hang_site *site_ = nullptr;
  unsigned waits_ = 0;
#endif
};

} // namespace ts

#endif
