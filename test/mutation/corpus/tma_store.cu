// Mutation corpus: TMA in both directions. One warp loads tiles, one warp
// stores each stage straight back with a TMA store; release() waits until
// the store has read the stage.
#include <ts/ts.h>

struct Params { CUtensorMap src; CUtensorMap dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tile { float v[32][64]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(1, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tile) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tile.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tile.commit(s);
  }
}

[[ts::task(ts::warps(0, 1))]]
__device__ void store(const Params &p, ts::consumer<Tile> tile, ts::producer<Dst>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tile.wait();
    if (threadIdx.x == 0)
      ts::tma::store(&p.dst, {0, int(i) * 32}, s->v);
    tile.release(s);
  }
}

[[ts::kernel(load, store)]] __global__ void tma_copy2(const __grid_constant__ Params p);
