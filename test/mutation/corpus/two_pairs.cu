// Mutation corpus: two independent pairs in one persistent kernel, each
// with its own k-loop count (docs/verifier.md, "Nested domains": inner
// counts belong to the pair that exchanges stages). Pair A streams operand
// tiles over p.ka k-steps a tile; pair B streams rows over p.kb. Changing
// one pair's count in both of its tasks changes nothing for the other.
#include <ts/ts.h>

struct Params { const float *x; const float *y; float *out; int tiles, ka, kb; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] TilesA { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(3))]] RowsB { float v[32]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load_a(const Params &p, ts::producer<TilesA> a) {
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x))
    for (auto k : ts::domain(0, p.ka)) {
      auto s = a.acquire();
      s->v[lane] = p.x[(int(t) * p.ka + int(k)) * 32 + lane];
      a.commit(s);
    }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void use_a(const Params &p, ts::consumer<TilesA> a, ts::producer<Out>) {
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.ka)) {
      auto s = a.wait();
      acc += s->v[lane];
      a.release(s);
    }
    p.out[int(t) * 64 + lane] = acc;
  }
}

[[ts::task(ts::warps(2, 1))]]
__device__ void load_b(const Params &p, ts::producer<RowsB> b) {
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x))
    for (auto k : ts::domain(0, p.kb)) {
      auto s = b.acquire();
      s->v[lane] = p.y[(int(t) * p.kb + int(k)) * 32 + lane];
      b.commit(s);
    }
}

[[ts::task(ts::warps(3, 1))]]
__device__ void use_b(const Params &p, ts::consumer<RowsB> b, ts::producer<Out>) {
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.kb)) {
      auto s = b.wait();
      acc += s->v[lane];
      b.release(s);
    }
    p.out[int(t) * 64 + 32 + lane] = acc;
  }
}

[[ts::kernel(load_a, use_a, load_b, use_b)]] __global__ void two_pairs(const Params p);
