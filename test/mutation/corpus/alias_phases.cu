// Mutation corpus: two phases of one shared-memory buffer. `load` streams
// TMA tiles; `reduce` drains them in its loop and afterwards hands its
// partial sums over in `Part`; `combine` waits for them and only then fills
// the staging buffer, which `epilogue` drains once. Part completes only when
// every thread of `reduce` is done with the tiles (a task's own threads are
// not ordered with each other), so every use of Tiles happens before the
// first use of Staging and the kernel gives both one base:
// ts::alias<Tiles, Staging>.
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tiles { float v[32][64]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Part { float v[4][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Staging { float v[32]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void reduce(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Part> part) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  float acc = 0.f;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    for (int c = 0; c < 16; ++c)
      acc += s->v[row][quarter * 16 + c];
    tiles.release(s);
  }
  auto o = part.acquire();
  o->v[quarter][row] = acc;
  part.commit(o);
}

[[ts::task(ts::warps(5, 1))]]
__device__ void combine(const Params &p, ts::consumer<Part> part, ts::producer<Staging> staging) {
  const int lane = threadIdx.x % 32;
  auto o = part.wait();
  float sum = o->v[0][lane] + o->v[1][lane] + o->v[2][lane] + o->v[3][lane];
  part.release(o);
  auto s = staging.acquire();
  s->v[lane] = sum;
  staging.commit(s);
}

[[ts::task(ts::warps(6, 1))]]
__device__ void epilogue(const Params &p, ts::consumer<Staging> staging, ts::producer<Dst>) {
  const int lane = threadIdx.x % 32;
  auto o = staging.wait();
  p.dst[blockIdx.x * 32 + lane] = o->v[lane];
  staging.release(o);
}

[[ts::kernel(load, reduce, combine, epilogue, ts::alias<Tiles, Staging>)]] __global__ void tile_sums(const __grid_constant__ Params p);
