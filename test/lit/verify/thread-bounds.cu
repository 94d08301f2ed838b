// ts-domain: every warp of a task arrives on its pipelines' barriers once
// per iteration, so a domain bound that differs between the task's threads
// breaks the arrival counts, in any kernel. What a bound reads is followed
// through locals and helper functions (plugin/frontend/Variance.cpp).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -Werror -DOK %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; const int *counts; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};

// Valid: the bound is a kernel parameter, a block index, or read from
// memory (unseen: the verifier does not guess).
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  for (auto i : ts::domain(blockIdx.x, p.counts[blockIdx.x], gridDim.x)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto i : ts::domain(blockIdx.x, p.counts[blockIdx.x], gridDim.x)) {
    auto s = t.wait();
    p.dst[threadIdx.x] += s->v[0][threadIdx.x % 32];
    t.release(s);
  }
}
[[ts::kernel(load, use)]] __global__ void ok(const __grid_constant__ Params p);

#ifndef OK
// Each warp group of the consumer runs its own count.
__device__ int my_count(const Params &p) { return p.n - int(threadIdx.x / 128) % 2; } // expected-note {{it depends on threadIdx.x, which differs between threads}} expected-note {{it depends on threadIdx.x: one value in this task's threads, another in a task on other warps, so tasks that exchange stages would run different counts}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_n(const Params &p, ts::producer<Tiles> t) {
  // One warp: threadIdx.x / 128 is 0 in all of its threads, but 0 or 1 in
  // the consumer's.
  for (auto i : ts::domain(0, my_count(p))) { // expected-error {{the trip count of this ts::domain loop of task 'load_n' depends on which warps run the task}} expected-note {{bound the loop by values every task shares (kernel parameters, blockIdx, the tile)}}
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 8))]]
__device__ void use_split(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto i : ts::domain(0, my_count(p))) { // expected-error {{the trip count of this ts::domain loop of task 'use_split' may differ between its threads}} expected-note {{each warp of the task arrives on its pipelines' barriers once per iteration; bound the loop by values every thread shares (kernel parameters, blockIdx, a value broadcast through shared memory before the loop, or by __shfl_sync in a task of one warp)}}
    auto s = t.wait();
    p.dst[threadIdx.x] += s->v[0][threadIdx.x % 32];
    t.release(s);
  }
}
[[ts::kernel(load_n, use_split)]] __global__ void split(const __grid_constant__ Params p);

// Every thread claims its own count with an atomic.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_claim(const Params &p, ts::producer<Tiles> t, int *counter) {
  const int n = atomicAdd(counter, 1); // expected-note {{it depends on atomicAdd(), which differs between threads}}
  for (auto i : ts::domain(0, n)) { // expected-error {{the trip count of this ts::domain loop of task 'load_claim' may differ between its threads}} expected-note {{each warp of the task arrives}}
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_claim(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>, int *counter) {
  const int n = atomicAdd(counter, 1); // expected-note {{it depends on atomicAdd(), which differs between threads}}
  for (auto i : ts::domain(0, n)) { // expected-error {{the trip count of this ts::domain loop of task 'use_claim' may differ between its threads}} expected-note {{each warp of the task arrives}}
    auto s = t.wait();
    p.dst[threadIdx.x] += s->v[0][threadIdx.x % 32];
    t.release(s);
  }
}
[[ts::kernel(load_claim, use_claim)]] __global__ void claims(const __grid_constant__ Params p, int *counter);
#endif
