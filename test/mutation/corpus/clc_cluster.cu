// Mutation corpus: cluster launch control in a cluster of two CTAs
// (sm_100a). The scheduler warp loops over ts::tiles(next) (rank 0's
// issues one multicast try_cancel per tile for both CTAs), loads each
// tile's rows with TMA into a ring; a warpgroup loops over the same tiles,
// sums every row it waits for, and writes the tile's sums.
#include <ts/ts.h>

struct Params {
  ts::tma::map<float, 8, 32> rows;
  float *sums;
  int k_steps;
};
struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next : ts::clc::response {};
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Rows { float v[8][32]; };
struct [[ts::resource(ts::gmem)]] Sums {};

[[ts::task(ts::warps(0, 1))]]
__device__ void sched(const Params &p, ts::producer<Next> next, ts::producer<Rows> rows) {
  for (int u : ts::tiles(next))
    for (auto k : ts::domain(0, p.k_steps)) {
      auto s = rows.acquire();
      ts::tma::load(s->v, &p.rows, {int(k) * 32, u * 8}, s.barrier());
      rows.commit(s);
    }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void sum(const Params &p, ts::consumer<Next> next, ts::consumer<Rows> rows,
                    ts::producer<Sums>) {
  const int r = threadIdx.x / 32 - 4, c = threadIdx.x % 32;
  for (int u : ts::tiles(next)) {
    float acc = 0.f;
    for (auto k : ts::domain(0, p.k_steps)) {
      auto s = rows.wait();
      acc += s->v[r][c] + s->v[r + 4][c];
      rows.release(s);
    }
    p.sums[u * 128 + r * 32 + c] = acc;
  }
}

[[ts::kernel(sched, sum, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void clc_cluster(const __grid_constant__ Params p);
