// Inner bounds read through a local struct (a grouped GEMM's tile: its
// group selects the k-count) are compared by what the local is computed
// from, so only while nothing changes it. Each way a task can change it
// after its declaration (a member assigned, a reference or pointer to it,
// a non-const method or reference parameter, a lambda capturing it by
// reference, an array decayed to a pointer) makes the bound match no other task's: an error with a note at
// the change. Reads (a const method, a const reference) do not.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params {
  CUtensorMap a;
  int tiles, k[4];
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Ops {
  __nv_bfloat16 a[64 * 64];
};
struct Tile {
  int g;
  __device__ void next() { g = g + 1 < 4 ? g + 1 : 0; }
  __device__ int group() const { return g; }
};
__device__ inline Tile tile_of(int u) { return Tile{u % 4}; }
__device__ inline void bump(Tile &t) { ++t.g; }
__device__ inline int peek(const Tile &t) { return t.g; }

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    const Tile t = tile_of(int(u));
    for (auto k : ts::domain(0, p.k[t.g])) { // expected-note 7 {{task 'load' loops over (0, p.k[t.g], 1)}}
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());
      ops.commit(s);
    }
  }
}

#define CONSUME(BOUND)                                                                       \
  for (auto k : ts::domain(0, BOUND)) {                                                      \
    auto s = ops.wait();                                                                     \
    ops.release(s);                                                                          \
  }

[[ts::task(ts::warps(1, 1))]]
__device__ void member(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    t.g = t.g ^ 1; // expected-note {{'t' may change here after its declaration, so a bound that reads it matches no other task's; compute it once, in a const local}}
    CONSUME(p.k[t.g]) // expected-error {{the inner ts::domain loops of tasks 'load' and 'member' may run different trip counts}} expected-note {{task 'member' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, member)]] __global__ void k_member(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void alias(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    int &g = t.g; // expected-note {{'t' may change here after its declaration}}
    g += 1;
    CONSUME(p.k[t.g]) // expected-error {{may run different trip counts}} expected-note {{task 'alias' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, alias)]] __global__ void k_alias(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void method(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    t.next(); // expected-note {{'t' may change here after its declaration}}
    CONSUME(p.k[t.g]) // expected-error {{may run different trip counts}} expected-note {{task 'method' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, method)]] __global__ void k_method(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void by_ref(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    bump(t); // expected-note {{'t' may change here after its declaration}}
    CONSUME(p.k[t.g]) // expected-error {{may run different trip counts}} expected-note {{task 'by_ref' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, by_ref)]] __global__ void k_by_ref(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void pointer(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    Tile *q = &t; // expected-note {{'t' may change here after its declaration}}
    q->g = 0;
    CONSUME(p.k[t.g]) // expected-error {{may run different trip counts}} expected-note {{task 'pointer' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, pointer)]] __global__ void k_pointer(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void lambda(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    auto advance = [&] { t.g = 3; }; // expected-note {{'t' may change here after its declaration}}
    advance();
    CONSUME(p.k[t.g]) // expected-error {{may run different trip counts}} expected-note {{task 'lambda' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, lambda)]] __global__ void k_lambda(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void decayed(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    const Tile t = tile_of(int(u));
    int ks[1] = {p.k[t.g]};
    int *w = ks; // expected-note {{'ks' may change here after its declaration}}
    *w = 0;
    CONSUME(ks[0]) // expected-error {{may run different trip counts}} expected-note {{task 'decayed' loops over}} expected-note {{give both inner loops the same bounds}}
  }
}
[[ts::kernel(load, decayed)]] __global__ void k_decayed(const __grid_constant__ Params p);

// Only read: the same value as the producer's, verified.
[[ts::task(ts::warps(1, 1))]]
__device__ void reads(const Params &p, ts::consumer<Ops> ops) {
  for (auto u : ts::domain(0, p.tiles)) {
    Tile t = tile_of(int(u));
    const Tile &view = t;
    const int g = peek(t) + view.group();
    (void)g;
    CONSUME(p.k[t.g])
  }
}
[[ts::kernel(load, reads)]] __global__ void k_reads(const __grid_constant__ Params p);
