// Each stage is used only while the task holds it, handed back once, and
// stages of one resource are handed back in an order the barriers allow.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] A { float v[32][32]; }; // expected-note {{'A': 3 empty, 0 full stages}}

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) { // expected-note {{task 'load' has finished after committing 1 stage}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.acquire(); // expected-note {{trace 1/3: task 'load' acquire of 'A' (iteration 0)}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    a.commit(s); // expected-note {{trace 2/3: task 'load' commit of 'A' (iteration 0)}}
  }
}

// (a) A pointer into the stage used after the release.
[[ts::task(ts::warps(1, 1))]]
__device__ void pointer(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    const float *row = &s->v[0][0];
    a.release(s); // expected-note {{the stage was released here; another task may now overwrite it}}
    p.dst[int(i)] = row[threadIdx.x % 32]; // expected-error {{stage of 'A' is used after it was released}} expected-note {{move the use before the release}}
  }
}
[[ts::kernel(load, pointer)]] __global__ void k_a(const __grid_constant__ Params p);

// (b) Two stages held at once, handed back newest first within the iteration:
// the order is fine (each slot has its own barriers), the count is not.
[[ts::task(ts::warps(1, 1))]]
__device__ void newest_first(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait(); // expected-note {{task 'newest_first' holds 1 stage of 'A' it waited for but never released}} expected-note {{trace 3/3: task 'newest_first' wait of 'A' (iteration 0)}}
    auto t = a.wait(); // expected-error {{deadlock: task 'newest_first' blocks forever on wait of 'A' (trip count 1)}} expected-note {{every acquire beyond the 4 stages of 'A' needs a release from each consumer task}}
    p.dst[int(i)] = s->v[0][0] + t->v[0][0];
    a.release(t);
    a.release(s);
  }
}
[[ts::kernel(load, newest_first)]] __global__ void k_b(const __grid_constant__ Params p);

// (c) The same stage released twice.
[[ts::task(ts::warps(1, 1))]]
__device__ void twice(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    p.dst[int(i)] = s->v[0][0];
    a.release(s); // expected-note {{the last stage was released here}} expected-note {{the stage was released here}}
    a.release(s); // expected-error {{release of 'A' without an open wait}} expected-error {{release of 'A' hands back a stage that was already released}} expected-note {{wait a stage before the release}} expected-note {{hand each stage back exactly once}}
  }
}
[[ts::kernel(load, twice)]] __global__ void k_c(const __grid_constant__ Params p);
