// ts::stream_k: a stream-K GEMM's partition and fix-up. The k-steps of all
// output tiles, tile after tile, are split into one contiguous range per CTA
// of a persistent grid, so every CTA does the same work whatever the number
// of tiles. A range cuts tiles into segments; a tile cut in several is
// summed across CTAs through a global workspace:
//
//   for (auto i : ts::domain(0, p.sk.segments())) {      // every task
//     const ts::segment sg = p.sk.at(int(i));
//     for (auto k : ts::domain(sg.k_begin, sg.k_end).nonempty()) ...
//     if (p.sk.settle(sg, acc))                          // the MMA task
//       store(acc, sg.tile);
//   }
//
// settle() is the whole protocol: the segment that starts a tile (its
// owner) waits for the CTAs that hold the rest of the tile and adds their
// partial sums; any other segment writes its partial sum and signals. Which
// CTA signals, which waits and for which tile all follow from the partition,
// so nothing is typed by the user. A CTA's later segment never comes before
// its earlier one, and an owner waits only for CTAs after it (their first
// segment), so the waits cannot close a cycle while every CTA is resident:
// the partition is made for the resident grid (plan) and the kernel traps
// on any other grid. The plugin checks how settle() is called
// (docs/verifier.md, "Stream-K fix-up").
#ifndef LIBTS_STREAM_K_H
#define LIBTS_STREAM_K_H

#include "ts/launch.h"
#include "ts/warpgroup.h"

#include <cstddef>

