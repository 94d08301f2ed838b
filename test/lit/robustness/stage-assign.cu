// A stage an operation takes starts a variable of its own: `s = rows.wait()`
// into a carried variable, or into one an earlier operation bound, is one
// error at the assignment that says what to write (the operation is not
// reported again as hidden in the assignment's call).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] A { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<A> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void carried(const Params &p, ts::consumer<A> rows) {
  ts::stage<A> s;
  for (auto i : ts::domain(0, p.n)) {
    s = rows.wait(); // expected-error {{'s = rows.wait()' puts a stage the operation takes into an existing variable}} expected-note {{write 'auto s = rows.wait();' (a variable of its own, in the iteration that releases or commits it); to keep a stage past its iteration, declare 'ts::stage<R> prev;' before the loop and copy it: 'prev = s;'}}
    p.out[0] = s->v[0];
    rows.release(s);
  }
}
[[ts::kernel(fill, carried)]] __global__ void k_carried(const Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void rebound(const Params &p, ts::consumer<A> rows) {
  auto s = rows.wait();
  rows.release(s);
  for (auto i : ts::domain(0, p.n)) {
    s = rows.wait(); // expected-error {{'s = rows.wait()' puts a stage the operation takes into an existing variable}} expected-note {{write 'auto s = rows.wait();'}}
    rows.release(s);
  }
}
[[ts::kernel(fill, rebound)]] __global__ void k_rebound(const Params p);
