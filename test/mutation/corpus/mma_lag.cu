// Mutation corpus: the one-group MMA lag over two resources. A and B tiles
// stream through separate pipelines; the consumer waits for one stage of
// each, issues the MMAs, keeps that group in flight (wait_group<1>) and
// hands back the previous iteration's stages with release_oldest(); the last
// iteration waits for everything and hands back its own.
// The lag holds two stages of each streamed resource: one stage deadlocks.
// mutation: min-stages ATile=2 BTile=2
#include <ts/ts.h>

struct Params { CUtensorMap a; CUtensorMap b; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::swizzled)]] ATile { __nv_bfloat16 v[64 * 64]; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] BTile { __nv_bfloat16 v[64 * 64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<ATile> a, ts::producer<BTile> b) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto sa = a.acquire();
    ts::tma::load(sa->v, &p.a, {int(k) * 64, blockIdx.x * 64}, sa.barrier());
    a.commit(sa);
    auto sb = b.acquire();
    ts::tma::load(sb->v, &p.b, {int(k) * 64, 0}, sb.barrier());
    b.commit(sb);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<ATile> a, ts::consumer<BTile> b, ts::producer<Out>) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto sa = a.wait();
    auto sb = b.wait();
    const __nv_bfloat16 *rows = sa->v; // a pointer into the stage
    ts::wgmma::fence();
    for (int kk = 0; kk < 4; ++kk)
      ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(ts::wgmma::make_desc_sw128(rows), kk * 32),
                          ts::wgmma::advance_k(ts::wgmma::make_desc_sw128(sb->v), kk * 32), true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>(); // the previous iteration's group is done
    if (!k.first()) {
      a.release_oldest();
      b.release_oldest();
    }
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      a.release(sa);
      b.release(sb);
    }
  }
  ts::wgmma::wait_group<0>();
  ts::wgmma::fence_operand(acc);
  for (int r = 0; r < 32; ++r)
    p.out[(blockIdx.x * 128 + threadIdx.x) * 32 + r] = acc[r];
}

[[ts::kernel(load, mma)]] __global__ void gemm_lag(const __grid_constant__ Params p);
