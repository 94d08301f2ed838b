// Inner loop bounds are compared by value, not by text: a local is what
// initialises it, the tile variable is the tile whatever its name. The same
// text over values computed differently (a ceiling and a floor: on the H200
// that mismatch hangs) is an error; different names for the same values
// are verified; a local written after its declaration is not followed, so
// it matches nothing in another task.
// A bound that reads the tile is verified for every sequence of counts.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DUNIFORM %s -Xclang -verify=uniform -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=UNIFORM
// RUN: %ts_device -fsyntax-only -DFLOOR %s -Xclang -verify=floor
// RUN: %ts_device -fsyntax-only -DWRITTEN %s -Xclang -verify=written
// uniform-no-diagnostics
// ok-no-diagnostics
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int tiles; int K; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };

__device__ int k_tiles_of(const Params &p, int tile) { return (p.K + 31) / 32 + tile % 2; }

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  const int kt = (p.K + 31) / 32;
  for (auto t : ts::domain(0, p.tiles)) {
#if defined(UNIFORM)
    const int extra = 0;
#else
    const int extra = k_tiles_of(p, int(t)) - kt;
#endif
    for (auto k : ts::domain(0, kt + extra)) {
      auto s = a.acquire();
      ts::tma::load(s->v, &p.src, {int(k) * 32, int(t) * 32}, s.barrier());
      a.commit(s);
    }
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<A> a) {
#if defined(FLOOR)
  const int steps = p.K / 32;
#else
  const int steps = (p.K + 31) / 32;
#endif
#if defined(WRITTEN)
  int more = k_tiles_of(p, 0) - steps;
  more += 0; // written-note {{'more' may change here after its declaration, so a bound that reads it matches no other task's}}
#endif
  for (auto tile : ts::domain(0, p.tiles)) {
#if defined(WRITTEN)
    for (auto k : ts::domain(0, steps + more)) { // written-error {{the inner ts::domain loops of tasks 'load' and 'use' may run different trip counts}} written-note {{task 'use' loops over (0, steps + more, 1)}} written-note {{give both inner loops the same bounds}}
#elif defined(UNIFORM)
    const int extra = 0;
    for (auto k : ts::domain(0, steps + extra)) {
#else
    const int extra = k_tiles_of(p, int(tile)) - steps;
    for (auto k : ts::domain(0, steps + extra)) { // floor-error {{the inner ts::domain loops of tasks 'load' and 'use' may run different trip counts}} floor-note {{task 'use' loops over (0, steps + extra, 1)}} floor-note {{give both inner loops the same bounds}}
#endif
      auto s = a.wait();
      p.dst[int(k)] = s->v[0][0];
      a.release(s);
    }
  }
}
// floor-note@30 {{task 'load' loops over (0, kt + extra, 1)}}
// written-note@30 {{task 'load' loops over (0, kt + extra, 1)}}
[[ts::kernel(load, use)]] __global__ void k(const __grid_constant__ Params p);
// CHECK: protocol: inner loop 0 to 5 times, any count in each tile (bounded
// UNIFORM: protocol: inner loop 0 to 5 times (bounded
