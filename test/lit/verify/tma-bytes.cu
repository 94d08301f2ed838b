// Acquiring a tma_async stage arms its transaction bytes and only a TMA load
// delivers them: a load that may be skipped, or none at all, leaves the
// consumer waiting forever (tile-ai/tilelang #2566).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; int limit; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] B { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] C { float v[32][32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void skip_some(const Params &p, ts::producer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.acquire(); // expected-note {{acquire armed 4096 transaction bytes here}}
    if (int(i) < p.limit)
      ts::tma::load_2d(s->v, &p.src, 0, int(i) * 32, s.barrier()); // expected-error {{TMA load into 'A' may be skipped, but its stage is committed anyway [-Wts-tma-bytes]}}
    a.commit(s); // expected-note {{issue the load on every path between acquire and commit}}
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void no_load(const Params &p, ts::producer<B> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-error {{stage of 'B' is committed without a TMA load [-Wts-tma-bytes]}} expected-note {{acquire armed 4096 transaction bytes here}}
    s->v[0][threadIdx.x % 32] = float(i);
    b.commit(s); // expected-note {{call ts::tma::load_*(..., s.barrier()) in the task between acquire and commit}}
  }
}

// Loads under the same guard as their acquire and commit are fine, and so is
// a load through the raw barrier address.
[[ts::task(ts::warps(2, 1))]]
__device__ void guarded(const Params &p, ts::producer<C> c) {
  for (auto i : ts::domain(0, p.n)) {
    if (i.first()) {
      auto s = c.acquire();
      ts::tma::load_2d(s->v, &p.src, 0, 0, static_cast<uint64_t *>(s.barrier()));
      c.commit(s);
    }
  }
}

[[ts::task(ts::warps(3, 1))]]
__device__ void use(const Params &p, ts::consumer<A> a, ts::consumer<B> b, ts::consumer<C> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    auto t = b.wait();
    p.dst[int(i)] = s->v[0][0] + t->v[0][0];
    b.release(t);
    a.release(s);
    if (i.first()) {
      auto u = c.wait();
      p.dst[0] += u->v[0][0];
      c.release(u);
    }
  }
}
[[ts::kernel(skip_some, no_load, guarded, use)]] __global__ void k(const Params p);
