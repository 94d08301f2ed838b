// Mutation corpus: the one-group MMA lag of mma_lag.cu in one loop, the
// stage kept across the iteration in a carried stage variable: `prev`
// holds nothing before the loop; each iteration waits for a stage, issues
// its MMA, keeps that group in flight (wait_group<1>), hands back the
// previous iteration's stage with release(prev) under `if (!k.first())`
// and carries its own (`prev = s;`); the last iteration waits for
// everything and hands back its own.
// The lag holds two stages: one stage deadlocks.
// mutation: min-stages Tile=2
#include <ts/ts.h>

struct Params { CUtensorMap a; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile { __nv_bfloat16 v[64 * 64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.a, {int(k) * 64, blockIdx.x * 64}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles, ts::producer<Out>) {
  float acc[32] = {};
  ts::stage<Tile> prev; // the previous iteration's stage
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->v);
    ts::wgmma::fence();
    ts::wgmma::mma_bf16(acc, d, d, int(k) > 0);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>(); // the previous iteration's group is done
    if (!k.first())
      tiles.release(prev);
    prev = s;
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      tiles.release(s);
    }
  }
  ts::wgmma::fence_operand(acc);
  for (int r = 0; r < 32; ++r)
    p.out[(blockIdx.x * 128 + threadIdx.x) * 32 + r] = acc[r];
}

[[ts::kernel(load, mma)]] __global__ void carry_lag(const __grid_constant__ Params p);
