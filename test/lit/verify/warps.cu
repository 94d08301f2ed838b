// Every task owns its own warps: overlapping ranges are an error at the later
// task, with a note at the task it overlaps. Holes between tasks are fine.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 4))]]
__device__ void wide(const Params &p, ts::producer<Buf> b) { // expected-note {{overlaps warps [0, 4) of task 'wide'}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = 1.f;
    b.commit(s);
  }
}

[[ts::task(ts::warps(2, 4))]]
__device__ void shifted(const Params &p, ts::consumer<Buf> b) { // expected-error {{warps [2, 6) of task 'shifted' overlap another task}} expected-note {{give each task its own warps}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}

[[ts::kernel(wide, shifted)]] __global__ void k_overlap(const Params p);

// One task cannot exceed the block (ts::warps is checked at the attribute),
// but two tasks on the same warps near the top of the block still collide.
[[ts::task(ts::warps(24, 8))]]
__device__ void top(const Params &p, ts::producer<Buf> b) { // expected-note {{overlaps warps [24, 32) of task 'top'}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
}

[[ts::task(ts::warps(31, 1))]]
__device__ void last_warp(const Params &p, ts::consumer<Buf> b) { // expected-error {{warps [31, 32) of task 'last_warp' overlap another task}} expected-note {{give each task its own warps}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}

[[ts::kernel(top, last_warp)]] __global__ void k_top(const Params p);

// Warps 1..7 run no task: a hole without register budgets is fine.
[[ts::task(ts::warps(0, 1))]]
__device__ void low(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void high(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}

[[ts::kernel(low, high)]] __global__ void k_hole(const Params p);
