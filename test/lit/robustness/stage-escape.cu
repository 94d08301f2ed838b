// A stage is touched only through the variable its acquire()/wait() bound:
// copies, arrays of stages and lambdas would hide when it is touched.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    auto copy = s; // expected-error {{stage 'copy' does not come from acquire() or wait()}} expected-note {{take each stage as}}
    ts::stage<Buf> both[1] = {s}; // expected-error {{stage 'both' does not come from acquire() or wait()}} expected-note {{take each stage as}}
    auto later = [&] { s->v[0] = 1.f; }; // expected-error {{stage 's' is used inside a lambda}} expected-note {{use the stage directly}}
    b.commit(s);
    later();
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(fill, drain)]] __global__ void k(const Params p);
