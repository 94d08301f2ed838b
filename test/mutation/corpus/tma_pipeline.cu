// Mutation corpus: a GEMM-like main loop. One TMA producer warp streams
// 64x64 bf16-sized tiles (stored as float here) into a 4-stage pipeline; two
// consumer warp groups accumulate row sums of every tile and write them out
// after the loop.
#include <ts/ts.h>

struct Params { CUtensorMap a; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] ATile { float v[64][64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load_a(const Params &p, ts::producer<ATile> a) {
  ts::tma::prefetch_descriptor(&p.a);
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = a.acquire();
    ts::tma::load(s->v, &p.a, {int(k) * 64, blockIdx.x * 64}, s.barrier());
    a.commit(s);
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<ATile> a, ts::producer<Out>) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  float acc = 0.f;
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = a.wait();
#pragma unroll
    for (int c = 0; c < 16; ++c)
      acc += s->v[row][quarter * 16 + c];
    a.release(s);
  }
  acc += __shfl_xor_sync(0xffffffffu, acc, 1);
  acc += __shfl_xor_sync(0xffffffffu, acc, 2);
  if (quarter == 0)
    p.out[blockIdx.x * 64 + row] = acc;
}

[[ts::kernel(load_a, mma)]] __global__ void gemm_rows(const __grid_constant__ Params p);
