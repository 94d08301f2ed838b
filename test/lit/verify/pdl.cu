// Programmatic dependent launch: a task waits (ts::pdl_wait) before it
// touches data the previous grid writes, and no launch of dependents
// (ts::pdl_launch_dependents) runs before some wait, at any trip count.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DPOSITIONS -Xclang -verify=pos %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};
struct [[ts::resource(ts::gmem)]] Unused {};

#ifndef POSITIONS
// Valid: the loader waits, then loads; it lets dependents launch once its
// loop is done, and the storer after a stage the loader handed over.
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  ts::pdl_wait(); // expected-note {{task 'load' waits here, but nothing orders this before the launch}}
  for (auto i : ts::domain(0, 8)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
  ts::pdl_launch_dependents();
}
[[ts::task(ts::warps(1, 1))]]
__device__ void store(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto i : ts::domain(0, 8)) {
    auto s = t.wait();
    p.dst[int(i)] = s->v[0][threadIdx.x % 32];
    t.release(s);
  }
  ts::pdl_launch_dependents();
}
[[ts::kernel(load, store, ts::grid_dependent<Tiles>)]] __global__ void ok(const __grid_constant__ Params p);

// (a) A launch at the start of a task that waits for nothing: it can run
// before the loader's wait.
[[ts::task(ts::warps(1, 1))]]
__device__ void store_early(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  ts::pdl_launch_dependents(); // expected-error {{task 'store_early' may let dependent grids launch before any task has called ts::pdl_wait() (trip count 8)}} expected-note {{call ts::pdl_launch_dependents() after a ts::pdl_wait() of the same task, or after waiting for a stage that a waiting task hands over}}
  for (auto i : ts::domain(0, 8)) {
    auto s = t.wait();
    p.dst[int(i)] = s->v[0][threadIdx.x % 32];
    t.release(s);
  }
}
[[ts::kernel(load, store_early, ts::grid_dependent<Tiles>)]] __global__ void early(const __grid_constant__ Params p);

// (b) A runtime trip count: with p.n = 0 no stage orders the storer's launch.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_n(const Params &p, ts::producer<Tiles> t) {
  ts::pdl_wait(); // expected-note {{task 'load_n' waits here, but nothing orders this before the launch}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void store_n(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    p.dst[int(i)] = s->v[0][threadIdx.x % 32];
    t.release(s);
  }
  ts::pdl_launch_dependents(); // expected-error {{task 'store_n' may let dependent grids launch before any task has called ts::pdl_wait() (trip count 0)}} expected-note {{call ts::pdl_launch_dependents() after}}
}
[[ts::kernel(load_n, store_n, ts::grid_dependent<Tiles>)]] __global__ void runtime_n(const __grid_constant__ Params p);

// (c) A grid-dependent resource filled with no wait, and one filled before
// the wait.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_nowait(const Params &p, ts::producer<Tiles> t) { // expected-error {{task 'load_nowait' touches 'Tiles', which the previous grid writes, without calling ts::pdl_wait()}} expected-note {{call ts::pdl_wait() at the start of 'load_nowait', or mark the kernel ts::pdl_waited if it waits outside the schedule}}
  for (auto i : ts::domain(0, 8)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::kernel(load_nowait, store, ts::grid_dependent<Tiles>)]] __global__ void nowait(const __grid_constant__ Params p); // expected-note {{'Tiles' is declared grid-dependent here}} expected-note {{no task calls ts::pdl_wait(): add one before the first dependent access, or mark the kernel ts::pdl_waited if it has no predecessor or waits outside the schedule}}
// expected-error@33 {{task 'store' may let dependent grids launch before any task has called ts::pdl_wait() (trip count 8)}}

[[ts::task(ts::warps(0, 1))]]
__device__ void load_late(const Params &p, ts::producer<Tiles> t) {
  auto s = t.acquire(); // expected-note {{the first use is here}} expected-note {{call ts::pdl_wait() at the start of 'load_late'}}
  ts::tma::load(s->v, &p.src, {0, 0}, s.barrier());
  t.commit(s);
  ts::pdl_wait(); // expected-error {{task 'load_late' touches 'Tiles', which the previous grid writes, before this ts::pdl_wait()}}
  for (auto i : ts::domain(1, 8)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
  ts::pdl_launch_dependents();
}
[[ts::kernel(load_late, store, ts::grid_dependent<Tiles>)]] __global__ void late(const __grid_constant__ Params p); // expected-note {{'Tiles' is declared grid-dependent here}}

// (d) ts::pdl_waited: the kernel waits outside the schedule; nothing to check.
[[ts::kernel(load_nowait, store, ts::grid_dependent<Tiles>, ts::pdl_waited)]] __global__ void waited(const __grid_constant__ Params p);

// (e) A declaration naming a resource no task uses.
[[ts::kernel(load, store, ts::grid_dependent<Tiles, Unused>)]] __global__ void unused(const __grid_constant__ Params p); // expected-error {{ts::grid_dependent names 'Unused', which no task of kernel 'unused' uses}}
// expected-note@11 {{remove it, or give a task of the kernel a handle to it}}
#else
// Positions the model cannot follow, and malformed declarations.
[[ts::task(ts::warps(0, 1))]]
__device__ void inloop(const Params &p, ts::producer<Tiles> t) {
  for (auto i : ts::domain(0, p.n)) {
    ts::pdl_wait(); // pos-error {{ts::pdl_wait() inside the ts::domain loop}} pos-note {{wait once, before the domain loop}}
    auto s = t.acquire();
    if (i == 0) // pos-note {{an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop starts here}}
      ts::pdl_launch_dependents(); // pos-error {{'pdl_launch_dependents' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop, where libts cannot verify it}} pos-note {{call it as a statement of its own at the top level of the task body}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::kernel(inloop, ts::grid_dependent<Tiles, Tiles>, ts::pdl_waited, ts::pdl_waited)]] __global__ void k(const __grid_constant__ Params p); // pos-error {{resource 'Tiles' is listed twice}} pos-note {{list each resource once}} pos-error {{ts::pdl_waited is given twice}} pos-note {{give it once}}
#endif
