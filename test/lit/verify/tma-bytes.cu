// Acquiring a tma_async stage arms its transaction bytes and only a TMA load
// delivers them: a load that may be skipped, or none at all, leaves the
// consumer waiting forever (tile-ai/tilelang #2566).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; int limit; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] B { float v[32][32]; }; // expected-note {{or, if the task fills the stage with its threads beside the other producers' loads, declare 'B' ts::merge}}
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
struct [[ts::resource(ts::tma_async, ts::stages(2))]] AB { // expected-note {{declare 'AB' ts::merge}}
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

// The bytes the loads deliver (each box is its destination: a member or the
// stage) must be the bytes the acquire arms.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::tx_bytes(2048))]] Short { // expected-note {{a load delivers its ts::tma::map's box (a plain CUtensorMap's is taken to be its destination): declare ts::tx_bytes(N) with the bytes the loads deliver}}
  float v[32][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::tx_bytes(8192))]] Long { // expected-note {{a load delivers its ts::tma::map's box}}
  float v[32][32];
  float w[32][48];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Halves { // expected-note {{a load delivers its ts::tma::map's box}}
  float a[16][32];
  float b[16][32];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void short_armed(const Params &p, ts::producer<Short> sh, ts::producer<Long> lo) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sh.acquire(); // expected-note {{acquire armed 2048 transaction bytes here (ts::tx_bytes); the phase completes before the last bytes land and the surplus counts against a later phase}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier()); // expected-error {{TMA loads into 'Short' deliver 4096 bytes per stage, but its acquire arms 2048 [-Wts-tma-bytes]}}
    sh.commit(s);
    auto l = lo.acquire(); // expected-note {{acquire armed 8192 transaction bytes here (ts::tx_bytes); consumers of the stage wait forever for the rest}}
    ts::tma::load(&l->v, &p.src, {0, int(i) * 32}, l.barrier()); // expected-error {{TMA loads into 'Long' deliver 4096 bytes per stage, but its acquire arms 8192}}
    lo.commit(l);
  }
}
// Two producer tasks fill one stage: the first arms the whole payload, and
// each delivers its half.
[[ts::task(ts::warps(1, 1))]]
__device__ void top_half(const Params &p, ts::producer<Halves> h) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = h.acquire();
    ts::tma::load(s->a, &p.src, {0, int(i) * 32}, s.barrier());
    h.commit(s);
  }
}
[[ts::task(ts::warps(2, 1))]]
__device__ void bottom_half(const Params &p, ts::producer<Halves> h) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = h.acquire();
    ts::tma::load(s->b, &p.src, {0, int(i) * 32 + 16}, s.barrier());
    h.commit(s);
  }
}
[[ts::task(ts::warps(3, 1))]]
__device__ void use_bytes(const Params &p, ts::consumer<Short> sh, ts::consumer<Long> lo,
                          ts::consumer<Halves> h) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sh.wait();
    auto l = lo.wait();
    auto t = h.wait();
    p.dst[int(i)] = s->v[0][0] + l->w[0][0] + t->a[0][0] + t->b[0][0];
    h.release(t);
    lo.release(l);
    sh.release(s);
  }
}
[[ts::kernel(short_armed, top_half, bottom_half, use_bytes)]]
__global__ void bytes(const __grid_constant__ Params p);

// Rows of a member are parts of unknown size: only what is known to exceed
// the armed bytes is an error.
[[ts::task(ts::warps(0, 1))]]
__device__ void rows(const Params &p, ts::producer<Short> sh) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sh.acquire();
    ts::tma::load(s->v[0], &p.src, {0, int(i) * 32}, s.barrier());
    ts::tma::load(s->v[16], &p.src, {0, int(i) * 32 + 16}, s.barrier());
    sh.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_rows(const Params &p, ts::consumer<Short> sh) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sh.wait();
    p.dst[int(i)] = s->v[0][0];
    sh.release(s);
  }
}
[[ts::kernel(rows, use_rows)]] __global__ void parts(const __grid_constant__ Params p);

