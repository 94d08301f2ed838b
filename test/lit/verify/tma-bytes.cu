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
      ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier()); // expected-error {{TMA load into 'A' may be skipped, but its stage is committed anyway [-Wts-tma-bytes]}}
    a.commit(s); // expected-note {{issue the load on every path between acquire and commit}}
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void no_load(const Params &p, ts::producer<B> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-error {{stage of 'B' is committed without a TMA load [-Wts-tma-bytes]}} expected-note {{acquire armed 4096 transaction bytes here}}
    s->v[0][threadIdx.x % 32] = float(i);
    b.commit(s); // expected-note {{call ts::tma::load(..., s.barrier()) in the task between acquire and commit}}
  }
}

// Loads under the same guard as their acquire and commit are fine, and so is
// a load through the raw barrier address.
[[ts::task(ts::warps(2, 1))]]
__device__ void guarded(const Params &p, ts::producer<C> c) {
  for (auto i : ts::domain(0, p.n)) {
    if (i.first()) {
      auto s = c.acquire();
      ts::tma::load_with_barrier(s->v, &p.src, {0, 0}, static_cast<uint64_t *>(s.barrier()));
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
[[ts::kernel(skip_some, no_load, guarded, use)]] __global__ void k(const __grid_constant__ Params p);

// The armed bytes are the whole payload, so every member must be some
// load's destination (through pointer arithmetic, &m[i], or a nested
// member); here in a k-loop nested in a tile loop.
struct Pair2 { CUtensorMap a, b; float *dst; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] AB {
  float a[32][32];
  struct { float lo[16][32], hi[16][32]; } b;
  float scale[32]; // expected-note {{load 'scale' between acquire and commit, or declare ts::tx_bytes(N) with the bytes the loads deliver}}
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::tx_bytes(4096))]] AOnly {
  float a[32][32];
  float b[32][32];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void half_loaded(const Pair2 &p, ts::producer<AB> ab, ts::producer<AOnly> ao) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ab.acquire(); // expected-note {{acquire armed 8320 transaction bytes here, the whole payload; no load on every path to the commit writes the 128 bytes of 'scale', so consumers of the stage wait forever}}
      ts::tma::load(&s->a[0][0], &p.a, {int(k) * 32, int(t) * 32}, s.barrier());
      ts::tma::load(s->b.lo, &p.b, {int(k) * 32, int(t) * 32}, s.barrier());
      ts::tma::load(s->b.hi + 0, &p.b, {int(k) * 32, int(t) * 32 + 16}, s.barrier());
      ab.commit(s); // expected-error {{stage of 'AB' is committed without a TMA load into 'scale'}}
      auto o = ao.acquire(); // ts::tx_bytes: the loads decide, not the members
      ts::tma::load(o->a, &p.a, {int(k) * 32, int(t) * 32}, o.barrier());
      ao.commit(o);
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_ab(const Pair2 &p, ts::consumer<AB> ab, ts::consumer<AOnly> ao) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ab.wait();
      auto o = ao.wait();
      p.dst[threadIdx.x] += s->a[0][threadIdx.x] * s->scale[0] + o->a[0][threadIdx.x];
      ao.release(o);
      ab.release(s);
    }
  }
}
[[ts::kernel(half_loaded, use_ab)]] __global__ void members(const __grid_constant__ Pair2 p);

// A nested k-loop whose stage gets no load at all.
[[ts::task(ts::warps(0, 1))]]
__device__ void nested_none(const Pair2 &p, ts::producer<AB> ab) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ab.acquire(); // expected-error {{stage of 'AB' is committed without a TMA load}} expected-note {{acquire armed 8320 transaction bytes here}}
      s->scale[threadIdx.x % 32] = float(k);
      ab.commit(s); // expected-note {{call ts::tma::load(..., s.barrier()) in the task between acquire and commit}}
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_ab_only(const Pair2 &p, ts::consumer<AB> ab) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = ab.wait();
      p.dst[threadIdx.x] += s->scale[0];
      ab.release(s);
    }
  }
}
[[ts::kernel(nested_none, use_ab_only)]] __global__ void nested(const __grid_constant__ Pair2 p);
