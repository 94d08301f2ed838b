// Mutation corpus: two producer tasks fill one async_async resource, each
// writing its half of every stage; the full barrier counts the threads of
// both, so a stage is full once both committed it. One consumer task.
#include <ts/ts.h>

struct Params { const float *x; const float *y; float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Pair { float x[128]; float y[128]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(0, 4))]]
__device__ void load_x(const Params &p, ts::producer<Pair> pair) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    const float v = p.x[int(i) * 128 + threadIdx.x];
    auto s = pair.acquire();
    s->x[threadIdx.x] = v;
    pair.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void load_y(const Params &p, ts::producer<Pair> pair) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    const float v = p.y[int(i) * 128 + t];
    auto s = pair.acquire();
    s->y[t] = v;
    pair.commit(s);
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void axpy(const Params &p, ts::consumer<Pair> pair, ts::producer<Dst>) {
  const int t = threadIdx.x - 256;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = pair.wait();
    const float r = 2.f * s->x[t] + s->y[t];
    pair.release(s);
    p.dst[int(i) * 128 + t] = r;
  }
}

[[ts::kernel(load_x, load_y, axpy)]] __global__ void axpy_kernel(const __grid_constant__ Params p);
