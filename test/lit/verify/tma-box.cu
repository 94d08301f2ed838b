// A TMA load delivers its descriptor's box. A ts::tma::map carries the box
// in its type, so the stage's armed bytes are checked against it; a plain
// CUtensorMap's box is set on the host, where a box smaller than the
// destination leaves the stage waiting forever (ts-tma-box says so).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wts-tma-box -Xclang -verify %s
#include <ts/ts.h>

struct Params {
  ts::tma::map<float, 32, 32> whole; // the box of A::v
  ts::tma::map<float, 16, 32> half;  // half of it
  ts::tma::map<float, 64, 32> twice; // two of it
  CUtensorMap raw;
  float *dst;
  int n;
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] B { float v[32][32]; }; // expected-note {{a load delivers its ts::tma::map's box (a plain CUtensorMap's is taken to be its destination): declare ts::tx_bytes(N) with the bytes the loads deliver}}
struct [[ts::resource(ts::tma_async, ts::stages(2))]] C { float v[32][32]; }; // expected-note {{a load delivers its ts::tma::map's box}}
struct [[ts::resource(ts::tma_async, ts::stages(2))]] D { float v[32][32]; };

// Two half boxes at offsets fill the stage: the box says how many bytes
// each delivers, where the destination (an offset) cannot.
[[ts::task(ts::warps(0, 1))]]
__device__ void halves(const Params &p, ts::producer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.acquire();
    ts::tma::load(&s->v[0][0], &p.half, {0, int(i) * 32}, s.barrier());
    ts::tma::load(&s->v[16][0], &p.half, {0, int(i) * 32 + 16}, s.barrier());
    a.commit(s);
  }
}

// One half box into the whole member: the armed payload never completes.
[[ts::task(ts::warps(1, 1))]]
__device__ void one_half(const Params &p, ts::producer<B> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-note {{acquire armed 4096 transaction bytes here (the payload); consumers of the stage wait forever for the rest}}
    ts::tma::load(&s->v[0][0], &p.half, {0, int(i) * 32}, s.barrier()); // expected-error {{TMA loads into 'B' deliver 2048 bytes per stage, but its acquire arms 4096 [-Wts-tma-bytes]}}
    b.commit(s);
  }
}

// A box larger than the object it lands in writes past it.
[[ts::task(ts::warps(2, 1))]]
__device__ void too_big(const Params &p, ts::producer<C> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.acquire(); // expected-note {{acquire armed 4096 transaction bytes here (the payload); the phase completes before the last bytes land and the surplus counts against a later phase}}
    ts::tma::load(s->v, &p.twice, {0, int(i) * 32}, s.barrier()); // expected-error {{the box of '&p.twice' is 8192 bytes, larger than the 4096 bytes of the destination: the load writes past it [-Wts-tma-bytes]}} expected-note {{a ts::tma::map's box is its type: declare the map as ts::tma::map<float, 32, 32> or load into an object of the box's size}} expected-error {{TMA loads into 'C' deliver 8192 bytes per stage, but its acquire arms 4096 [-Wts-tma-bytes]}}
    c.commit(s);
  }
}

// A plain CUtensorMap: the box is taken to be the destination, and said so.
[[ts::task(ts::warps(3, 1))]]
__device__ void plain(const Params &p, ts::producer<D> d) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = d.acquire();
    ts::tma::load(s->v, &p.raw, {0, int(i) * 32}, s.barrier()); // expected-warning {{TMA load through '&p.raw', a plain CUtensorMap: its box is set on the host, so libts takes it to be the 4096 bytes of the destination [-Wts-tma-box]}} expected-note {{declare the descriptor as ts::tma::map<float, 32, 32> and encode it with ts::tensor_map::encode, which takes the box from the type; the bytes are then checked against the box}}
    d.commit(s);
  }
}

[[ts::task(ts::warps(4, 1))]]
__device__ void use(const Params &p, ts::consumer<A> a, ts::consumer<B> b, ts::consumer<C> c,
                    ts::consumer<D> d) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    auto t = b.wait();
    auto u = c.wait();
    auto v = d.wait();
    p.dst[int(i)] = s->v[0][0] + t->v[0][0] + u->v[0][0] + v->v[0][0];
    d.release(v);
    c.release(u);
    b.release(t);
    a.release(s);
  }
}
[[ts::kernel(halves, one_half, too_big, plain, use)]] __global__ void k(const __grid_constant__ Params p);
