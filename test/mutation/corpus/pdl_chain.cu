// Mutation corpus: programmatic dependent launch. The previous grid in the
// stream writes the tiles this kernel loads (ts::grid_dependent<Tiles>):
// the loader calls ts::pdl_wait() before its first TMA load and lets the
// next grid launch (ts::pdl_launch_dependents) once its loads are issued.
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  ts::tma::prefetch_descriptor(&p.src);
  ts::pdl_wait();
  for (auto i : ts::domain(0, p.n)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
  ts::pdl_launch_dependents();
}

[[ts::task(ts::warps(0, 4))]]
__device__ void scale(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Dst>) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  for (auto i : ts::domain(0, p.n)) {
    auto s = tiles.wait();
    float sum = 0.f;
    for (int c = 0; c < 8; ++c)
      sum += s->v[row][quarter * 8 + c];
    tiles.release(s);
    p.dst[(blockIdx.x * p.n + int(i)) * 128 + threadIdx.x] = 2.f * sum;
  }
}

[[ts::kernel(load, scale, ts::grid_dependent<Tiles>)]] __global__ void scaled_sums(const __grid_constant__ Params p);
