// ts::tiles: a tile loop whose tiles come from a scheduler at run time (a
// dynamic persistent kernel: the next tile from an atomic counter).
//
//   struct [[ts::resource(ts::async_async, ts::stages(2))]] Next { int tile; };
//
//   // the scheduling task (one warp): lane 0 calls fetch for each tile
//   for (int u : ts::tiles(next, [&] { return my_next_tile(p); })) ...
//   // every other task of the CTA
//   for (int u : ts::tiles(next)) ...
//
// Each iteration of the scheduling task takes a stage of the queue, writes
// the tile fetch returned (or -1 once it returns a negative value) and
// publishes it; each other task waits for that stage, reads the tile and
// hands it back. The loop ends on the first negative tile, which every task
// reads, so all run the same tiles in the same order. The plugin sees the
// queue's stage operations in these loops (docs/verifier.md, "Dynamic tile
// loops") and checks the kernel for every number of tiles.
#ifndef LIBTS_TILES_H
#define LIBTS_TILES_H

#include "ts/pipeline.h"

namespace ts {
namespace detail {

template <class T> struct is_int {
  static constexpr bool value = false;
};
template <> struct is_int<int> {
  static constexpr bool value = true;
};

template <class Q> constexpr bool is_tile_queue() {
  return is_int<decltype(Q::tile)>::value;
}

/// The consumer's step: the next tile from the queue (negative: the end).
template <class Q> __device__ __forceinline__ int pull_tile(consumer<Q> &q) {
  const stage<Q> s = q.wait();
  const int tile = s->tile;
  q.release(s);
  return tile;
}

/// The scheduler's step: lane 0 fetches the next tile, every lane learns
/// it (the task is one warp), lane 0 writes it into a stage of the queue.
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

} // namespace detail

/// The range of `for (int u : ts::tiles(q))`: tiles from the queue until
/// the scheduler's end.
template <class Q> class tiles_from {
public:
  static_assert(detail::is_tile_queue<Q>(), "a tile queue's payload has a member 'int tile'");
  __device__ __forceinline__ explicit tiles_from(consumer<Q> &q) : q_(q) {}
  struct sentinel {};
  class iterator {
  public:
    __device__ __forceinline__ iterator(consumer<Q> &q, int tile) : q_(q), tile_(tile) {}
    __device__ __forceinline__ int operator*() const { return tile_; }
    __device__ __forceinline__ iterator &operator++() {
      tile_ = detail::pull_tile(q_);
      return *this;
    }
    __device__ __forceinline__ bool operator!=(sentinel) const { return tile_ >= 0; }

  private:
    consumer<Q> &q_;
    int tile_;
  };
  __device__ __forceinline__ iterator begin() { return iterator(q_, detail::pull_tile(q_)); }
  __device__ __forceinline__ sentinel end() const { return {}; }

private:
  consumer<Q> &q_;
};

/// The range of `for (int u : ts::tiles(q, fetch))` in the scheduling task.
template <class Q, class Fetch> class tiles_fetched {
public:
  static_assert(detail::is_tile_queue<Q>(), "a tile queue's payload has a member 'int tile'");
  __device__ __forceinline__ tiles_fetched(producer<Q> &q, Fetch fetch) : q_(q), fetch_(fetch) {}
  struct sentinel {};
  class iterator {
  public:
    __device__ __forceinline__ iterator(tiles_fetched &r, int tile) : r_(r), tile_(tile) {}
    __device__ __forceinline__ int operator*() const { return tile_; }
    __device__ __forceinline__ iterator &operator++() {
      tile_ = detail::push_tile(r_.q_, r_.fetch_);
      return *this;
    }
    __device__ __forceinline__ bool operator!=(sentinel) const { return tile_ >= 0; }

  private:
    tiles_fetched &r_;
    int tile_;
  };
  __device__ __forceinline__ iterator begin() {
    return iterator(*this, detail::push_tile(q_, fetch_));
  }
  __device__ __forceinline__ sentinel end() const { return {}; }

private:
  producer<Q> &q_;
  Fetch fetch_;
};

/// Tiles the scheduling task publishes, read by every other task.
template <class Q> __device__ __forceinline__ tiles_from<Q> tiles(consumer<Q> &q) {
  return tiles_from<Q>(q);
}
/// The scheduling task's loop: `fetch()` (lane 0 only) returns the next
/// tile, a negative value when there is none.
template <class Q, class Fetch>
__device__ __forceinline__ tiles_fetched<Q, Fetch> tiles(producer<Q> &q, Fetch fetch) {
  return tiles_fetched<Q, Fetch>(q, fetch);
}

} // namespace ts

#endif
