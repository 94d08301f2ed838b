// ts::alias: resources that take turns using one buffer get one base, and
// every use of a phase must happen before the next phase's first use.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DDECL -Xclang -verify=decl %s
// RUN: %ts_device -fsyntax-only -DLAYOUT %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Staging { float v[64][64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s); // expected-note {{a thread of task 'load' may still be before this last commit of 'Tiles' (iteration 0)}}
  }
}
// The task that drains the tiles hands a sum over after its loop; the
// epilogue waits for it, so every thread of 'compute' is done with the
// tiles before the staging buffer (the same bytes) is written.
struct [[ts::resource(ts::async_async, ts::stages(1))]] Sum { float v; };
[[ts::task(ts::warps(1, 1))]]
__device__ void compute(const Params &p, ts::consumer<Tiles> t, ts::producer<Sum> sum) {
  float acc = 0;
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    acc += s->v[0][threadIdx.x % 32];
    t.release(s);
  }
  auto o = sum.acquire();
  o->v = acc;
  sum.commit(o);
}
[[ts::task(ts::warps(2, 1))]]
__device__ void epilogue(const Params &p, ts::consumer<Sum> sum, ts::producer<Staging> st) {
  auto a = sum.wait();
  float v = a->v;
  sum.release(a);
  auto o = st.acquire();
  o->v[0][threadIdx.x % 32] = v;
  st.commit(o);
}
[[ts::task(ts::warps(3, 1))]]
__device__ void store(const Params &p, ts::consumer<Staging> st, ts::producer<Out>) {
  auto o = st.wait();
  p.dst[threadIdx.x % 32] = o->v[0][threadIdx.x % 32];
  st.release(o);
}
[[ts::kernel(load, compute, epilogue, store, ts::alias<Tiles, Staging>)]] __global__ void ok(const __grid_constant__ Params p);

#if !defined(DECL) && !defined(LAYOUT)
// (a) The staging buffer filled by a task nothing orders after the tiles.
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    p.dst[int(i)] = s->v[0][threadIdx.x % 32];
    t.release(s);
  }
}
[[ts::task(ts::warps(2, 1))]]
__device__ void fill(const Params &p, ts::producer<Staging> st) {
  auto o = st.acquire(); // expected-error {{race: task 'fill' may use 'Staging' (acquire, the head) while task 'load' still uses 'Tiles', which shares its bytes (trip count 1)}} expected-note {{order them: make 'fill' wait, before its first use of 'Staging', for a stage that every thread of 'load' hands over after its last use of 'Tiles'}}
  o->v[0][threadIdx.x % 32] = 1;
  st.commit(o);
}
[[ts::task(ts::warps(3, 1))]]
__device__ void show(const Params &p, ts::consumer<Staging> st, ts::producer<Out>) {
  auto o = st.wait();
  p.dst[threadIdx.x % 32] = o->v[0][threadIdx.x % 32];
  st.release(o);
}
[[ts::kernel(load, drain, fill, show, ts::alias<Tiles, Staging>)]] __global__ void racy(const __grid_constant__ Params p); // expected-note {{'Tiles' and 'Staging' share shared memory here, 'Tiles' first}}

// (b) The tiles' own task writes the staging buffer right after its loop:
// one of its threads may still read the last tile when another writes.
[[ts::task(ts::warps(1, 1))]]
__device__ void compute_fill(const Params &p, ts::consumer<Tiles> t, ts::producer<Staging> st) {
  float acc = 0;
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    acc += s->v[0][threadIdx.x % 32];
    t.release(s); // expected-note {{a thread of task 'compute_fill' may still be before this last release of 'Tiles' (iteration 0); the task's other threads do not wait for it}}
  }
  auto o = st.acquire(); // expected-error {{race: task 'compute_fill' may use 'Staging' (acquire, the tail) while task 'compute_fill' still uses 'Tiles', which shares its bytes (trip count 1)}} expected-note {{order them: make 'compute_fill' wait, before its first use of 'Staging', for a stage that every thread of 'compute_fill' hands over after its last use of 'Tiles' (a stage of another task that needs it)}}
  o->v[0][threadIdx.x % 32] = acc;
  st.commit(o);
}
[[ts::kernel(load, compute_fill, store, ts::alias<Tiles, Staging>)]] __global__ void same_task(const __grid_constant__ Params p); // expected-note {{'Tiles' and 'Staging' share shared memory here, 'Tiles' first}}

// (c) A phase no task of the kernel uses.
[[ts::kernel(load, drain, ts::alias<Tiles, Staging>)]] __global__ void unused_phase(const __grid_constant__ Params p); // expected-error {{ts::alias names 'Staging', which no task of kernel 'unused_phase' uses}}
// expected-note@10 {{remove it, or give a task of the kernel a handle to it}}
#endif

#ifdef DECL
[[ts::kernel(load, compute, store, ts::alias<Tiles, Out>)]] __global__ void gmem_phase(const __grid_constant__ Params p); // decl-error {{'Out' has no shared memory to alias}}
// decl-note@11 {{only pipelined resources (tma_async, async_async) can share bytes, since the verifier proves each phase ends from their stage hand-backs}}
[[ts::kernel(load, compute, store, ts::alias<Tiles>)]] __global__ void one_phase(const __grid_constant__ Params p); // decl-error {{ts::alias needs at least two resources}} decl-note {{write ts::alias<First, Second, ...>}}
[[ts::kernel(load, compute, store, ts::alias<Tiles, Staging>, ts::alias<Staging, Tiles>)]] __global__ void twice(const __grid_constant__ Params p); // decl-error {{'Staging' is in two ts::alias groups}} decl-note {{list every phase of one buffer in a single ts::alias<...>}}
[[ts::kernel(load, compute, store, ts::alias<Tiles, Tiles>)]] __global__ void repeated(const __grid_constant__ Params p); // decl-error {{resource 'Tiles' is listed twice}} decl-note {{list each resource once}}
#endif

#ifdef LAYOUT
[[ts::kernel(load, compute, epilogue, store)]] __global__ void apart(const __grid_constant__ Params p);
// CHECK-LABEL: [smem-layout] kernel 'ok'
// CHECK:   Tiles           tma_async         4      4096    128         0     16384
// CHECK:   Sum             async_async       1       128    128     16384     16512
// CHECK:   Staging         async_async       1     16384    128         0     16384
// CHECK:   data 16512 B + barriers 96 B = 16608 B
// CHECK:   alias: Tiles then Staging (one base)
// CHECK:   alias savings 16384 B
// CHECK-LABEL: [smem-layout] kernel 'apart'
// CHECK:   Tiles           tma_async         4      4096    128         0     16384
// CHECK:   Staging         async_async       1     16384    128     16512     32896
// CHECK:   data 32896 B + barriers 96 B
// CHECK-NOT: alias
// CHECK: verification: PASSED
#endif
