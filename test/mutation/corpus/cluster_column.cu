// Mutation corpus: a 2-D grid in clusters of two CTAs stacked along y
// (ts::cluster_shape(1, 2)): the CTAs of a cluster have the same blockIdx.x
// and blockIdx.y = 0, 1, so a unit loop over blockIdx.x (step gridDim.x)
// already runs alike in both. Persistent over column panels, with the k-loop
// nested in the unit loop in both tasks. Every k-step fills one stage of the
// ts::multicast resource `Step`: the CTA's own 64-row slice of the left
// operand with a plain load, and its half (16 of 32 rows, chosen by
// ts::cluster::rank() kept in a local) of the right operand tile, which both
// CTAs use, with a multicast load. The consumer sums over k in registers and
// writes its 64 x 64 block after the k-loop.
#include <ts/ts.h>

struct Params { CUtensorMap lhs, rhs; float *out; int units, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(4), ts::multicast)]] Step {
  float lhs[64 * 32]; // this CTA's rows
  float rhs[32 * 64]; // shared: rows [16 * half, 16 * half + 16) loaded by CTA `half`
};
struct [[ts::resource(ts::gmem)]] Result {};

[[ts::task(ts::warps(0, 1))]]
__device__ void stream(const Params &p, ts::producer<Step> steps) {
  const unsigned half = ts::cluster::rank(); // == blockIdx.y here
  for (auto n : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto st = steps.acquire();
      ts::tma::load(st->lhs, &p.lhs, {int(k) * 32, int(half) * 64}, st.barrier());
      ts::tma::load_multicast(st->rhs + half * 16 * 64, &p.rhs, {int(n) * 64,
                                 int(k) * 32 + int(half) * 16}, st.barrier());
      steps.commit(st);
    }
  }
}

[[ts::task(ts::warps(1, 4))]]
__device__ void accumulate(const Params &p, ts::consumer<Step> steps, ts::producer<Result>) {
  const unsigned half = ts::cluster::rank();
  const int t = int(threadIdx.x) - 32, row = t / 2, col = (t % 2) * 32;
  for (auto n : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto st = steps.wait();
      for (int c = 0; c < 32; ++c)
        for (int j = 0; j < 4; ++j)
          acc[j] += st->lhs[row * 32 + c] * st->rhs[c * 64 + col + j];
      steps.release(st);
    }
    for (int j = 0; j < 4; ++j)
      p.out[(int(half) * 64 + row) * (p.units * 64) + int(n) * 64 + col + j] = acc[j];
  }
}

[[ts::kernel(stream, accumulate, ts::cluster_shape(1, 2))]] __global__ void cluster_column(const __grid_constant__ Params p);
