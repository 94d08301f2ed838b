// A correct TMA pipeline verifies with no diagnostics at all.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// expected-no-diagnostics
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 4))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i) * 128 + threadIdx.x] = s->v[threadIdx.x / 32][threadIdx.x % 32];
    tiles.release(s);
  }
}

[[ts::kernel(load, store, ts::edge<Tiles, Out>)]] __global__ void copy(const __grid_constant__ Params p);
