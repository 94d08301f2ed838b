// Dynamic tile loops (issue 22): `for (int u : ts::tiles(next, fetch))` in
// the scheduling task, `for (int u : ts::tiles(next))` in the others. The
// loop's queue exchanges (one per tile and the end mark) are checked like
// any pipeline's, for every number of tiles and, with a k-loop whose count
// reads the tile, every sequence of counts. What would let the tasks' tile
// sequences part is an error.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DSTATIC_EPILOGUE %s -Xclang -verify=static
// RUN: %ts_device -fsyntax-only -DEXTRA_WAIT %s -Xclang -verify=extra
// RUN: %ts_device -fsyntax-only -DTWO_SCHEDULERS %s -Xclang -verify=two
// RUN: %ts_device -fsyntax-only -DWIDE %s -Xclang -verify=wide
// RUN: %ts_device -fsyntax-only -DTMA_QUEUE %s -Xclang -verify=tma
// RUN: %ts_device -fsyntax-only -DCLUSTER %s -Xclang -verify=cluster
// RUN: %ts_device -fsyntax-only -DDONE_FIRST %s -Xclang -verify=done
// RUN: %ts_device -fsyntax-only -DNOT_A_HANDLE %s -Xclang -verify=handle
// RUN: %ts_device -fsyntax-only -DNESTED %s -Xclang -verify=nested
// ok-no-diagnostics
#include <ts/ts.h>

