// A task that no kernel lists never runs: where a kernel leaves its warps
// idle that is a warning at the task (on the H200 such a kernel left half
// its output unwritten). Checked at the end of the file: a kernel declared
// later that lists the task counts, in the code-generating compile too.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -S -o /dev/null -Xclang -verify %s
#include <ts/ts.h>
struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[256]; };

[[ts::task(ts::warps(8, 1))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(0, 4))]]
__device__ void low(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i) * 256 + threadIdx.x] = s->v[threadIdx.x];
    b.release(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void high(const Params &p, ts::consumer<Buf> b) { // expected-warning {{task 'high' is in no kernel, and kernel 'half_out' leaves its warps [4, 8) idle}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i) * 256 + 128 + threadIdx.x - 128] = s->v[threadIdx.x];
    b.release(s);
  }
}
// Warps 4-7 run nothing here: 'high' was meant to be listed.
[[ts::kernel(fill, low)]] __global__ void half_out(const Params p); // expected-note {{list it in ts::kernel(...) if 'half_out' should run it; otherwise remove its [[ts::task]]}}

// Listed by a kernel declared later: no finding, even where 'early' was
// decided before 'late' existed.
[[ts::task(ts::warps(4, 1))]] __device__ void side(const Params &p) {}
[[ts::task(ts::warps(0, 1))]] __device__ void main_task(const Params &p) {}
[[ts::task(ts::warps(5, 1))]] __device__ void tail(const Params &p) {}
[[ts::kernel(main_task, tail)]] __global__ void early(const Params p);
[[ts::kernel(main_task, side)]] __global__ void late(const Params p);
