// Mutation corpus: a ts::merge stage (the reference's FusedMerge group).
// Per k-step, a loader warp's TMA fills `x` (its leader arms x's bytes) and
// a decode warpgroup writes `scale` with its threads (each arrives at its
// commit); a consumer warpgroup reads both. Persistent tile loop with the
// k-loop nested in it in every task.
#include <ts/ts.h>

struct Params {
  ts::tma::map<float, 32, 32> x;
  const unsigned char *codes;
  float *dst;
  int tiles, k_tiles;
};
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::merge)]] Step {
  float x[32][32];
  float scale[32];
};
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Step> step) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x))
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = step.acquire();
      ts::tma::load(s->x, &p.x, {int(k) * 32, int(t) * 32}, s.barrier());
      step.commit(s);
    }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void decode(const Params &p, ts::producer<Step> step) {
  const int r = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x))
    for (auto k : ts::domain(0, p.k_tiles)) {
      const float v = float(p.codes[(int(t) * p.k_tiles + int(k)) * 32 + r]) / 16.f;
      auto s = step.acquire();
      if (threadIdx.x / 32 == 4)
        s->scale[r] = v;
      step.commit(s);
    }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void scale_sum(const Params &p, ts::consumer<Step> step, ts::producer<Dst>) {
  const int c = threadIdx.x % 32, q = threadIdx.x / 32 - 8;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = step.wait();
      for (int r = q; r < 32; r += 4)
        acc += s->x[r][c] * s->scale[r];
      step.release(s);
    }
    p.dst[(int(t) * 4 + q) * 32 + c] = acc;
  }
}

[[ts::kernel(load, decode, scale_sum)]] __global__ void merge_tiles(const __grid_constant__ Params p);
