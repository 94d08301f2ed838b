// PDL calls and ts::wgmma group calls order the schedule: inside a function
// the task calls (or one that function calls), the verifier could not see
// them, so they are errors at the call in the task body. Lambdas written in
// the body are part of it and reported where they stand.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap a; float *out; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 a[64 * 64];
};
struct [[ts::resource(ts::gmem)]] Out {};

__device__ void let_dependents_start() {
  ts::pdl_launch_dependents(); // expected-note {{call it in the task body, as a statement of its own, where the schedule shows when it runs}}
}
__device__ void drain_mmas() {
  ts::wgmma::wait_group<0>(); // expected-note {{call it in the task body, as a statement of its own, where the schedule shows when it runs}}
}
__device__ void finish(float *out) { // a helper of a helper
  drain_mmas();
  out[threadIdx.x] = 0.0f;
}
__device__ float plain(float x) { return 2.0f * x; } // no schedule call: fine

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = tiles.acquire();
    ts::tma::load(s->a, &p.a, {0, int(i) * 64}, s.barrier());
    tiles.commit(s);
  }
  let_dependents_start(); // expected-error {{'let_dependents_start' calls 'ts::pdl_launch_dependents', which the verifier cannot follow into a function}}
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles, ts::producer<Out>) {
  float acc[32];
  for (auto i : ts::domain(0, p.n)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence();
    ts::wgmma::mma_bf16(acc, d, d, int(i) > 0);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    tiles.release(s);
  }
  acc[0] = plain(acc[0]);
  finish(p.out); // expected-error {{'finish' calls 'ts::wgmma::wait_group', which the verifier cannot follow into a function}}
  p.out[threadIdx.x] = acc[0];
}
[[ts::kernel(load, mma, ts::pdl_waited)]] __global__ void k(const __grid_constant__ Params p);
