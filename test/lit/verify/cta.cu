// ts::cta(rank) pins a task to one CTA of the cluster. Pinned tasks may not
// take part in pipelines (their partners run everywhere).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DOK %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v RUN %t.cu | FileCheck %s
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};

// CHECK: if (::ts::detail::cta_rank() == 1u) ::stats(p, ::ts::producer<::Out>());
[[ts::task(ts::warps(0, 1), ts::cta(1))]]
__device__ void stats(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 0.0f;
}
[[ts::kernel(stats)]] __global__ void k(const Params p);

#ifndef OK
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[32]; };

[[ts::task(ts::warps(0, 1), ts::cta(0))]]
__device__ void produce(const Params &p, ts::producer<Chunk> c) { // expected-error {{task 'produce' is pinned to CTA 0 but takes part in pipeline 'Chunk'}}
  // expected-note@-1 {{its partner tasks run on every CTA}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.acquire();
    s->v[threadIdx.x % 32] = float(i);
    c.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void consume(const Params &p, ts::consumer<Chunk> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.wait();
    p.out[threadIdx.x % 32] += s->v[threadIdx.x % 32];
    c.release(s);
  }
}
[[ts::kernel(produce, consume)]] __global__ void k2(const Params p);
#endif
