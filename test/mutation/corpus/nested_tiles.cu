// Mutation corpus: a persistent kernel, the k-loop nested in a tile loop in
// both tasks (docs/verifier.md, "Nested domains"). Operand tiles stream
// through a TMA pipeline every k-step; a per-tile scale (async_async) is
// written before each k-loop and read after it; a bias row (async_async) is
// written and read on each tile's first k-step only (`if (k.first())`, which
// tests the inner loop). One bias stage: the loader may run a tile ahead, so
// a forged acquire of it overwrites a row still to be read.
#include <ts/ts.h>

struct Params { CUtensorMap a; const float *scale; const float *bias; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Scale { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Bias { float v[32]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles, ts::producer<Scale> scales,
                     ts::producer<Bias> biases) {
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto c = scales.acquire();
    c->v[lane] = p.scale[int(t) * 32 + lane];
    scales.commit(c);
    for (auto k : ts::domain(0, p.k_tiles)) {
      if (k.first()) {
        auto b = biases.acquire();
        b->v[lane] = p.bias[int(t) * 32 + lane];
        biases.commit(b);
      }
      auto s = tiles.acquire();
      ts::tma::load(s->v, &p.a, {int(k) * 32, int(t) * 32}, s.barrier());
      tiles.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void compute(const Params &p, ts::consumer<Tiles> tiles, ts::consumer<Scale> scales,
                        ts::consumer<Bias> biases, ts::producer<Out>) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.k_tiles)) {
      if (k.first()) {
        auto b = biases.wait();
        acc = b->v[row];
        biases.release(b);
      }
      auto s = tiles.wait();
#pragma unroll
      for (int c = 0; c < 8; ++c)
        acc += s->v[row][quarter * 8 + c];
      tiles.release(s);
    }
    auto c = scales.wait();
    p.out[int(t) * 128 + threadIdx.x] = acc * c->v[row];
    scales.release(c);
  }
}

[[ts::kernel(load, compute)]] __global__ void nested_tiles(const __grid_constant__ Params p);
