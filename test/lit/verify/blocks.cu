// A plain block '{ ... }' runs once where it stands: the pipeline operations
// in it are verified as if written in the enclosing sequence (blocks nest).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>
struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    {
      auto s = b.acquire();
      { s->v[threadIdx.x] = 1.f; }
      b.commit(s);
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    { p.dst[int(i) * 32 + threadIdx.x] = s->v[threadIdx.x]; }
    b.release(s);
  }
}
[[ts::kernel(fill, use)]] __global__ void ok(const Params p);

// A block that takes a stage and never hands it back is still caught.
[[ts::task(ts::warps(0, 1))]]
__device__ void leak(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    {
      auto s = b.acquire(); // expected-error {{stage of 'Buf' acquired in the loop is not committed in the same iteration}} expected-note {{commit it before the end of the loop body}}
      s->v[0] = 1.f;
    }
  }
}
[[ts::kernel(leak, use)]] __global__ void leaks(const Params p);
