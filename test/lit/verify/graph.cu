// A declared ts::edge<A, B> must be realised by a task that consumes A and
// produces B.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] In { float v[32]; };
struct [[ts::resource(ts::gmem)]] Out {};
struct [[ts::resource(ts::gmem)]] Other {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<In> in) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = in.acquire();
    s->v[0] = 1.f;
    in.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void store(const Params &p, ts::consumer<In> in, ts::producer<Out>) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = in.wait();
    p.dst[int(i)] = s->v[0];
    in.release(s);
  }
}

// No task produces Other.
[[ts::kernel(load, store, ts::edge<In, Other>)]] __global__ void k_stale(const Params p); // expected-error {{declared edge 'In' -> 'Other' is not backed by any task}} expected-note {{a task must consume 'In' and produce 'Other'; fix the edge or the task's handles}}

// store consumes In and produces Out: the edge is backed.
[[ts::kernel(load, store, ts::edge<In, Out>)]] __global__ void k_backed(const Params p);
