// Mutation corpus: 2-CTA MMA (sm_100a, ts::cta_pair, a cluster of two).
// Each CTA's loader warp fills its half of an operand stage with TMA (the
// bytes of both halves land on rank 0's barrier); rank 0's MMA warp reads
// both CTAs' halves and commits each stage back and each tile's
// accumulator forward to both CTAs; each CTA's epilogue warpgroup reads
// its 128 rows of the accumulator and hands the stage back to rank 0.
// Persistent tile loop with the k-loop nested in it.
#include <ts/ts.h>

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a, b;
  float *out;
  int tiles, k_tiles;
};
struct [[ts::resource(ts::tma_umma, ts::stages(3), ts::swizzled, ts::cta_pair)]] Ops {
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[128 * 64];
};
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(128), ts::cta_pair)]] Acc {};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  const int rank = int(blockIdx.x % 2);
  for (auto t : ts::domain(blockIdx.x / 2, p.tiles, gridDim.x / 2))
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, (2 * int(t) + rank) * 128}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * 64, rank * 128}, s.barrier());
      ops.commit(s);
    }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(256, 256);
  for (auto t : ts::domain(blockIdx.x / 2, p.tiles, gridDim.x / 2)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ops.wait();
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
      for (int kk = 0; kk < 4; ++kk)
        ts::tcgen05::mma_bf16(a.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32), kIdesc, int(k) > 0 || kk > 0);
      ops.release(s);
    }
    acc.commit(a);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Acc> acc, ts::producer<Out>) {
  const unsigned lane_base = threadIdx.x / 32 % 4 * 32;
  for (auto t : ts::domain(blockIdx.x / 2, p.tiles, gridDim.x / 2)) {
    auto a = acc.wait();
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), lane_base, 0));
    ts::tcgen05::wait_ld();
    p.out[(size_t(t) * 256 + blockIdx.x % 2 * 128 + lane_base + threadIdx.x % 32) * 8] =
        __uint_as_float(r[0]);
    acc.release(a);
  }
}

[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void umma_pair(const __grid_constant__ Params p);
