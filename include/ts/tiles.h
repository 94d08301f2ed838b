// ts::tiles: a tile loop whose tiles come from a scheduler at run time (a
// dynamic persistent kernel).
//
//   // a software queue: the scheduling task (one warp) fetches each tile
//   struct [[ts::resource(ts::async_async, ts::stages(2))]] Next { int tile; };
//   for (int u : ts::tiles(next, [&] { return my_next_tile(p); })) ...
//
//   // sm_100a: cluster launch control fetches (ts/clc.h); one CTA per tile
//   struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next : ts::clc::response {};
//   for (int u : ts::tiles(next)) ...   // the scheduling task's producer
//
//   // every other task of the CTA
//   for (int u : ts::tiles(next)) ...
//
// Software queue: each iteration of the scheduling task takes a stage of
// the queue, writes the tile fetch returned (or -1 once it returns a
// negative value) and publishes it; each other task waits for that stage,
// reads the tile and hands it back. CLC queue: every task starts with the
// CTA's own tile; after each tile the scheduler's lane 0 arms a stage and
// issues try_cancel into it, and every task decodes the response (the
// scheduler once it landed), so the next tile is a cancelled CTA's. The
// loop ends on the first negative tile, which every task reads, so all run
// the same tiles in the same order; a CLC scheduler never asks again after
// a failed request. The plugin sees the queue's stage operations in these
// loops (docs/verifier.md, "Dynamic tile loops") and checks the kernel for
// every number of tiles.
#ifndef LIBTS_TILES_H
#define LIBTS_TILES_H

#include "ts/clc.h"
#include "ts/pipeline.h"

