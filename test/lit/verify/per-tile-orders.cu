// A k-loop bound that reads the tile: the search over sequences of counts
// decides deadlocks only. Ownership needs no more, because a stage of the
// k-loop's resource carried from one tile into the next is refused (ACROSS):
// each tile starts from nothing held. Orders between tasks (PDL launch
// order, aliased phases) are checked with one count in every tile: a
// ts-bound warning says so and the protocol line names them.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=inside -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=INSIDE
// RUN: not %ts_device -fsyntax-only -DACROSS %s 2>&1 | FileCheck %s --check-prefix=ACROSS
// RUN: %ts_device -fsyntax-only -DPDL %s -Xclang -plugin-arg-ts -Xclang -report 2>/dev/null | FileCheck %s --check-prefix=PDL
// RUN: %ts_device -fsyntax-only -DPDL %s -Xclang -verify=pdl
// inside-no-diagnostics
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int tiles; int K; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Out { float v[32]; };

__device__ int k_tiles_of(const Params &p, int tile) { return p.K / 32 + tile % 2; }

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
#if defined(PDL)
  ts::pdl_wait();
#endif
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, k_tiles_of(p, int(t))).nonempty()) { // pdl-warning {{the trip count of this inner ts::domain loop of 'load' depends on the tile: deadlocks are verified for every sequence of counts, but the PDL launch order only when every tile runs the same count}} pdl-note {{the search over sequences of counts runs the protocol alone}}
      auto s = a.acquire();
      ts::tma::load(s->v, &p.src, {int(k) * 32, int(t) * 32}, s.barrier());
      a.commit(s);
    }
  }
}

// The consumer keeps each stage until the next step; ACROSS declares the
// carried variable before the tile loop, so a stage may stay held into the
// next tile (its last one is released in the tail).
[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<A> a, ts::producer<Out> out) {
#if defined(ACROSS)
  ts::stage<A> prev;
#endif
  for (auto t : ts::domain(0, p.tiles)) {
#if !defined(ACROSS)
    ts::stage<A> prev;
#endif
    for (auto k : ts::domain(0, k_tiles_of(p, int(t))).nonempty()) {
      auto s = a.wait();
      p.dst[int(k)] = s->v[0][0];
      if (!k.first())
        a.release(prev);
      prev = s;
    }
#if !defined(ACROSS)
    a.release(prev);
#endif
    auto o = out.acquire();
    o->v[threadIdx.x % 32] = float(int(t));
    out.commit(o);
  }
#if defined(ACROSS)
  a.release(prev);
#endif
}

[[ts::task(ts::warps(2, 1))]]
__device__ void drain(const Params &p, ts::consumer<Out> out) {
#if defined(PDL)
  ts::pdl_wait();
#endif
  for (auto t : ts::domain(0, p.tiles)) {
    auto o = out.wait();
    p.dst[int(t)] = o->v[0];
    out.release(o);
  }
#if defined(PDL)
  ts::pdl_launch_dependents(); // after its own pdl_wait
#endif
}

[[ts::kernel(load, use, drain)]] __global__ void k(const __grid_constant__ Params p);
// INSIDE: protocol: inner loop 1 to {{[0-9]+}} times, any count in each tile (bounded
// ACROSS: per-tile-orders.cu:[[@LINE-35]]:{{[0-9]+}}: error: stage of 'A' waited for in the loop is not released in the same iteration [-Wts-bracketing]
// PDL: protocol: inner loop 1 to {{[0-9]+}} times, any count in each tile for deadlocks, the same in every tile for the PDL launch order (bounded
