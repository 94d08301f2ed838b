// Mutation corpus: first/last-iteration guards used symmetrically. The bias
// row is produced and consumed on the first iteration only; the block's
// result is handed to a writer warp on the last iteration only. Tiles
// stream every iteration.
#include <ts/ts.h>

struct Params { CUtensorMap x; CUtensorMap bias; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] XTile { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(1))]] Bias { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Result { float v[128]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<XTile> x, ts::producer<Bias> bias) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    if (i.first()) {
      auto b = bias.acquire();
      ts::tma::load(b->v, &p.bias, {0}, b.barrier());
      bias.commit(b);
    }
    auto s = x.acquire();
    ts::tma::load(s->v, &p.x, {0, int(i) * 32}, s.barrier());
    x.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void compute(const Params &p, ts::consumer<XTile> x, ts::consumer<Bias> bias,
                        ts::producer<Result> result) {
  float b = 0.f, acc = 0.f;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    if (i.first()) {
      auto sb = bias.wait();
      b = sb->v[threadIdx.x % 32];
      bias.release(sb);
    }
    auto s = x.wait();
    acc += s->v[threadIdx.x / 32][threadIdx.x % 32] + b;
    x.release(s);
    if (i.last()) {
      auto r = result.acquire();
      r->v[threadIdx.x] = acc;
      result.commit(r);
    }
  }
}

[[ts::task(ts::warps(5, 1))]]
__device__ void write(const Params &p, ts::consumer<Result> result, ts::producer<Dst>) {
  const int lane = threadIdx.x % 32;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    if (i.last()) {
      auto r = result.wait();
      p.dst[blockIdx.x * 128 + lane] = r->v[lane] + r->v[32 + lane] + r->v[64 + lane] + r->v[96 + lane];
      result.release(r);
    }
  }
}

[[ts::kernel(load, compute, write)]] __global__ void biased_sum(const __grid_constant__ Params p);
