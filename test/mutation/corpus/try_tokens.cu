// Mutation corpus: non-blocking polls whose token goes to the blocking op
// of the same iteration. The producer polls, loads its registers while the
// stage may still be busy, then takes the stage with the token; the
// consumer polls, prepares its output address, then waits with the token.
#include <ts/ts.h>

struct Params { const float *src; float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(3))]] Buf { float v[256]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(0, 2))]]
__device__ void produce(const Params &p, ts::producer<Buf> buf) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto t = buf.try_acquire();
    const float a = p.src[int(i) * 256 + threadIdx.x];
    const float b = p.src[int(i) * 256 + 64 + threadIdx.x];
    auto s = buf.acquire(t);
    s->v[threadIdx.x] = a;
    s->v[64 + threadIdx.x] = b;
    s->v[128 + threadIdx.x] = a * b;
    s->v[192 + threadIdx.x] = a - b;
    buf.commit(s);
  }
}

[[ts::task(ts::warps(2, 2))]]
__device__ void consume(const Params &p, ts::consumer<Buf> buf, ts::producer<Dst>) {
  const int t = threadIdx.x - 64;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto tok = buf.try_wait();
    float *out = p.dst + int(i) * 64 + t;
    auto s = buf.wait(tok);
    *out = s->v[t] + s->v[64 + t] + s->v[128 + t] + s->v[192 + t];
    buf.release(s);
  }
}

[[ts::kernel(produce, consume)]] __global__ void polled(const __grid_constant__ Params p);
