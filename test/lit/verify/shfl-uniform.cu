// A loop bound broadcast from one lane by __shfl_sync is the same in every
// thread of the warp: uniform in a task of one warp, so its trip count is
// the task's; in a task of two warps each warp may broadcast another value,
// which stays a ts-domain error (the warps arrive on the barriers a
// different number of times).
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok
// RUN: %ts_device -fsyntax-only -DTWO_WARPS %s -Xclang -verify=two
// RUN: %ts_device -fsyntax-only -DOTHER_LANE %s -Xclang -verify=lane
// ok-no-diagnostics
#include <ts/ts.h>

struct Params {
  const int *n;
  float *out;
};
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf {
  float v[64];
};

#ifdef OTHER_LANE // a lane that differs between threads broadcasts nothing
#define COUNT __shfl_sync(0xffffffffu, p.n[threadIdx.x % 32], int(threadIdx.x % 32))
#else
#define COUNT __shfl_sync(0xffffffffu, p.n[threadIdx.x % 32], 0)
#endif

[[ts::task(ts::warps(0, 1))]]
__device__ void prod(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, COUNT)) { // lane-error {{the trip count of this ts::domain loop of task 'prod' may differ between its threads}} lane-note {{it depends on threadIdx.x}} lane-note {{bound the loop by values every thread shares}}
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = float(i);
    b.commit(s);
  }
}

#ifdef TWO_WARPS
[[ts::task(ts::warps(1, 2))]]
#else
[[ts::task(ts::warps(1, 1))]]
#endif
__device__ void cons(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, COUNT)) { // two-error {{the trip count of this ts::domain loop of task 'cons' may differ between its threads}} two-note {{bound the loop by values every thread shares (kernel parameters, blockIdx, a value broadcast through shared memory before the loop, or by __shfl_sync in a task of one warp)}} lane-error {{the trip count of this ts::domain loop of task 'cons' may differ between its threads}} lane-note {{it depends on threadIdx.x}} lane-note {{bound the loop by values every thread shares}}
    // two-note@-1 {{it depends on threadIdx.x (one value per warp, broadcast by __shfl_sync()), which differs between threads}}
    auto s = b.wait();
    p.out[threadIdx.x % 32] = s->v[threadIdx.x % 32] + float(i);
    b.release(s);
  }
}

[[ts::kernel(prod, cons)]] __global__ void k(const __grid_constant__ Params p);
