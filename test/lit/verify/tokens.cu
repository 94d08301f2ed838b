// A try_ token reaches exactly the next blocking op of its handle, in the
// same iteration: a ready token skips the barrier wait, so any other token
// reads or overwrites a stage still in flight.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; }; // expected-note {{'A': 1 empty, 0 full stages}}

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) { // expected-note {{task 'load' has finished after committing 1 stage}}
  for (auto i : ts::domain(0, p.n)) {
    auto t = a.try_acquire(); // expected-note {{trace 1/5: task 'load' try_acquire of 'A' (iteration 0)}}
    auto s = a.acquire(t); // fine: its own token // expected-note {{trace 3/5: task 'load' acquire of 'A' (iteration 0)}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    a.commit(s); // expected-note {{trace 4/5: task 'load' commit of 'A' (iteration 0)}}
  }
}

// (a) A forged token.
[[ts::task(ts::warps(1, 1))]]
__device__ void forged(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait(ts::token(true)); // expected-error {{wait of 'A' is given a token that no try_wait of this handle returned}} expected-note {{pass the token of 'auto t = h.try_wait();' taken just before, in the same iteration; a forged ready token skips the wait and reads a stage still in flight}}
    p.dst[int(i)] = s->v[0][0];
    a.release(s);
  }
}
[[ts::kernel(load, forged)]] __global__ void k_a(const __grid_constant__ Params p);

// (b) A token taken once before the loop and reused by every iteration.
[[ts::task(ts::warps(1, 1))]]
__device__ void reused(const Params &p, ts::consumer<A> a) {
  auto t = a.try_wait(); // expected-warning {{try_wait of 'A' is not followed by wait in the same iteration}} expected-note {{pass its token to wait(token) after it, in the same iteration and under the same guard}} expected-note {{the token comes from this try_wait, which tested an earlier stage or iteration}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait(t); // expected-error {{wait of 'A' uses a token that does not test this stage}} expected-note {{take the token right before the blocking op, in the same iteration}}
    p.dst[int(i)] = s->v[0][0];
    a.release(s);
  }
}
[[ts::kernel(load, reused)]] __global__ void k_b(const __grid_constant__ Params p);

// (c) A try_wait at the end of the iteration for the next one: on the last
// iteration no wait follows it.
[[ts::task(ts::warps(1, 1))]]
__device__ void dangling(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    p.dst[int(i)] = s->v[0][0];
    a.release(s);
    auto t = a.try_wait(); // expected-warning {{try_wait of 'A' is not followed by wait in the same iteration}} expected-note {{pass its token to wait(token) after it, in the same iteration and under the same guard}}
    (void)t;
  }
}
[[ts::kernel(load, dangling)]] __global__ void k_c(const __grid_constant__ Params p);

// (d) A token that another wait came between.
[[ts::task(ts::warps(1, 1))]]
__device__ void stale(const Params &p, ts::consumer<A> a) {
  for (auto i : ts::domain(0, p.n)) {
    auto t = a.try_wait(); // expected-note {{the token comes from this try_wait, which tested an earlier stage or iteration}} expected-note {{trace 2/5: task 'stale' try_wait of 'A' (iteration 0)}}
    auto s = a.wait(); // expected-note {{task 'stale' holds 1 stage of 'A' it waited for but never released}} expected-note {{trace 5/5: task 'stale' wait of 'A' (iteration 0)}}
    auto u = a.wait(t); // expected-error {{wait of 'A' uses a token that does not test this stage}} expected-error {{deadlock: task 'stale' blocks forever on wait of 'A' (trip count 1)}} expected-note {{take the token right before the blocking op, in the same iteration}} expected-note {{every acquire beyond the 2 stages of 'A' needs a release from each consumer task}}
    p.dst[int(i)] = s->v[0][0] + u->v[0][0];
    a.release(s);
    a.release(u);
  }
}
[[ts::kernel(load, stale)]] __global__ void k_d(const __grid_constant__ Params p);
