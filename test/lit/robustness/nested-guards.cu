// Guards do not nest: 'if (i.last())' inside 'if (i.first())' runs only
// when the loop has one trip. It used to be modelled as 'last' alone, so
// this kernel verified although it deadlocks for two or more trips.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void prod(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    if (i.first()) {
      if (i.last()) { // expected-note 2 {{an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop starts here}}
        auto s = b.acquire(); // expected-error {{pipeline operation 'acquire' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop}} expected-note {{or under 'if (i.first())', 'if (i.last())' or their negations in the innermost of those loops}}
        b.commit(s); // expected-error {{pipeline operation 'commit' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop}} expected-note {{pipeline operations may stand only}}
      }
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void cons(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n))
    if (i.last()) { auto s = b.wait(); b.release(s); }
}
[[ts::kernel(prod, cons)]] __global__ void k(const Params p);
