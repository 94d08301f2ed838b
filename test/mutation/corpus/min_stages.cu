// Mutation corpus: a schedule that needs two stages of Half. Per iteration
// the producer fills both halves of a row block and only then the block's
// scale; the consumer holds the first half while it waits for the scale.
// With one stage of Half the producer's second acquire waits for a release
// that comes only after the scale it has not produced yet: deadlock.
// mutation: min-stages Half=2
#include <ts/ts.h>

struct Params { const float *src; const float *scales; float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Half { float v[128]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Scale { float v; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(0, 4))]]
__device__ void produce(const Params &p, ts::producer<Half> half, ts::producer<Scale> scale) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto h0 = half.acquire();
    h0->v[threadIdx.x] = p.src[int(i) * 256 + threadIdx.x];
    half.commit(h0);
    auto h1 = half.acquire();
    h1->v[threadIdx.x] = p.src[int(i) * 256 + 128 + threadIdx.x];
    half.commit(h1);
    auto sc = scale.acquire();
    if (threadIdx.x == 0)
      sc->v = p.scales[int(i)];
    scale.commit(sc);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void consume(const Params &p, ts::consumer<Half> half, ts::consumer<Scale> scale,
                        ts::producer<Dst>) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto h0 = half.wait();
    auto sc = scale.wait();
    const float k = sc->v;
    scale.release(sc);
    p.dst[int(i) * 256 + t] = h0->v[t] * k;
    half.release(h0);
    auto h1 = half.wait();
    p.dst[int(i) * 256 + 128 + t] = h1->v[t] * k;
    half.release(h1);
  }
}

[[ts::kernel(produce, consume)]] __global__ void scaled(const __grid_constant__ Params p);
