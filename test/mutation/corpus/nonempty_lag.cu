// Mutation corpus: a persistent kernel whose consumer keeps one stage across
// each k-step (it hands back the previous k-step's stage with
// release_oldest() under `if (!k.first())`) and hands back the tile's last
// stage after the k-loop. That release needs the k-loop to have run, so the
// consumer's k-loop is `ts::domain(0, p.k_tiles).nonempty()`: an empty
// range traps the kernel (docs/verifier.md, "Nested domains"). The loader's
// k-loop is a plain domain: one nonempty() loop over the same range traps
// the kernel for both. The lag holds two stages: one stage deadlocks.
// mutation: min-stages Tiles=2
#include <ts/ts.h>

struct Params { CUtensorMap a; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = tiles.acquire();
      ts::tma::load(s->v, &p.a, {int(k) * 32, int(t) * 32}, s.barrier());
      tiles.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void compute(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = tiles.wait();
#pragma unroll
      for (int c = 0; c < 8; ++c)
        acc += s->v[row][quarter * 8 + c];
      if (!k.first())
        tiles.release_oldest(); // the previous k-step's stage
    }
    tiles.release_oldest(); // the tile's last stage
    p.out[int(t) * 128 + threadIdx.x] = acc;
  }
}

[[ts::kernel(load, compute)]] __global__ void nonempty_lag(const __grid_constant__ Params p);
