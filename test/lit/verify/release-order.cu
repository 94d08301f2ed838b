// Every slot of a pipeline has its own barriers, so stages may be handed
// back in any order: the other side takes slots in ring order, so what it
// can use is the prefix of stages handed back. The protocol is checked with
// those credits; an order the walk cannot credit per operation (an older
// stage held past the iteration, release_oldest on the same handle) stays
// an error.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DOK %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Two { float v[32]; }; // expected-note {{'Two': 0 empty, 0 full stages}} expected-note {{ts::stages(3) on 'Two' removes it: every trip count then passes}}
struct [[ts::resource(ts::async_async, ts::stages(3))]] Three { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill_three(const Params &p, ts::producer<Three> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.acquire();
    s->v[threadIdx.x % 32] = float(int(i));
    r.commit(s);
    auto t = r.acquire();
    t->v[threadIdx.x % 32] = float(int(i));
    r.commit(t);
    auto u = r.acquire();
    u->v[threadIdx.x % 32] = float(int(i));
    r.commit(u);
  }
}

// Valid: two stages an iteration, the newer handed back first.
[[ts::task(ts::warps(1, 1))]]
__device__ void pairs(const Params &p, ts::consumer<Three> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto a = r.wait();
    auto b = r.wait();
    auto c = r.wait();
    p.dst[int(i)] = a->v[0] + b->v[0] + c->v[0];
    r.release(c);
    r.release(a);
    r.release(b);
  }
}
[[ts::kernel(fill_three, pairs)]] __global__ void k_pairs(const Params p);
// CHECK: [schedule] kernel 'k_pairs'
// CHECK: verification: PASSED
// CHECK-NEXT: checks:
// CHECK-NEXT: protocol: every trip count

#ifndef OK
// The newer of two stages goes back first, then the task waits for a third:
// with two stages its slot is the older one's, which is still held. Counting
// hand-backs would let the producer refill it; the credits do not.
[[ts::task(ts::warps(0, 1))]]
__device__ void fill_three_two(const Params &p, ts::producer<Two> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = r.acquire();
    r.commit(s); // expected-note {{trace}}
    auto t = r.acquire(); // expected-note {{trace}}
    r.commit(t); // expected-note {{trace}}
    auto u = r.acquire(); // expected-error {{deadlock: task 'fill_three_two' blocks forever on acquire of 'Two' (trip count 1)}} expected-note {{every acquire beyond the 2 stages of 'Two' needs a release from each consumer task}}
    r.commit(u);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void third_too_soon(const Params &p, ts::consumer<Two> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto a = r.wait(); // expected-note {{trace}}
    auto b = r.wait(); // expected-note {{trace}} expected-note {{task 'third_too_soon' holds 2 stages of 'Two' it waited for but never released}}
    r.release(b); // expected-note {{trace}}
    auto c = r.wait(); // expected-note {{task 'third_too_soon' is blocked here on wait of 'Two'}}
    r.release(a);
    r.release(c);
  }
}
[[ts::kernel(fill_three_two, third_too_soon)]] __global__ void k_soon(const Params p);
#endif
