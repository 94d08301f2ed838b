// Mutation corpus: a three-task chain. `load` fills Raw with TMA;
// `activate` consumes Raw and produces Act (stage to stage, holding one of
// each); `store` consumes Act and writes global memory.
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Raw { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Act { float v[1024]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(8, 1))]]
__device__ void load(const Params &p, ts::producer<Raw> raw) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = raw.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    raw.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void activate(const Params &p, ts::consumer<Raw> raw, ts::producer<Act> act) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto r = raw.wait();
    auto a = act.acquire();
    for (int k = threadIdx.x; k < 1024; k += 128)
      a->v[k] = fmaxf(r->v[k / 32][k % 32], 0.f);
    act.commit(a);
    raw.release(r);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void store(const Params &p, ts::consumer<Act> act, ts::producer<Dst>) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = act.wait();
    for (int k = t; k < 1024; k += 128)
      p.dst[int(i) * 1024 + k] = s->v[k];
    act.release(s);
  }
}

[[ts::kernel(load, activate, store, ts::edge<Raw, Act>)]] __global__ void relu(const __grid_constant__ Params p);
