// An attribute repeated on one entity (on one declaration or across its
// redeclarations) is an error at the repetition, not silently merged or
// generated twice (a second kernel body used to break the code-generating
// compile with redefinition errors).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -S -o /dev/null -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] [[ts::resource(ts::async_async, ts::stages(3))]] Buf { float v[32]; }; // expected-error {{[[ts::resource]] is given twice for 'Buf'}} expected-note {{keep only the first [[ts::resource]]}}

[[ts::task(ts::warps(0, 1))]] [[ts::task(ts::warps(2, 1))]] // expected-error {{[[ts::task]] is given twice for 'prod'}} expected-note {{keep only the first [[ts::task]]}}
__device__ void prod(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); b.commit(s); }
}

[[ts::task(ts::warps(1, 1))]] // expected-note {{keep only the first [[ts::task]]}}
__device__ void cons(const Params &p, ts::consumer<Buf> b);
[[ts::task(ts::warps(1, 1))]] // expected-error {{[[ts::task]] is given twice for 'cons'}}
__device__ void cons(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); b.release(s); }
}

[[ts::kernel(prod, cons)]] [[ts::kernel(prod, cons)]] __global__ void k1(const Params p); // expected-error {{[[ts::kernel]] is given twice for 'k1'}} expected-note {{keep only the first [[ts::kernel]]}}

[[ts::kernel(prod, cons)]] __global__ void k2(const Params p); // expected-note {{keep only the first [[ts::kernel]]}}
[[ts::kernel(prod, cons)]] __global__ void k2(const Params p); // expected-error {{[[ts::kernel]] is given twice for 'k2'}}
