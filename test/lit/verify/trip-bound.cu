// ts::trip_bound(N): a kernel opts out of the every-trip-count proof; the
// runtime counts up to N are still checked, and a warning says what is no
// longer proven. On constant counts it changes nothing, and says so.
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = float(i);
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[threadIdx.x % 32];
    b.release(s);
  }
}
[[ts::kernel(fill, drain, ts::trip_bound(16))]] __global__ void sampled(const Params p); // expected-warning {{kernel 'sampled' opts out of the every-trip-count proof: trip counts above 16 are not verified}} expected-note {{remove ts::trip_bound(16) to verify every trip count}}

// The bound still finds what it covers: a consumer that skips the last stage.
[[ts::task(ts::warps(1, 1))]]
__device__ void short_drain(const Params &p, ts::consumer<Buf> b) { // expected-note {{task 'short_drain' waits for 1 stage}} expected-note {{task 'short_drain' has finished after releasing 1 stage}}
  for (auto i : ts::domain(0, p.n)) {
    if (i.first()) {
      auto s = b.wait(); // expected-note {{trace 4/8: task 'short_drain' wait of 'Buf' (iteration 0)}}
      b.release(s); // expected-note {{this release runs only on the first iteration}} expected-note {{trace 5/8}}
    }
  }
}
// expected-error@15 {{1 commit of 'Buf' is never waited for (trip count 2)}}
// expected-note@15 {{every commit needs one wait in each consumer task}}
// expected-error@13 {{deadlock: task 'fill' blocks forever on acquire of 'Buf' (trip count 4)}}
// expected-note@8 {{'Buf': 0 empty, 2 full stages}}
// expected-note@13 2 {{trace}}
// expected-note@13 {{every acquire beyond the 2 stages of 'Buf' needs a release from each consumer task}}
// expected-note@15 2 {{trace}}
[[ts::kernel(fill, short_drain, ts::trip_bound(4))]] __global__ void sampled_bug(const Params p); // expected-warning {{kernel 'sampled_bug' opts out of the every-trip-count proof: trip counts above 4 are not verified}} expected-note {{remove ts::trip_bound(4)}}

[[ts::task(ts::warps(0, 1))]]
__device__ void fill8(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, 8)) {
    auto s = b.acquire();
    s->v[threadIdx.x % 32] = float(i);
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain8(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, 8)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[threadIdx.x % 32];
    b.release(s);
  }
}
[[ts::kernel(fill8, drain8, ts::trip_bound(4))]] __global__ void constant(const Params p); // expected-warning {{ts::trip_bound(4) has no effect on kernel 'constant': its trip counts are constants, verified exactly}} expected-note {{remove ts::trip_bound}}
