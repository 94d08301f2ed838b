// Inner trip counts belong to the pair of tasks that exchange stages: a
// constant k-loop of one pair, or a nonempty() one, says nothing of another
// pair's runtime k-loop, which is checked from 0 on its own.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify
// RUN: %ts_device -fsyntax-only -DOTHER_NONEMPTY %s -Xclang -verify=expected,other
// RUN: %ts_device -fsyntax-only -DNONEMPTY %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// ok-no-diagnostics
#include <ts/ts.h>
#if defined(OTHER_NONEMPTY)
#define PAIR1_LOOP ts::domain(0, p.k_first).nonempty()
#else
#define PAIR1_LOOP ts::domain(0, 4)
#endif
#if defined(NONEMPTY)
#define PAIR2_LOOP ts::domain(0, p.k_tiles).nonempty()
#else
#define PAIR2_LOOP ts::domain(0, p.k_tiles)
#endif
struct Params { CUtensorMap src; float *dst; int tiles; int k_first; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] B { float v[32]; };
// Pair 1: a constant k-loop of 4 (or a nonempty() runtime one).
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : PAIR1_LOOP) { // other-note 2 {{and this one running 1 time}}
      auto s = a.acquire();
      ts::tma::load(s->v, &p.src, {int(k) * 32, int(t) * 32}, s.barrier());
      a.commit(s);
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<A> a) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : PAIR1_LOOP) {
      auto s = a.wait();
      p.dst[int(k)] = s->v[0][0];
      a.release(s);
    }
  }
}
// Pair 2: a runtime k-loop; the consumer hands its last stage back after it.
[[ts::task(ts::warps(2, 1))]]
__device__ void make(const Params &p, ts::producer<B> b) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : PAIR2_LOOP) {
      auto s = b.acquire();
      s->v[threadIdx.x % 32] = float(k);
      b.commit(s);
    }
  }
}
[[ts::task(ts::warps(3, 1))]]
__device__ void take(const Params &p, ts::consumer<B> b) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : PAIR2_LOOP) { // expected-note 2 {{found with this inner ts::domain loop running 0 times in each iteration of the loop around it}}
      auto s = b.wait();
      p.dst[int(k)] += s->v[0];
      if (!k.last())
        b.release(s);
    }
    b.release_oldest(); // expected-error {{release of 'B' without an open wait}} expected-note {{wait a stage before the release}} expected-error {{release_oldest of 'B' runs while the task holds no stage of it}} expected-note {{wait for a stage before handing the oldest back}}
  }
}
[[ts::kernel(load, use, make, take)]] __global__ void k(const __grid_constant__ Params p);
// CHECK: protocol: inner loops 4 times (constant), 1 to 7 times (each pair its own count) (bounded: docs/verifier.md, "Nested domains"); outer loop, at each: every trip count