namespace ts {

/// One CTA's share of one tile: k-steps [k_begin, k_end) of tile `tile`.
struct segment {
  int tile, k_begin, k_end;
};

/// A stream-K partition for accumulators of Floats fp32 registers per
/// thread, held by warpgroups 0 .. Warpgroups - 1 of the block.
template <int Floats, int Warpgroups> class stream_k {
  static_assert(Floats > 0 && Floats % 4 == 0, "the partial sums move as float4");
  static_assert(Warpgroups > 0, "at least one warpgroup holds accumulators");

public:
  /// A partition for the resident grid of kernel K: `tiles` tiles of
  /// `iters` k-steps over as many CTAs as run at once (at most one per
  /// k-step), whole tiles where whole waves fill the grid (split_tail).
  /// Refuses empty or oversized problems.
  template <auto K> static cudaError_t plan(int tiles, int iters, stream_k &out) {
    if (tiles <= 0 || iters <= 0 || (long long)tiles * iters > 0x7fffffffLL)
      return cudaErrorInvalidValue;
    int ctas = 0;
    if (cudaError_t e = resident_ctas<K>(ctas); e != cudaSuccess)
      return e;
    return plan_for(tiles, iters, ctas, out);
  }

  /// The same for `resident` CTAs running at once (plan's arithmetic,
  /// without a device: test/lit/codegen/stream-k-partition.cu).
  static cudaError_t plan_for(int tiles, int iters, int resident, stream_k &out) {
    if (tiles <= 0 || iters <= 0 || (long long)tiles * iters > 0x7fffffffLL)
      return cudaErrorInvalidValue;
    if (resident <= 0)
      return cudaErrorInvalidConfiguration;
    out = stream_k();
    out.tiles_ = tiles;
    out.iters_ = iters;
    out.ctas_ = (long long)tiles * iters < resident ? tiles * iters : resident;
    split_tail(tiles, iters, out.ctas_, out.whole_, out.ways_);
    if (out.whole_ == tiles && tiles < out.ctas_)
      out.ctas_ = tiles; // no CTA without a tile
    return cudaSuccess;
  }

  /// The grid the kernel must be launched on.
  __host__ __device__ int ctas() const { return ctas_; }
  /// Bytes of workspace: a flag and a partial tile per CTA and warpgroup.
  size_t workspace_bytes() const { return flag_bytes() + size_t(slots()) * slot_bytes(); }
  /// The workspace, zero before the first launch (each launch leaves its
  /// flags zero again). Two launches running at once need one each.
  void attach(void *workspace) {
    flags_ = static_cast<int *>(workspace);
    partials_ = reinterpret_cast<float4 *>(static_cast<char *>(workspace) + flag_bytes());
  }

  /// Segments of this CTA; traps unless the grid is the plan's.
  __device__ __forceinline__ int segments() const {
    check_grid();
    return segments_of(int(blockIdx.x));
  }
  /// This CTA's segment i, 0 <= i < segments().
  __device__ __forceinline__ segment at(int i) const { return segment_of(int(blockIdx.x), i); }

  /// CTA c's segments: its whole tiles (c, c + ctas, ...), then those of its
  /// range of split k-steps, in k order.
  __host__ __device__ __forceinline__ int segments_of(int c) const {
    const int b = begin(c), e = begin(c + 1);
    return wholes(c) + (e > b ? (e - 1) / iters_ - b / iters_ + 1 : 0);
  }
  __host__ __device__ __forceinline__ segment segment_of(int c, int i) const {
    const int waves = wholes(c);
    if (i < waves)
      return segment{c + i * ctas_, 0, iters_};
    const int b = begin(c), e = begin(c + 1);
    segment s;
    s.tile = b / iters_ + (i - waves);
    const int t0 = s.tile * iters_;
    s.k_begin = b > t0 ? b - t0 : 0;
    s.k_end = e - t0 < iters_ ? e - t0 : iters_;
    return s;
  }
  /// The first CTA after c whose split range starts inside tile (it holds
  /// a later part of the tile and signals its partial sum), or -1.
  __host__ __device__ __forceinline__ int next_contributor(int tile, int c) const {
    for (++c; c < ctas_ && begin(c) < (tile + 1) * iters_; ++c)
      if (begin(c + 1) > begin(c))
        return c;
    return -1;
  }

  /// Called by every thread of each accumulating warpgroup once the
  /// segment's MMAs are complete. True when this warpgroup now holds the
  /// whole tile and stores it; false after handing its partial sum on.
  [[nodiscard]] __device__ __forceinline__ bool settle(const segment &s,
                                                       float (&acc)[Floats]) const {
    if (s.k_begin == 0 && s.k_end == iters_)
      return true;
    const int wg = int(warpgroup_index());
    if (wg >= Warpgroups)
      __trap();
    if (s.k_begin > 0) {
      publish(slot(int(blockIdx.x), wg), acc);
      return false;
    }
    // The owner: every later CTA whose range starts inside this tile.
    for (int c = next_contributor(s.tile, int(blockIdx.x)); c >= 0; c = next_contributor(s.tile, c))
      absorb(slot(c, wg), acc);
    return true;
  }

private:
  int tiles_ = 0, iters_ = 1, ctas_ = 0;
  int whole_ = 0; // tiles run whole, the first ones (all, or a multiple of ctas_)
  int ways_ = 0;  // the others: each cut in ways_ k-ranges (0: equal shares)
  int *flags_ = nullptr;
  float4 *partials_ = nullptr;

  static constexpr int kThreads = 128; // a warpgroup
  static constexpr double kBusy = 0.8;
  int slots() const { return ctas_ * Warpgroups; }
  size_t flag_bytes() const { return (size_t(slots()) * sizeof(int) + 255) / 256 * 256; }
  static constexpr size_t slot_bytes() { return size_t(Floats) * sizeof(float) * kThreads; }

  /// Tiles run whole: all of them while whole waves keep at least kBusy of
  /// the grid busy, else all but the last wave. The last wave's tiles, when
  /// they fit at least twice in the grid, are each cut into `ways` equal
  /// k-ranges on as many CTAs, which start together and so read A and B in
  /// step (L2 serves the other CTAs); otherwise their k-steps are shared
  /// out equally. Measured against other splits in docs/benchmarks.md
  /// (session 25).
  static void split_tail(int tiles, int iters, int ctas, int &whole, int &ways) {
    const int waves = (tiles + ctas - 1) / ctas;
    whole = tiles;
    ways = 0;
    if (double(tiles) >= kBusy * double(waves) * ctas)
      return;
    const int left = tiles - (waves - 1) * ctas;
    if (ctas / left >= 2) {
      whole = (waves - 1) * ctas;
      ways = ctas / left < iters ? ctas / left : iters;
      return;
    }
    whole = (waves - 1) * ctas;
  }

  /// First k-step of CTA c's split range (the end of all k-steps for
  /// c = ctas): the k-steps after the whole tiles in equal shares, or tile
  /// q's k-range j for c = q * ways + j.
  __host__ __device__ __forceinline__ int begin(int c) const {
    const int base = whole_ * iters_;
    if (ways_ == 0)
      return base + int((long long)(tiles_ - whole_) * iters_ * c / ctas_);
    const int q = c / ways_, j = c % ways_;
    if (q >= tiles_ - whole_)
      return tiles_ * iters_;
    return base + q * iters_ + j * iters_ / ways_;
  }
  /// Whole tiles of CTA c: c, c + ctas, ... below whole_.
  __host__ __device__ __forceinline__ int wholes(int c) const {
    return c < whole_ ? (whole_ - 1 - c) / ctas_ + 1 : 0;
  }
  __device__ __forceinline__ int slot(int c, int wg) const { return c * Warpgroups + wg; }

  __device__ __forceinline__ void check_grid() const {
#ifdef __CUDA_ARCH__
    if (ctas_ <= 0 || gridDim.x != unsigned(ctas_) || gridDim.y != 1u || gridDim.z != 1u)
      __trap();
#endif
  }

  // L2 only (.cg): another SM reads these; clang's CUDA headers have no
  // float4 __ldcg/__stcg.
  __device__ __forceinline__ static void store_cg(float4 *p, float x, float y, float z, float w) {
#ifdef __CUDA_ARCH__
    asm volatile("st.global.cg.v4.f32 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "l"(p), "f"(x), "f"(y), "f"(z), "f"(w)
                 : "memory");
#endif
  }
  __device__ __forceinline__ static float4 load_cg(const float4 *p) {
    float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
#ifdef __CUDA_ARCH__
    asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p)
                 : "memory");
#endif
    return v;
  }

  /// Writes the partial sum (thread-major float4s, coalesced), then one
  /// thread signals: the barrier orders the warpgroup's writes before the
  /// release (the fence is cumulative).
  __device__ __forceinline__ void publish(int slot, const float (&acc)[Floats]) const {
    const unsigned t = threadIdx.x % kThreads;
    float4 *dst = partials_ + size_t(slot) * (Floats / 4) * kThreads + t;
#pragma unroll
    for (int j = 0; j < Floats / 4; ++j)
      store_cg(dst + j * kThreads, acc[4 * j], acc[4 * j + 1], acc[4 * j + 2], acc[4 * j + 3]);
    sync_warpgroup();
#ifdef __CUDA_ARCH__
    if (t == 0)
      asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.gpu.global.s32 [%0], 1;\n"
                   :
                   : "l"(flags_ + slot)
                   : "memory");
#endif
  }

  /// Waits for a slot's signal, adds its partial sum and clears the flag
  /// (read once per launch: the next launch is ordered after this one).
  __device__ __forceinline__ void absorb(int slot, float (&acc)[Floats]) const {
    const unsigned t = threadIdx.x % kThreads;
#ifdef __CUDA_ARCH__
    if (t == 0) {
      int seen = 0;
      do
        asm volatile("ld.acquire.gpu.global.s32 %0, [%1];\n"
                     : "=r"(seen)
                     : "l"(flags_ + slot)
                     : "memory");
      while (seen == 0);
      flags_[slot] = 0;
    }
#endif
    sync_warpgroup();
    const float4 *src = partials_ + size_t(slot) * (Floats / 4) * kThreads + t;
#pragma unroll
    for (int j = 0; j < Floats / 4; ++j) {
      const float4 v = load_cg(src + j * kThreads);
      acc[4 * j] += v.x;
      acc[4 * j + 1] += v.y;
      acc[4 * j + 2] += v.z;
      acc[4 * j + 3] += v.w;
    }
  }
};

} // namespace ts

#endif