// A raw barrier load is issued by lane 0 of every warp; a stage that is not
// tma_async completes on its producer's arrivals, before the load lands.
struct [[ts::resource(ts::async_async, ts::stages(2))]] Threads { // expected-note {{its stages complete when the producer's threads arrive, before the load lands; declare it ts::tma_async, whose acquire arms the bytes the load delivers}}
  float v[32][32];
};
[[ts::task(ts::warps(0, 2))]]
__device__ void per_warp(const Params &p, ts::producer<A> a, ts::producer<Threads> th) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.acquire(); // expected-note {{the acquire arms the stage's bytes once; call ts::tma::load(..., s.barrier()), which one elected thread issues}}
    ts::tma::load_with_barrier(s.get(), &p.src, {0, int(i) * 32}, static_cast<uint64_t *>(s.barrier())); // expected-error {{ts::tma::load_with_barrier into 'A' is issued by each of the 2 warps of 'per_warp', so the stage receives its box 2 times [-Wts-tma-bytes]}}
    a.commit(s);
    auto t = th.acquire();
    ts::tma::load(t->v, &p.src, {0, int(i) * 32}, t.barrier()); // expected-error {{TMA load completes a stage of 'Threads', which is not a ts::tma_async resource [-Wts-tma-bytes]}}
    th.commit(t);
  }
}
[[ts::task(ts::warps(2, 1))]]
__device__ void use_warp(const Params &p, ts::consumer<A> a, ts::consumer<Threads> th) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    auto t = th.wait();
    p.dst[int(i)] = s->v[0][0] + t->v[0][0];
    th.release(t);
    a.release(s);
  }
}
[[ts::kernel(per_warp, use_warp)]] __global__ void warps(const __grid_constant__ Params p);

// Loads in a loop of constant trip count run on every path (with or
// without #pragma unroll); a loop that may run 0 times, or leave early, may
// skip them. A whole member loaded twice delivers its bytes twice.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Rows { float v[64][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void row_loops(const Params &p, ts::producer<Rows> r, ts::producer<Halves> h) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.acquire();
#pragma unroll
    for (int j = 0; j < 4; ++j)
      ts::tma::load(s->v[16 * j], &p.src, {0, int(i) * 64 + 16 * j}, s.barrier());
    r.commit(s);
    auto t = h.acquire(); // expected-note {{acquire armed 4096 transaction bytes here (the payload); the phase completes before the last bytes land and the surplus counts against a later phase}}
    for (int j = 0; j != 2; j += 1) {
      ts::tma::load(t->a, &p.src, {0, int(i) * 32}, t.barrier()); // expected-error {{TMA loads into 'Halves' deliver 6144 bytes per stage, but its acquire arms 4096}}
    }
    ts::tma::load(t->b, &p.src, {0, int(i) * 32 + 16}, t.barrier());
    h.commit(t);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_row_loops(const Params &p, ts::consumer<Rows> r, ts::consumer<Halves> h) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.wait();
    auto t = h.wait();
    p.dst[int(i)] = s->v[0][0] + t->a[0][0];
    h.release(t);
    r.release(s);
  }
}
[[ts::kernel(row_loops, use_row_loops)]] __global__ void loops(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void skipping_loops(const Params &p, ts::producer<Rows> r, ts::producer<Short> sh,
                               ts::producer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.acquire(); // expected-note {{acquire armed 8192 transaction bytes here}}
    for (int j = 0; j < p.n; ++j)
      ts::tma::load(s->v[16 * j], &p.src, {0, 16 * j}, s.barrier()); // expected-error {{TMA load into 'Rows' may be skipped, but its stage is committed anyway}}
    r.commit(s); // expected-note {{issue the load on every path between acquire and commit}}
    auto t = sh.acquire(); // expected-note {{acquire armed 2048 transaction bytes here}}
    for (int j = 4; j < 4; ++j)
      ts::tma::load(t->v[16 * j], &p.src, {0, 16 * j}, t.barrier()); // expected-error {{TMA load into 'Short' may be skipped, but its stage is committed anyway}}
    sh.commit(t); // expected-note {{issue the load on every path between acquire and commit}}
    auto u = a.acquire(); // expected-note {{acquire armed 4096 transaction bytes here}}
    for (int j = 0; j < 2; ++j) {
      if (j == int(i))
        break;
      ts::tma::load(u->v[16 * j], &p.src, {0, 16 * j}, u.barrier()); // expected-error {{TMA load into 'A' may be skipped, but its stage is committed anyway}}
    }
    a.commit(u); // expected-note {{issue the load on every path between acquire and commit}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_skipping(const Params &p, ts::consumer<Rows> r, ts::consumer<Short> sh,
                             ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.wait();
    auto t = sh.wait();
    auto u = a.wait();
    p.dst[int(i)] = s->v[0][0] + t->v[0][0] + u->v[0][0];
    a.release(u);
    sh.release(t);
    r.release(s);
  }
}
[[ts::kernel(skipping_loops, use_skipping)]] __global__ void skipping(const __grid_constant__ Params p);

