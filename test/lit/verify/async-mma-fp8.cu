// ts::wgmma::mma_fp8 reads its stages asynchronously as every ts::wgmma MMA
// does: a release before a wait_group covers the MMA's group is an error,
// the usual lag verifies.
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
#include <ts/ts.h>

struct Params { ts::tma::map<uint8_t, 64, 128> a; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  uint8_t a[64 * 128]; // 64 rows of 128 e4m3 values: one 128-byte swizzle row each
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> t) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = t.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 128, 0}, s.barrier());
    t.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence();
    for (int kk = 0; kk < 4; ++kk)
      ts::wgmma::mma_fp8(acc, ts::wgmma::advance_k(d, kk * 32), d, true); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>(); // expected-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release}}
    tiles.release(s); // expected-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}}
  }
}
[[ts::kernel(load, mma)]] __global__ void fp8_early(const __grid_constant__ Params p);
