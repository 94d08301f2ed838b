// Mutation corpus: an MMA operand held across the loop. The query tile is
// waited for in the head, read by the MMAs of every iteration (with the
// streamed key tile, one group in flight, release_oldest() lag) and by one
// more MMA in the tail, which waits for that group before the query is
// handed back.
// The lag holds two stages of each streamed resource: one stage deadlocks.
// mutation: min-stages KTile=2
#include <ts/ts.h>

struct Params { CUtensorMap q; CUtensorMap k; float *out; int kv_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(1), ts::swizzled)]] QTile { __nv_bfloat16 v[64 * 64]; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] KTile { __nv_bfloat16 v[64 * 64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<QTile> q, ts::producer<KTile> k) {
  auto sq = q.acquire();
  ts::tma::load(sq->v, &p.q, {0, blockIdx.x * 64}, sq.barrier());
  q.commit(sq);
  for (auto j : ts::domain(0, p.kv_tiles)) {
    auto sk = k.acquire();
    ts::tma::load(sk->v, &p.k, {0, int(j) * 64}, sk.barrier());
    k.commit(sk);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void scores(const Params &p, ts::consumer<QTile> q, ts::consumer<KTile> k, ts::producer<Out>) {
  float acc[32] = {};
  auto sq = q.wait();
  const uint64_t dq = ts::wgmma::make_desc_sw128(sq->v);
  for (auto j : ts::domain(0, p.kv_tiles)) {
    auto sk = k.wait();
    ts::wgmma::fence();
    ts::wgmma::mma_bf16(acc, dq, ts::wgmma::make_desc_sw128(sk->v), true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!j.first())
      k.release_oldest();
    if (j.last()) {
      ts::wgmma::wait_group<0>();
      k.release(sk);
    }
  }
  ts::wgmma::mma_bf16(acc, dq, dq, true); // the query against itself
  ts::wgmma::commit_group();
  ts::wgmma::wait_group<0>();
  q.release(sq);
  ts::wgmma::fence_operand(acc);
  for (int r = 0; r < 32; ++r)
    p.out[(blockIdx.x * 128 + threadIdx.x) * 32 + r] = acc[r];
}

[[ts::kernel(load, scores)]] __global__ void attn_scores(const __grid_constant__ Params p);