struct Params {
  ts::tma::map<__nv_bfloat16, 64, 64> a;
  int *counter;
  int tiles, k[8];
  float *out;
};
#ifdef TMA_QUEUE
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Next { // tma-error {{tile queue 'Next' of a ts::tiles loop is tma_async, not async_async}} tma-note {{declare it ts::async_async}}
#else
struct [[ts::resource(ts::async_async, ts::stages(2))]] Next {
#endif
  int tile;
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Ops { // done-note {{'Ops': 2 empty, 0 full stages}}
  __nv_bfloat16 a[64 * 64];
};
struct [[ts::resource(ts::async_async, ts::stages(1))]] Done { // done-note {{'Done': 1 empty, 0 full stages}}
  float v[128];
};

__device__ inline int fetch(const Params &p) {
  const int u = atomicAdd(p.counter, 1);
  return u < p.tiles ? u : -1;
}

#ifdef WIDE
[[ts::task(ts::warps(4, 2))]]
#else
[[ts::task(ts::warps(4, 1))]]
#endif
__device__ void load(const Params &p, ts::producer<Next> next, ts::producer<Ops> ops // wide-note {{give it ts::warps(w, 1): its lane 0 fetches each tile and the warp shares it by __shfl_sync}}
#ifdef DONE_FIRST
                     , ts::consumer<Done> done
#endif
) {
  for (int u : ts::tiles(next, [&] { return fetch(p); })) { // wide-error {{scheduling task 'load' of tile queue 'Next' has 2 warps}} two-note {{the first is 'load'; one task fetches the tiles}}
#ifdef DONE_FIRST // waits for the previous tile's result before loading this one
    auto d = done.wait(); // done-error {{deadlock: task 'load' blocks forever on wait of 'Done' (trip count 1)}} done-note {{every wait on 'Done' needs a commit from each producer task}}
    // done-note@-1 {{circular wait: task 'load' waits for 'Done', which task 'use' commits only later; task 'use' waits for 'Ops', which task 'load' commits only later}}
    done.release(d);
#endif
    for (auto k : ts::domain(0, p.k[u % 8])) { // static-note {{found with this inner ts::domain loop running 0 times}} done-note {{found with this inner ts::domain loop running 1 time}}
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, u * 64}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void use(const Params &p, ts::consumer<Next> next, ts::consumer<Ops> ops,
                    ts::producer<Done> done) {
  for (int u : ts::tiles(next)) { // static-note {{task 'use' loops over ts::tiles(next)}}
    float acc = 0;
    for (auto k : ts::domain(0, p.k[u % 8])) {
      auto s = ops.wait(); // done-note {{task 'use' is blocked here on wait of 'Ops'}}
      acc += float(s->a[threadIdx.x]);
      ops.release(s);
    }
    auto d = done.acquire();
    d->v[threadIdx.x] = acc;
    done.commit(d);
#ifdef EXTRA_WAIT // takes a second tile's stage: the other tasks never see that tile
    auto x = next.wait(); // extra-error {{task 'use' uses tile queue 'Next' outside its ts::tiles loop}} extra-note {{only ts::tiles takes the queue's stages}}
    next.release(x);
#endif
  }
}

#ifdef STATIC_EPILOGUE // the tiles counted from the parameters: not the scheduler's
[[ts::task(ts::warps(5, 1))]]
__device__ void store(const Params &p, ts::consumer<Done> done) {
  for (auto u : ts::domain(0, p.tiles)) { // static-error {{tasks 'use' and 'store' exchange stages of 'Done' but may run different trip counts}} static-note {{task 'store' loops over ts::domain(0, p.tiles, 1)}} static-note {{loop over the same ts::domain bounds}}
    auto d = done.wait();
    p.out[u * 128 + threadIdx.x % 32] = d->v[threadIdx.x % 32];
    done.release(d);
  }
}
#elif defined(NOT_A_HANDLE)
[[ts::task(ts::warps(5, 1))]]
__device__ void store(const Params &p, ts::consumer<Next> next, ts::consumer<Done> done) {
  ts::consumer<Next> &q = next; // handle-error {{pipeline handle 'next' escapes the task}} handle-note {{use the handle only to call its operations}}
  for (int u : ts::tiles(q)) { // handle-error {{ts::tiles reads a tile queue that is not a handle parameter of the task}} handle-note {{pass the task's own ts::producer or ts::consumer of the queue}}
    auto d = done.wait();
    p.out[u * 128 + threadIdx.x % 32] = d->v[threadIdx.x % 32];
    done.release(d);
  }
}
#elif defined(NESTED) // the tiles as a k-loop of a static tile loop
[[ts::task(ts::warps(5, 1))]]
__device__ void store(const Params &p, ts::consumer<Next> next, ts::consumer<Done> done) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (int u : ts::tiles(next)) { // nested-error {{a ts::tiles loop is nested in the task's loop}} nested-note {{make it the task's loop, directly in the task body}}
      auto d = done.wait();
      p.out[u * 128 + threadIdx.x % 32] = d->v[threadIdx.x % 32];
      done.release(d);
    }
  }
}
#elif defined(TWO_SCHEDULERS)
[[ts::task(ts::warps(5, 1))]]
__device__ void store(const Params &p, ts::producer<Next> next, ts::consumer<Done> done) {
  for (int u : ts::tiles(next, [&] { return fetch(p); })) { // two-error {{tile queue 'Next' has a second scheduling task 'store'}}
    auto d = done.wait();
    p.out[u * 128 + threadIdx.x % 32] = d->v[threadIdx.x % 32];
    done.release(d);
  }
}
#else
[[ts::task(ts::warps(5, 1))]]
__device__ void store(const Params &p, ts::consumer<Next> next, ts::consumer<Done> done) {
  for (int u : ts::tiles(next)) {
    auto d = done.wait();
    p.out[u * 128 + threadIdx.x % 32] = d->v[threadIdx.x % 32];
    done.release(d);
  }
}
#endif

#ifdef CLUSTER
[[ts::kernel(load, use, store, ts::cluster_shape(2))]] // cluster-note {{the CTAs of a cluster would fetch different tiles}}
__global__ void dyn(const __grid_constant__ Params p); // cluster-error {{kernel 'dyn' has a cluster and a ts::tiles loop over software queue 'Next'}}
#elif defined(DONE_FIRST)
[[ts::kernel(load, use)]]
__global__ void dyn(const __grid_constant__ Params p);
#else
[[ts::kernel(load, use, store)]]
__global__ void dyn(const __grid_constant__ Params p);
#endif

// CHECK: load {{.*}}produces Next, Ops  tiles(next) > domain(0, p.k[u % 8], 1)
// CHECK: use {{.*}}consumes Next, Ops  produces Done  tiles(next) > domain(0, p.k[u % 8], 1)
// CHECK: store {{.*}}consumes Next, Done  produces -  tiles(next)
// CHECK: Next  async_async  stages 2  payload 4 B  arrivals full 32 / empty 160
// CHECK: protocol: inner loop 0 to {{[0-9]+}} times, any count in each tile
