// Carried stage variables the verifier cannot follow are errors at the
// variable or the assignment: a resource the task has no handle of, an
// assignment to a stage an operation bound, one hidden under a condition,
// one inside an expression, one from something else than a stage
// variable; and one used in a lambda or declared inside a block.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify
#include <ts/ts.h>

struct Params { CUtensorMap a; int k_tiles; int flag; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tile { float v[32][32]; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Other { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Out { float v[32][32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> t) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.a, {int(k) * 32, 0}, s.barrier());
    t.commit(s);
  }
}

[[ts::task(ts::warps(1, 2))]]
__device__ void use(const Params &p, ts::consumer<Tile> tiles, ts::producer<Out> out) {
  ts::stage<Tile> prev;
  ts::stage<Other> other; // expected-error {{stage variable 'other' holds stages of 'Other', but the task has no handle of it}} expected-note {{carry stages of a resource the task takes a ts::producer or ts::consumer handle of}}
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    auto o = out.acquire();
    if (p.flag)
      prev = s; // expected-error {{assignment to stage 'prev' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop, where libts cannot verify it}} expected-note {{pipeline operations may stand only at the top level of the task body, directly in the body of its ts::domain loop or of a ts::domain loop directly in that one (a k-loop), or under 'if (i.first())', 'if (i.last())' or their negations in the innermost of those loops}}
    // expected-note@-2 {{an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop starts here}}
    s = prev; // expected-error {{assignment to stage 's', which an operation bound}} expected-note {{declare 'ts::stage<R> prev;' where pipeline operations may stand and assign it a stage the task took: 'prev = s;'}}
    prev = ts::stage<Tile>(); // expected-error {{stage variable 'prev' may be assigned only a stage variable}} expected-note {{declare 'ts::stage<R> prev;' where pipeline operations may stand and assign it a stage the task took: 'prev = s;'}}
    if (p.flag) {
      ts::stage<Tile> inner; // expected-error {{stage 'inner' does not come from acquire() or wait()}} expected-note {{take each stage as 'auto s = h.acquire();' or 'auto s = h.wait();' and use that variable; a stage kept for a later iteration is declared 'ts::stage<R> prev;' where pipeline operations may stand}}
    }
    [&] { return prev->v[0][0]; }(); // expected-error {{stage 'prev' is used inside a lambda}} expected-note {{use the stage directly in the task body, where the verifier sees when it is touched}}
    (void)(prev = s); // expected-error {{assignment to stage 'prev' is in a position libts cannot verify}} expected-note {{pipeline operations may stand only at the top level of the task body, directly in the body of its ts::domain loop or of a ts::domain loop directly in that one (a k-loop), or under 'if (i.first())', 'if (i.last())' or their negations in the innermost of those loops}}
    tiles.release(s);
    out.commit(o);
  }
}

[[ts::task(ts::warps(2, 3))]]
__device__ void drain(const Params &p, ts::consumer<Out> out) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = out.wait();
    out.release(s);
  }
}
[[ts::kernel(load, use, drain)]] __global__ void k(const __grid_constant__ Params p);
