// Mutation corpus: one TMA-filled resource read by two consumer tasks (two
// math warp groups, each taking one half of every tile). Each consumer
// task waits for and releases every stage; the empty barrier counts the
// threads of both.
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tile { float v[64][32]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(8, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tile) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tile.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 64}, s.barrier());
    tile.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void math_lo(const Params &p, ts::consumer<Tile> tile, ts::producer<Dst>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tile.wait();
    const float x = s->v[threadIdx.x / 32][threadIdx.x % 32];
    tile.release(s);
    p.dst[int(i) * 2048 + threadIdx.x] = x * x;
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void math_hi(const Params &p, ts::consumer<Tile> tile, ts::producer<Dst>) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tile.wait();
    const float x = s->v[32 + t / 32][t % 32];
    p.dst[int(i) * 2048 + 1024 + t] = x + 1.f;
    tile.release(s);
  }
}

[[ts::kernel(load, math_lo, math_hi)]] __global__ void split(const __grid_constant__ Params p);