// A condition that is a constant (`if constexpr`, a constexpr variable)
// decides: the load under a true one runs on every path, the one under a
// false one never, so its member is never written (the attention example
// builds for head dim 64 or 128 so).
constexpr int kHalves = 2;
struct [[ts::resource(ts::tma_async, ts::stages(2))]] TwoHalves { float lo[16][32], hi[16][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] OneHalf {
  float lo[16][32], hi[16][32]; // expected-note {{load 'hi' between acquire and commit, or declare ts::tx_bytes(N) with the bytes the loads deliver}}
};
[[ts::task(ts::warps(0, 1))]]
__device__ void constant_ifs(const Params &p, ts::producer<TwoHalves> h, ts::producer<OneHalf> g) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = h.acquire();
    ts::tma::load(s->lo, &p.src, {0, 0}, s.barrier());
    if constexpr (kHalves > 1)
      ts::tma::load(s->hi, &p.src, {0, 16}, s.barrier());
    h.commit(s);
    auto t = g.acquire(); // expected-note {{acquire armed 4096 transaction bytes here, the whole payload; no load on every path to the commit writes the 2048 bytes of 'hi', so consumers of the stage wait forever}}
    ts::tma::load(t->lo, &p.src, {0, 0}, t.barrier());
    if (kHalves > 2)
      ts::tma::load(t->hi, &p.src, {0, 16}, t.barrier());
    g.commit(t); // expected-error {{stage of 'OneHalf' is committed without a TMA load into 'hi'}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_halves(const Params &p, ts::consumer<TwoHalves> h, ts::consumer<OneHalf> g) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = h.wait();
    auto t = g.wait();
    p.dst[int(i)] = s->hi[0][0] + t->lo[0][0];
    g.release(t);
    h.release(s);
  }
}
[[ts::kernel(constant_ifs, use_halves)]] __global__ void halves(const __grid_constant__ Params p);

// A loader's arrival comes at its acquire: its threads' own writes into the
// stage are not ordered before the consumers' reads (the bytes may land
// and complete the phase first), with or without ts::merge.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::tx_bytes(4096))]] Scaled { float x[32][32]; float scale[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_and_scale(const Params &p, ts::producer<Scaled> sc) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sc.acquire();
    ts::tma::load(s->x, &p.src, {0, int(i) * 32}, s.barrier());
    s->scale[threadIdx.x % 32] = 1.f; // expected-error {{task 'load_and_scale' loads stages of 'Scaled' with TMA and also accesses them with its threads}} expected-note {{a loader arrives on the full barrier at its acquire, before these accesses, so consumers may read the stage first; write those members from another producer task (with ts::merge on the resource) or load them with TMA}}
    sc.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_scaled(const Params &p, ts::consumer<Scaled> sc) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = sc.wait();
    p.dst[int(i)] = s->x[0][threadIdx.x % 32] * s->scale[threadIdx.x % 32];
    sc.release(s);
  }
}
[[ts::kernel(load_and_scale, use_scaled)]] __global__ void scaled(const __grid_constant__ Params p);
