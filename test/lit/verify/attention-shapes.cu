// The attention shapes a persistent kernel is made of, verified: a Q stage
// taken per tile before a nonempty() K loop, a flat epilogue task fed per
// tile by the nested softmax task, and (-DTOKEN) a try_wait token taken per
// tile and used by the first inner step. Every k-loop of the pair is
// nonempty(), so inner count 0 is not a run: the first task to reach its
// loop traps, or all block before it in the first tile, as at count 1
// (docs/verifier.md, "Nested domains"); the token is never left unused.
// -DCAUSAL: the K loop's count reads the tile (causal attention), so it
// changes from tile to tile; every sequence of counts is verified.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DCAUSAL %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=CAUSAL
// RUN: %ts_device -fsyntax-only -DTOKEN %s -Xclang -verify=token -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=TOKEN
// ok-no-diagnostics
// token-no-diagnostics
#include <ts/ts.h>
struct Params { CUtensorMap q; CUtensorMap kv; float *out; int tiles; int kv_tiles; };
__device__ int causal_end(const Params &p, int t) { return t + 1 < p.kv_tiles ? t + 1 : p.kv_tiles; }
struct [[ts::resource(ts::tma_async, ts::stages(2))]] QTile { float v[16][64]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] KTile { float v[16][64]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Rows { float v[128]; };

[[ts::task(ts::warps(8, 1))]]
__device__ void load(const Params &p, ts::producer<QTile> q, ts::producer<KTile> k) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto sq = q.acquire();
    ts::tma::load(sq->v, &p.q, {0, int(t) * 16}, sq.barrier());
    q.commit(sq);
#if defined(CAUSAL)
    for (auto j : ts::domain(0, causal_end(p, int(t))).nonempty()) {
#else
    for (auto j : ts::domain(0, p.kv_tiles).nonempty()) {
#endif
      auto sk = k.acquire();
      ts::tma::load(sk->v, &p.kv, {0, int(j) * 16}, sk.barrier());
      k.commit(sk);
    }
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void softmax(const Params &p, ts::consumer<QTile> q, ts::consumer<KTile> k,
                        ts::producer<Rows> rows) {
  const int row = threadIdx.x / 8, col = threadIdx.x % 8;
  for (auto t : ts::domain(0, p.tiles)) {
    auto sq = q.wait();
#if defined(TOKEN)
    auto tok = k.try_wait();
#endif
    float best = -1e30f;
#if defined(CAUSAL)
    for (auto j : ts::domain(0, causal_end(p, int(t))).nonempty()) {
#else
    for (auto j : ts::domain(0, p.kv_tiles).nonempty()) {
#endif
      float dot = 0.f;
#if defined(TOKEN)
      if (j.first()) {
        auto sk = k.wait(tok);
        for (int d = 0; d < 64; ++d)
          dot += sq->v[row][d] * sk->v[col][d];
        k.release(sk);
      }
      if (!j.first()) {
        auto sk = k.wait();
        for (int d = 0; d < 64; ++d)
          dot += sq->v[row][d] * sk->v[col][d];
        k.release(sk);
      }
#else
      auto sk = k.wait();
      for (int d = 0; d < 64; ++d)
        dot += sq->v[row][d] * sk->v[col][d];
      k.release(sk);
#endif
      best = fmaxf(best, dot);
    }
    q.release(sq);
    auto r = rows.acquire();
    r->v[threadIdx.x % 128] = best;
    rows.commit(r);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Rows> rows) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto r = rows.wait();
    p.out[int(t) * 128 + threadIdx.x % 128] = r->v[threadIdx.x % 128];
    rows.release(r);
  }
}
[[ts::kernel(load, softmax, epilogue)]] __global__ void attn(const __grid_constant__ Params p);
// CHECK: verification: PASSED (0 error(s), 0 warning(s))
// CHECK: protocol: inner loop 1 to 13 times (bounded: docs/verifier.md, "Nested domains"); outer loop, at each: every trip count
// TOKEN: verification: PASSED (0 error(s), 0 warning(s))
// TOKEN: protocol: inner loop 1 to 13 times
// CAUSAL: verification: PASSED (0 error(s), 0 warning(s))
// CAUSAL: protocol: inner loop 1 to 13 times, any count in each tile (bounded
