// A task pinned to one CTA (ts::cta) may not hold a place in a turn ring:
// the generated body still hands the first turn round on every CTA, and on
// the others the pinned task's partner waits forever for its pass (found
// by an adversarial corpus, session 30; pipelines had the same rule).
// RUN: %ts_device -fsyntax-only %s -Xclang -verify
#include <ts/ts.h>
struct Params { ts::tma::map<float, 32, 32> src; float *dst; int tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::turns)]] Mma {};
struct [[ts::resource(ts::gmem)]] Out {};
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = a.acquire();
    ts::tma::load(s->v, &p.src, {0, int(t) * 32}, s.barrier());
    a.commit(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void mma0(const Params &p, ts::consumer<A> a, ts::turn<Mma, 0> turn) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = a.wait();
    turn.take();
    float x = s->v[0][threadIdx.x % 32];
    turn.pass();
    a.release(s);
    p.dst[int(t) * 32 + threadIdx.x % 32] = x;
  }
}
[[ts::task(ts::warps(8, 4), ts::cta(0))]]
__device__ void mma1(const Params &p, ts::turn<Mma, 1> turn, ts::producer<Out>) { // expected-error {{task 'mma1' is pinned to CTA 0 but takes part in the turn ring of 'Mma'}} expected-note {{its partner tasks run on every CTA and would wait forever elsewhere}}
  for (auto t : ts::domain(0, p.tiles)) {
    turn.take();
    p.dst[(1 << 20) + int(t) * 32 + threadIdx.x % 32] = 1.0f;
    turn.pass();
  }
}
[[ts::kernel(load, mma0, mma1, ts::cluster_shape(2))]] __global__ void k(const __grid_constant__ Params p);
