// Mutation corpus: the attention pattern. The query tile is loaded once in
// the head, held by the consumer across the whole key loop and released in
// the tail; key tiles stream through a 2-stage pipeline.
#include <ts/ts.h>

struct Params { CUtensorMap q; CUtensorMap k; float *out; int kv_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(1))]] QTile { float v[16][64]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] KTile { float v[16][64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load_qk(const Params &p, ts::producer<QTile> q, ts::producer<KTile> k) {
  auto sq = q.acquire();
  ts::tma::load(sq->v, &p.q, {0, blockIdx.x * 16}, sq.barrier());
  q.commit(sq);
  for (auto j : ts::domain(0, p.kv_tiles)) {
    auto sk = k.acquire();
    ts::tma::load(sk->v, &p.k, {0, int(j) * 16}, sk.barrier());
    k.commit(sk);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void scores(const Params &p, ts::consumer<QTile> q, ts::consumer<KTile> k, ts::producer<Out>) {
  const int row = threadIdx.x / 8, col = threadIdx.x % 8;
  float best = -1e30f;
  auto sq = q.wait();
  for (auto j : ts::domain(0, p.kv_tiles)) {
    auto sk = k.wait();
    float dot = 0.f;
    for (int d = 0; d < 64; ++d)
      dot += sq->v[row][d] * sk->v[col][d];
    k.release(sk);
    best = fmaxf(best, dot);
  }
  q.release(sq);
  p.out[blockIdx.x * 128 + threadIdx.x] = best;
}

[[ts::kernel(load_qk, scores)]] __global__ void attn_max(const __grid_constant__ Params p);
