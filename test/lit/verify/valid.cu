// Valid schedules that must pass with no finding: the query tile of
// attention kernels (waited in the head, read every iteration, released in
// the tail), '#pragma unroll 1' on the domain loop, a TMA barrier kept in a
// local, two stages held at once, try_ tokens used right.
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
// expected-no-diagnostics
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(1))]] Q { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] KV { float v[32][32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Q> q, ts::producer<KV> kv) {
  auto sq = q.acquire();
  ts::tma::load(sq->v, &p.src, {0, 0}, sq.barrier());
  q.commit(sq);
#pragma unroll 1
  for (auto i : ts::domain(0, p.n)) {
    auto t = kv.try_acquire();
    auto s = kv.acquire(t);
    const ts::tma_barrier bar = s.barrier();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, bar);
    kv.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void attend(const Params &p, ts::consumer<Q> q, ts::consumer<KV> kv) {
  auto sq = q.wait();
  for (auto i : ts::domain(0, p.n)) {
    auto t = kv.try_wait();
    auto s = kv.wait(t);
    p.dst[int(i)] = s->v[0][0] * sq->v[0][0];
    kv.release(s);
  }
  q.release(sq);
}
[[ts::kernel(load, attend)]] __global__ void attention(const __grid_constant__ Params p);

// Two stages at once (stages >= 2), oldest handed back first.
struct [[ts::resource(ts::async_async, ts::stages(2))]] Pair { float v[128]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Pair> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto a = r.acquire();
    auto b = r.acquire();
    a->v[threadIdx.x % 32] = float(i);
    b->v[threadIdx.x % 32] = float(i) + 1.0f;
    r.commit(a);
    r.commit(b);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void sum(const Params &p, ts::consumer<Pair> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto a = r.wait();
    auto b = r.wait();
    p.dst[int(i)] = a->v[0] + b->v[0];
    r.release(a);
    r.release(b);
  }
}
[[ts::kernel(fill, sum)]] __global__ void pairs(const __grid_constant__ Params p);
