#include <ts/ts.h>
struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void produce(const Params &p, ts::producer<Chunk> c) {
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
    p.out[0] = 0;
  }
}
[[ts::kernel(produce, consume)]] __global__ void bad(const Params p);
