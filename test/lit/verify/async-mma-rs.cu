// The register-A MMA with a transposed B (ts::wgmma::mma_rs_bf16<true>,
// attention's P V: P from registers, V from an MN-major stage) reads its B
// stage asynchronously like every ts::wgmma MMA: the stage is held until a
// wait_group covers the MMA's group.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { ts::tma::map<__nv_bfloat16, 64, 64> v; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] V {
  __nv_bfloat16 v[64][64];
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<V> t) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.v, {0, int(k) * 64}, s.barrier());
    t.commit(s);
  }
}

// Waited for before the release: accepted.
[[ts::task(ts::warps(4, 4))]]
__device__ void pv(const Params &p, ts::consumer<V> vs) {
  float o[64] = {};
  uint32_t a[4] = {0x3f803f80u, 0x3f803f80u, 0x3f803f80u, 0x3f803f80u}; // P: ones in bf16
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = vs.wait();
    const uint64_t d = ts::wgmma::make_desc_mn_sw128(s->v, 64 * 64 * 2);
    ts::wgmma::fence();
    ts::wgmma::mma_rs_bf16<true>(o, a[0], a[1], a[2], a[3], d, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    vs.release(s);
  }
  ts::wgmma::fence_operand(o);
  p.out[threadIdx.x % 128] = o[0];
}
[[ts::kernel(load, pv)]] __global__ void ok(const __grid_constant__ Params p);

// Released while the MMA may still read the stage.
[[ts::task(ts::warps(0, 1))]]
__device__ void load2(const Params &p, ts::producer<V> t) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.v, {0, int(k) * 64}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void pv_early(const Params &p, ts::consumer<V> vs) {
  float o[64] = {};
  uint32_t a[4] = {0x3f803f80u, 0x3f803f80u, 0x3f803f80u, 0x3f803f80u};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = vs.wait();
    const uint64_t d = ts::wgmma::make_desc_mn_sw128(s->v, 64 * 64 * 2);
    ts::wgmma::mma_rs_bf16<true>(o, a[0], a[1], a[2], a[3], d, true); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    vs.release(s); // expected-error {{release of 'V' hands back a stage that a wgmma may still be reading}} expected-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release}}
  }
  ts::wgmma::wait_group<0>();
  p.out[threadIdx.x % 128] = o[0];
}
[[ts::kernel(load2, pv_early)]] __global__ void early(const __grid_constant__ Params p);
