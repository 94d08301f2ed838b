// A tiny setmaxnreg budget suits a TMA producer, not threads that copy or
// read stages (tilelang #359: the producer group gave away registers its
// SIMT copies needed). A warning by default; -Werror= makes it an error.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Werror=ts-register-pressure -Xclang -verify=promote %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tile { float v[32][32]; };

[[ts::task(ts::warps(4, 4), ts::regs(40))]]
__device__ void copy_in(const Params &p, ts::producer<Buf> b) { // expected-note {{raise ts::regs to 64 or more, or produce the stage with TMA}} promote-note {{raise ts::regs}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = p.dst[int(i)]; // expected-warning {{task 'copy_in' writes stages of 'Buf' with threads on a budget of 40 registers [-Wts-register-pressure]}}
    // promote-error@-1 {{task 'copy_in' writes stages of 'Buf' with threads on a budget of 40 registers [-Werror=ts-register-pressure]}}
    b.commit(s);
  }
}
[[ts::task(ts::warps(0, 4), ts::regs(232))]]
__device__ void use(const Params &p, ts::consumer<Buf> b, ts::consumer<Tile> t) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    auto u = t.wait();
    p.dst[int(i)] = s->v[0] + u->v[0][0];
    t.release(u);
    b.release(s);
  }
}
// A TMA producer on the smallest budget is the intended use: no warning.
[[ts::task(ts::warps(8, 4), ts::regs(24))]]
__device__ void tma_in(const Params &p, ts::producer<Tile> t) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::kernel(copy_in, use, tma_in)]] __global__ void k(const __grid_constant__ Params p);
