// Pipeline operations inside a helper that takes the handle (the way
// CUTLASS collectives are written) are not followed: the call is refused,
// naming the helper and the operations to move into the task. A helper
// that takes the stage instead is fine.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] A { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<A> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
__device__ void consume_one(const Params &p, ts::consumer<A> &rows) {
  auto s = rows.wait();
  p.out[0] = s->v[0];
  rows.release(s);
}
template <class H> __device__ void consume_any(const Params &p, H &rows) {
  auto s = rows.wait();
  p.out[0] = s->v[0];
  rows.release(s);
}
__device__ void use(const Params &p, const ts::stage<A> &s) { p.out[0] = s->v[0]; }

[[ts::task(ts::warps(1, 1))]]
__device__ void by_helper(const Params &p, ts::consumer<A> rows) {
  for (auto i : ts::domain(0, p.n))
    consume_one(p, rows); // expected-error {{pipeline handle 'rows' is passed to 'consume_one': libts follows pipeline operations only in the task body}} expected-note {{inline them: move rows.wait(), rows.release() out of 'consume_one' into the task, and pass 'consume_one' the stage instead of the handle (for example 'auto s = rows.wait(); consume_one(..., s); rows.release(s);')}}
}
[[ts::kernel(fill, by_helper)]] __global__ void k_helper(const Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void by_template(const Params &p, ts::consumer<A> rows) {
  for (auto i : ts::domain(0, p.n))
    consume_any(p, rows); // expected-error {{pipeline handle 'rows' is passed to 'consume_any'}} expected-note {{inline them: move rows.wait(), rows.release() out of 'consume_any' into the task}}
}
[[ts::kernel(fill, by_template)]] __global__ void k_template(const Params p);

[[ts::task(ts::warps(1, 1))]]
__device__ void inlined(const Params &p, ts::consumer<A> rows) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = rows.wait();
    use(p, s);
    rows.release(s);
  }
}
[[ts::kernel(fill, inlined)]] __global__ void k_inlined(const Params p);
