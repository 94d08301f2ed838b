// Tasks that exchange stages must run the same trip count: bounds that
// differ by a constant (step 1) are followed exactly, anything else that may
// differ is an error naming both domains.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };

// (a) p.n against p.n + 1: one wait more than commits, for every launch.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; }; // expected-note {{'A': 2 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_a(const Params &p, ts::producer<A> r) { // expected-note {{task 'load_a' has finished after committing 0 stages}}
  for (auto i : ts::domain(0, p.n, 1)) {
    auto s = r.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_a(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n + 1)) {
    auto s = a.wait(); // expected-error {{deadlock: task 'use_a' blocks forever on wait of 'A' (p.n = 0: trip counts load_a 0, use_a 1)}} expected-note {{every wait on 'A' needs a commit from each producer task}}
    p.dst[int(i)] = s->v[0][0];
    a.release(s);
  }
}
[[ts::kernel(load_a, use_a)]] __global__ void k_a(const __grid_constant__ Params p);

// (b) A grid-stride loop against a plain one.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] B { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_b(const Params &p, ts::producer<B> r) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) { // expected-note {{task 'load_b' loops over ts::domain(blockIdx.x, p.n, gridDim.x)}}
    auto s = r.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_b(const Params &p, ts::consumer<B> b) {
  for (auto i : ts::domain(0, p.n)) { // expected-error {{tasks 'load_b' and 'use_b' exchange stages of 'B' but may run different trip counts}} expected-note {{task 'use_b' loops over ts::domain(0, p.n, 1)}} expected-note {{loop over the same ts::domain bounds (with step 1, bounds may differ by a constant: the verifier follows that exactly)}}
    auto s = b.wait();
    p.dst[int(i)] = s->v[0][0];
    b.release(s);
  }
}
[[ts::kernel(load_b, use_b)]] __global__ void k_b(const __grid_constant__ Params p);

// (c) A constant against a runtime count.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] C { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<C> r) {
  for (auto i : ts::domain(0, 8, 1)) { // expected-note {{task 'load_c' loops over ts::domain(0, 8, 1)}}
    auto s = r.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_c(const Params &p, ts::consumer<C> c) {
  for (auto i : ts::domain(0, p.n)) { // expected-error {{tasks 'load_c' and 'use_c' exchange stages of 'C' but may run different trip counts}} expected-note {{task 'use_c' loops over ts::domain(0, p.n, 1)}} expected-note {{loop over the same ts::domain bounds (with step 1, bounds may differ by a constant: the verifier follows that exactly)}}
    auto s = c.wait();
    p.dst[int(i)] = s->v[0][0];
    c.release(s);
  }
}
[[ts::kernel(load_c, use_c)]] __global__ void k_c(const __grid_constant__ Params p);

// (d) Constant 8 against constant 9: exact, a deadlock.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] D { float v[32][32]; }; // expected-note {{'D': 2 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_d(const Params &p, ts::producer<D> r) { // expected-note {{task 'load_d' has finished after committing 8 stages}}
  for (auto i : ts::domain(0, 8, 1)) {
    auto s = r.acquire(); // expected-note {{trace 27/32: task 'load_d' acquire of 'D' (iteration 7)}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    r.commit(s); // expected-note {{trace 29/32: task 'load_d' commit of 'D' (iteration 7)}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_d(const Params &p, ts::consumer<D> d) {
  for (auto i : ts::domain(0, 9)) {
    auto s = d.wait(); // expected-error {{deadlock: task 'use_d' blocks forever on wait of 'D' (trip counts load_d 8, use_d 9)}} expected-note {{trace 28/32: task 'use_d' wait of 'D' (iteration 6)}} expected-note {{trace 31/32: task 'use_d' wait of 'D' (iteration 7)}} expected-note {{every wait on 'D' needs a commit from each producer task}}
    p.dst[int(i)] = s->v[0][0];
    d.release(s); // expected-note {{trace 30/32: task 'use_d' release of 'D' (iteration 6)}} expected-note {{trace 32/32: task 'use_d' release of 'D' (iteration 7)}}
  }
}
[[ts::kernel(load_d, use_d)]] __global__ void k_d(const __grid_constant__ Params p);

// (e) Offsets are followed exactly: the consumer takes the first stage
// before its loop, which starts one later. Right for p.n >= 0, but when
// p.n is -1 the producer loops zero times and the consumer still waits.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] E { float v[32][32]; }; // expected-note {{'E': 2 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_e(const Params &p, ts::producer<E> r) { // expected-note {{task 'load_e' has finished after committing 0 stages}}
  for (auto i : ts::domain(0, p.n + 1, 1)) {
    auto s = r.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_e(const Params &p, ts::consumer<E> e) {
  auto first = e.wait(); // expected-error {{deadlock: task 'use_e' blocks forever on wait of 'E' (p.n = -1: trip count 0)}} expected-note {{every wait on 'E' needs a commit from each producer task}}
  p.dst[0] = first->v[0][0];
  e.release(first);
  for (auto i : ts::domain(1, p.n + 1)) {
    auto s = e.wait();
    p.dst[int(i)] = s->v[0][0];
    e.release(s);
  }
}
[[ts::kernel(load_e, use_e)]] __global__ void k_e(const __grid_constant__ Params p);
