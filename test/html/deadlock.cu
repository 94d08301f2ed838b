// A circular wait over two one-stage pipelines (test/lit/verify/credit.cu,
// case b): each task takes its output stage, then waits for the other
// task's output before committing its own. The -html page of this file
// shows the finding, the cycle in the graph and the blocked lanes.
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] X { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Y { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void task_a(const Params &p, ts::producer<X> x, ts::consumer<Y> y) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto sx = x.acquire();
    auto sy = y.wait();
    sx->v[threadIdx.x % 32] = sy->v[threadIdx.x % 32];
    y.release(sy);
    x.commit(sx);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void task_b(const Params &p, ts::producer<Y> y, ts::consumer<X> x) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto sy = y.acquire();
    auto sx = x.wait();
    sy->v[threadIdx.x % 32] = sx->v[threadIdx.x % 32];
    x.release(sx);
    y.commit(sy);
  }
}

[[ts::kernel(task_a, task_b)]] __global__ void ring(const Params p);
