// Mutation corpus: threads produce and consume (async_async). Four producer
// warps convert int8 codes to floats into a 2-stage pipeline; four consumer
// warps scale each chunk and store it.
#include <ts/ts.h>

struct Params { const signed char *codes; float *dst; float scale; int chunks; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[512]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 4))]]
__device__ void decode(const Params &p, ts::producer<Chunk> chunk) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.chunks, gridDim.x)) {
    const signed char *src = p.codes + (long long)i * 512;
    float r[4];
    for (int k = 0; k < 4; ++k)
      r[k] = float(src[t + 128 * k]);
    auto s = chunk.acquire();
    for (int k = 0; k < 4; ++k)
      s->v[t + 128 * k] = r[k];
    chunk.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void scale(const Params &p, ts::consumer<Chunk> chunk, ts::producer<Dst>) {
  const int t = threadIdx.x;
  for (auto i : ts::domain(blockIdx.x, p.chunks, gridDim.x)) {
    auto s = chunk.wait();
    float r[4];
    for (int k = 0; k < 4; ++k)
      r[k] = s->v[t + 128 * k] * p.scale;
    chunk.release(s);
    for (int k = 0; k < 4; ++k)
      p.dst[(long long)i * 512 + t + 128 * k] = r[k];
  }
}

[[ts::kernel(decode, scale)]] __global__ void dequant(const __grid_constant__ Params p);
