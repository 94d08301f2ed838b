// Every trip count: runtime trip counts are decided for all N, constant
// ones exactly at any size (no cap).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 %s -Xclang -plugin-arg-ts -Xclang -json=%t.json 2>/dev/null; FileCheck %s --check-prefix=JSON --input-file=%t.json
// The JSON report carries the counterexample: the events of the run on the
// blocked pipeline, in order, ending at the blocked op's predecessor.
// JSON: "message":"deadlock: task 'load' blocks forever on acquire of 'KV' (trip count 5)"
// JSON-SAME: "trace_events":12,"trace":[{"task":"load","op":"acquire","resource":"KV","when":"iteration 0"
// JSON-SAME: {"task":"load","op":"commit","resource":"KV","when":"iteration 3","at":"{{.*}}every-trip.cu:{{[0-9]+}}:{{[0-9]+}}"}]}
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };

// (a) The loader commits the query tile only after its KV loop, while the
// consumer waits for the query tile before its loop: the KV stages fill up
// (2 + 2 through a relay task) and it hangs from N = 5. Trip counts 0, 1, 2,
// stages and stages + 1 all pass; the bound from the steady state does not.
struct [[ts::resource(ts::tma_async, ts::stages(1))]] Q { float v[32][32]; }; // expected-note {{'Q': 0 empty, 0 full stages}}
struct [[ts::resource(ts::tma_async, ts::stages(2))]] KV { float v[32][32]; }; // expected-note {{'KV': 0 empty, 2 full stages}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] S { float v[32][32]; }; // expected-note {{'S': 0 empty, 2 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Q> q, ts::producer<KV> kv) {
  auto sq = q.acquire();
  ts::tma::load(sq->v, &p.src, {0, 0}, sq.barrier());
  for (auto i : ts::domain(0, p.n)) {
    auto s = kv.acquire(); // expected-error {{deadlock: task 'load' blocks forever on acquire of 'KV' (trip count 5)}} expected-note {{circular wait: task 'load' waits for 'KV' holding 'Q', which task 'relay' releases only later; task 'relay' waits for 'S', which task 'attend' releases only later; task 'attend' waits for 'Q', which task 'load' commits only later}} expected-note {{trace 7/12: task 'load' acquire of 'KV' (iteration 2)}} expected-note {{trace 11/12: task 'load' acquire of 'KV' (iteration 3)}} expected-note {{every acquire beyond the 2 stages of 'KV' needs a release from each consumer task}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    kv.commit(s); // expected-note {{trace 9/12: task 'load' commit of 'KV' (iteration 2)}} expected-note {{trace 12/12: task 'load' commit of 'KV' (iteration 3)}}
  }
  q.commit(sq);
}
[[ts::task(ts::warps(1, 1))]]
__device__ void relay(const Params &p, ts::consumer<KV> kv, ts::producer<S> out) {
  for (auto i : ts::domain(0, p.n)) {
    auto o = out.acquire(); // expected-note {{task 'relay' is blocked here on acquire of 'S'}}
    auto s = kv.wait(); // expected-note {{trace 8/12: task 'relay' wait of 'KV' (iteration 1)}}
    o->v[0][threadIdx.x % 32] = s->v[0][threadIdx.x % 32];
    out.commit(o);
    kv.release(s); // expected-note {{trace 10/12: task 'relay' release of 'KV' (iteration 1)}}
  }
}
[[ts::task(ts::warps(2, 1))]]
__device__ void attend(const Params &p, ts::consumer<Q> q, ts::consumer<S> in) {
  auto sq = q.wait(); // expected-note {{task 'attend' is blocked here on wait of 'Q'}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = in.wait();
    p.dst[int(i)] = s->v[0][0] * sq->v[0][0];
    in.release(s);
  }
  q.release(sq);
}
[[ts::kernel(load, relay, attend)]] __global__ void k_a(const __grid_constant__ Params p);

// (b) Constant trip counts 1000 and 1001: one wait too many. Exact, not
// simulated at a capped count.
struct [[ts::resource(ts::tma_async, ts::stages(4))]] C { float v[32][32]; }; // expected-note {{'C': 4 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<C> c) { // expected-note {{task 'load_c' has finished after committing 1000 stages}}
  for (auto i : ts::domain(0, 1000)) {
    auto s = c.acquire(); // expected-note {{trace 3995/4000: task 'load_c' acquire of 'C' (iteration 999)}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    c.commit(s); // expected-note {{trace 3997/4000: task 'load_c' commit of 'C' (iteration 999)}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_c(const Params &p, ts::consumer<C> c) {
  for (auto i : ts::domain(0, 1001)) {
    auto s = c.wait(); // expected-error {{deadlock: task 'use_c' blocks forever on wait of 'C' (trip counts load_c 1000, use_c 1001)}} expected-note {{trace 3996/4000: task 'use_c' wait of 'C' (iteration 998)}} expected-note {{trace 3999/4000: task 'use_c' wait of 'C' (iteration 999)}} expected-note {{every wait on 'C' needs a commit from each producer task}}
    p.dst[int(i)] = s->v[0][0];
    c.release(s); // expected-note {{trace 3998/4000: task 'use_c' release of 'C' (iteration 998)}} expected-note {{trace 4000/4000: task 'use_c' release of 'C' (iteration 999)}}
  }
}
[[ts::kernel(load_c, use_c)]] __global__ void k_b(const __grid_constant__ Params p);

// (c) 2^30 iterations on both sides: fine, and decided from the steady
// state in a few iterations.
struct [[ts::resource(ts::tma_async, ts::stages(3))]] D { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_d(const Params &p, ts::producer<D> d) {
  for (auto i : ts::domain(0, 1 << 30)) {
    auto s = d.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    d.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_d(const Params &p, ts::consumer<D> d) {
  for (auto i : ts::domain(0, 1 << 30)) {
    auto s = d.wait();
    p.dst[int(i) % 1024] = s->v[0][0];
    d.release(s);
  }
}
[[ts::kernel(load_d, use_d)]] __global__ void k_c(const __grid_constant__ Params p);
