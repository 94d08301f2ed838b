// Mutation corpus: a warpgroup MMA without lag. Every iteration waits for
// an A and a B tile (one stage holds both), issues four m64n64k16 MMAs on
// them through descriptors, closes the group and waits for it
// (wait_group<0>) before handing the stage back.
#include <ts/ts.h>

struct Params { CUtensorMap a; CUtensorMap b; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::swizzled)]] Tiles {
  __nv_bfloat16 a[64 * 64];
  __nv_bfloat16 b[64 * 64];
};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = t.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 64, blockIdx.x * 64}, s.barrier());
    ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());
    t.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t da = ts::wgmma::make_desc_sw128(s->a);
    const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
    ts::wgmma::fence();
    for (int kk = 0; kk < 4; ++kk)
      ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32), ts::wgmma::advance_k(db, kk * 32),
                          true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>(); // the stage's MMAs are done reading
    tiles.release(s);
  }
  ts::wgmma::fence_operand(acc);
  for (int r = 0; r < 32; ++r)
    p.out[(blockIdx.x * 128 + threadIdx.x) * 32 + r] = acc[r];
}

[[ts::kernel(load, mma)]] __global__ void gemm_sync(const __grid_constant__ Params p);