namespace ts {
namespace detail {

template <class T> struct is_int {
  static constexpr bool value = false;
};
template <> struct is_int<int> {
  static constexpr bool value = true;
};

/// A ts::clc_async queue: its payload is the try_cancel response (the
/// plugin checks that exactly these queues are clc_async).
template <class Q> __host__ __device__ constexpr bool is_clc_queue() { return __is_base_of(clc::response, Q); }

template <class Q> __host__ __device__ constexpr bool is_tile_queue() {
  if constexpr (is_clc_queue<Q>())
    return true;
  else
    return is_int<decltype(Q::tile)>::value;
}

/// The consumer's step: the next tile from the queue (negative: the end).
template <class Q> __device__ __forceinline__ int pull_tile(consumer<Q> &q) {
  const stage<Q> s = q.wait();
  int tile;
  if constexpr (is_clc_queue<Q>())
    tile = clc::detail::decode(*s, q.cluster_peers() > 1);
  else
    tile = s->tile;
  q.release(s); // a CLC stage: after a proxy fence (pipeline.h)
  return tile;
}

/// The software scheduler's step: lane 0 fetches the next tile, every lane
/// learns it (the task is one warp), lane 0 writes it into a stage.
template <class Q, class Fetch>
__device__ __forceinline__ int push_tile(producer<Q> &q, Fetch &fetch) {
  int tile = 0;
  const stage<Q> s = q.acquire();
  if (lane_index() == 0) {
    tile = fetch();
    tile = tile < 0 ? -1 : tile;
    s->tile = tile;
  }
  tile = __shfl_sync(0xffffffffu, tile, 0);
  q.commit(s);
  return tile;
}

/// The CLC scheduler's step in a cluster: rank 0's acquire armed every
/// CTA's stage and its lane 0 asks for a cluster to cancel; on every rank
/// lane 0 waits for the response with the stage's parity (another CTA's
/// request may have landed already, so no probe), reads it and hands the
/// stage back to rank 0 at the commit.
template <class Q> __device__ __forceinline__ int cancel_cluster_tile(producer<Q> &q) {
  int tile = -1;
  const unsigned parity = q.next_full_parity();
  const stage<Q> s = q.acquire();
  if (s.barrier().issuer())
    clc::detail::try_cancel_cluster(s.get(), s.barrier().get());
  if (lane_index() == 0) {
    wait_parity(s.barrier().get(), parity);
    tile = clc::detail::decode(*s, true);
    clc::detail::reads_done();
  }
  tile = __shfl_sync(0xffffffffu, tile, 0);
  q.commit(s);
  return tile;
}

/// The CLC scheduler's step: acquire armed the stage's 16 bytes on lane 0,
/// which asks for a CTA to cancel and reads the response once it landed.
/// The phase it waits for is the one in flight, read before try_cancel can
/// complete it.
template <class Q> __device__ __forceinline__ int cancel_tile(producer<Q> &q) {
  int tile = -1;
  if (q.cluster_peers() > 1)
    return cancel_cluster_tile(q);
  const stage<Q> s = q.acquire();
  if (s.barrier().issuer()) {
    uint64_t *const bar = s.barrier().get();
    const unsigned parity = test_parity(bar, 0) ? 1u : 0u;
    clc::detail::try_cancel(s.get(), bar);
    wait_parity(bar, parity);
    tile = clc::detail::decode(*s);
    clc::detail::reads_done();
  }
  tile = __shfl_sync(0xffffffffu, tile, 0);
  q.commit(s);
  return tile;
}

} // namespace detail

/// The range of a ts::tiles loop: what `first(next)` returns, then what
/// `next()` returns, until a negative tile. Both run in the loop (begin
/// and ++), so the range itself holds only the queue handle.
template <class First, class Next> class tile_range {
public:
  __device__ __forceinline__ tile_range(First first, Next next) : first_(first), next_(next) {}
  struct sentinel {};
  class iterator {
  public:
    __device__ __forceinline__ iterator(Next &next, int tile) : next_(next), tile_(tile) {}
    __device__ __forceinline__ int operator*() const { return tile_; }
    __device__ __forceinline__ iterator &operator++() {
      tile_ = next_();
      return *this;
    }
    __device__ __forceinline__ bool operator!=(sentinel) const { return tile_ >= 0; }

  private:
    Next &next_;
    int tile_;
  };
  __device__ __forceinline__ iterator begin() { return iterator(next_, first_(next_)); }
  __device__ __forceinline__ sentinel end() const { return {}; }

private:
  First first_;
  Next next_;
};

template <class First, class Next>
__device__ __forceinline__ tile_range<First, Next> make_tile_range(First first, Next next) {
  return tile_range<First, Next>(first, next);
}

/// Tiles the scheduling task publishes, read by every other task.
template <class Q> __device__ __forceinline__ auto tiles(consumer<Q> &q) {
  static_assert(detail::is_tile_queue<Q>(),
                "a tile queue's payload has a member 'int tile' or is a ts::clc::response");
  auto next = [&q] { return detail::pull_tile(q); };
  // A CLC queue's first tile is the CTA's own; a software queue's, the
  // scheduler's first.
  auto first = [](auto &pull) {
    if constexpr (detail::is_clc_queue<Q>())
      return clc::own_tile();
    else
      return pull();
  };
  return make_tile_range(first, next);
}

/// The software scheduler's loop: `fetch()` (lane 0 only) returns the next
/// tile, a negative value when there is none.
template <class Q, class Fetch>
__device__ __forceinline__ auto tiles(producer<Q> &q, Fetch fetch) {
  static_assert(!detail::is_clc_queue<Q>(), "ts::tiles of a ts::clc_async queue takes no fetch: "
                                            "cluster launch control fetches its tiles");
  if constexpr (detail::is_clc_queue<Q>()) {
    return tiles(q); // reported above
  } else {
    static_assert(detail::is_tile_queue<Q>(), "a tile queue's payload has a member 'int tile'");
    auto next = [&q, fetch]() mutable { return detail::push_tile(q, fetch); };
    return make_tile_range([](auto &push) { return push(); }, next);
  }
}

/// The CLC scheduler's loop (sm_100a): the CTA's own tile, then those of
/// the CTAs it cancels.
template <class Q> __device__ __forceinline__ auto tiles(producer<Q> &q) {
  static_assert(detail::is_clc_queue<Q>(),
                "ts::tiles(producer) without a fetch is the scheduler of a ts::clc_async queue "
                "(payload ts::clc::response); a ts::async_async queue's scheduler passes its fetch");
  auto first = [](auto &) { return clc::own_tile(); };
  if constexpr (detail::is_clc_queue<Q>())
    return make_tile_range(first, [&q] { return detail::cancel_tile(q); });
  else
    return make_tile_range(first, [] { return -1; }); // reported above
}

} // namespace ts

#endif
