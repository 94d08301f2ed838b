// Mutation corpus: constant trip counts. Every block walks the same eight
// k-slices (ts::domain(0, 8)); the verifier simulates exactly 8 trips.
#include <ts/ts.h>

struct Params { CUtensorMap w; float *dst; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Slice { float v[8][128]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Slice> slice) {
  for (auto k : ts::domain(0, 8)) {
    auto s = slice.acquire();
    ts::tma::load(s->v, &p.w, {blockIdx.x * 128, int(k) * 8}, s.barrier());
    slice.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void reduce(const Params &p, ts::consumer<Slice> slice, ts::producer<Dst>) {
  float acc = 0.f;
  for (auto k : ts::domain(0, 8)) {
    auto s = slice.wait();
#pragma unroll
    for (int r = 0; r < 8; ++r)
      acc += s->v[r][threadIdx.x];
    slice.release(s);
  }
  p.dst[blockIdx.x * 128 + threadIdx.x] = acc;
}

[[ts::kernel(load, reduce)]] __global__ void colsum(const __grid_constant__ Params p);
