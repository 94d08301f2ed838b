// Found by test/fuzz (an out-of-memory abort): domains whose bounds differ
// by a huge constant. A constant bound counts as the int the domain gets
// (4294967296 converts to 0, as at run time), and bounds that really differ
// by more than 16384 iterations are checked for the last 16384 trip counts
// with a ts-bound warning, not enumerated.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-constant-conversion -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; }; // expected-note {{'Buf': 0 empty, 2 full stages}}

[[ts::task(ts::warps(0, 1))]]
__device__ void put_wrapped(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(4294967296, p.n)) { auto s = b.acquire(); s->v[0] = 1.f; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get_wrapped(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.dst[int(i)] = s->v[0]; b.release(s); }
}
[[ts::kernel(put_wrapped, get_wrapped)]] __global__ void same_domain(const Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void put_far(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n + 100000000)) { auto s = b.acquire(); s->v[0] = 1.f; b.commit(s); } // expected-error {{deadlock: task 'put_far' blocks forever on acquire of 'Buf' (p.n = -16378: trip counts put_far 99983622, get_far 0)}} expected-note {{every acquire beyond the 2 stages of 'Buf' needs a release from each consumer task}} expected-note {{trace 1/4: task 'put_far' acquire of 'Buf' (iteration 0)}} expected-note {{trace 2/4: task 'put_far' commit of 'Buf' (iteration 0)}} expected-note {{trace 3/4: task 'put_far' acquire of 'Buf' (iteration 1)}} expected-note {{trace 4/4: task 'put_far' commit of 'Buf' (iteration 1)}}
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get_far(const Params &p, ts::consumer<Buf> b) { // expected-note {{task 'get_far' has finished}}
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.dst[int(i)] = s->v[0]; b.release(s); }
}
[[ts::kernel(put_far, get_far)]] __global__ void far_apart(const Params p); // expected-warning {{trip counts of kernel 'far_apart' are verified only up to 6: the domains' bounds differ by more than 16384 iterations; runs below N = -16378 are not checked}} expected-note {{raise the bound}}
