// Cluster launch control (sm_100a): a ts::clc_async tile queue. Every task
// starts with its CTA's own tile; the scheduling task's try_cancel fills
// one stage per further tile, and every task of the queue reads it. The
// rules that keep every task on the same tiles, the one try_cancel per
// response and the response's type are errors with a way out.
// RUN: %ts_device -fsyntax-only -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DHOPPER %s -Xclang -verify=hopper
// RUN: %ts_device -fsyntax-only -DFETCH %s -Xclang -verify=fetch
// RUN: %ts_device -fsyntax-only -DNOFETCH %s -Xclang -verify=nofetch
// RUN: %ts_device -fsyntax-only -DPAYLOAD %s -Xclang -verify=payload
// RUN: %ts_device -fsyntax-only -DTILE_PAYLOAD %s -Xclang -verify=tile-payload
// RUN: %ts_device -fsyntax-only -DSTRAY %s -Xclang -verify=stray
// RUN: %ts_device -fsyntax-only -DMANUAL %s -Xclang -verify=manual
// RUN: %ts_device -fsyntax-only -DSTATIC %s -Xclang -verify=static
// RUN: %ts_device -fsyntax-only -DWIDE %s -Xclang -verify=wide
// RUN: %ts_device -fsyntax-only -DCLUSTER %s -Xclang -verify=cluster -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=CLUSTER
// RUN: %ts_device -fsyntax-only -DTX %s -Xclang -verify=tx
// RUN: %ts_device -fsyntax-only -DCLUSTER %s -Xclang -plugin-arg-ts -Xclang -json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// JSON: "name":"Next","kind":"clc_async"{{.*}}"full_arrivals":1,"empty_arrivals":66,"cluster_ctas":2}
// ok-no-diagnostics
// cluster-no-diagnostics
#include <ts/ts.h>

// CHECK: sched  warps [0, 1)  consumes -  produces Next, Work  tiles(next)
// CHECK: Next  clc_async  stages 2  payload 16 B  arrivals full 1 / empty 32
// CHECK: verification: PASSED
// In a cluster of 2 (rank 0 fetches for both CTAs with one multicast
// request), rank 0's empty barrier counts both CTAs' readers (the 32
// threads of 'use') and schedulers (lane 0 each): 2 x 33.
// CLUSTER: Next  clc_async  stages 2  payload 16 B  arrivals full 1 / empty 66  cluster: rank 0 fetches for all 2 CTAs, every reader hands stages back to it
// CLUSTER: verification: PASSED

#ifdef PAYLOAD // the runtime reads the response by its type
struct [[ts::resource(ts::clc_async, ts::stages(2))]] Bad { int tile; }; // payload-error {{ts::clc_async resource 'Bad' is not a ts::clc::response}} payload-note {{declare it 'struct Bad : ts::clc::response {};'}}
#endif
#ifdef TILE_PAYLOAD
struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next { int tile; };
// tile-payload-error@*:* {{ts::tiles(producer) without a fetch is the scheduler of a ts::clc_async queue}}
#elif defined(TX)
struct [[ts::resource(ts::clc_async, ts::stages(2), ts::tx_bytes(16))]] Next : ts::clc::response {}; // tx-error {{ts::tx_bytes applies only to TMA-filled}} tx-note {{remove it}}
#else
struct [[ts::resource(ts::clc_async, ts::stages(2))]] Next : ts::clc::response {}; // hopper-error {{ts::clc_async resource 'Next' is filled by cluster launch control, which kernel 'k' (target sm_90a) does not have}}
#endif

#ifdef STRAY
struct [[ts::resource(ts::async_async, ts::stages(2))]] Soft : ts::clc::response {}; // stray-error {{ts::async_async resource 'Soft' holds a ts::clc::response}} stray-note {{make the resource ts::clc_async}}
#endif
#ifdef NOFETCH
struct [[ts::resource(ts::async_async, ts::stages(2))]] Soft { int tile; };
#endif

struct [[ts::resource(ts::async_async, ts::stages(2))]] Work { int v[32]; };

#ifdef WIDE
[[ts::task(ts::warps(0, 2))]]
#else
[[ts::task(ts::warps(0, 1))]]
#endif
__device__ void sched(int *out, ts::producer<Next> next, ts::producer<Work> w
#ifdef NOFETCH
                      , ts::producer<Soft> soft
#endif
) {
#ifdef MANUAL // a second try_cancel into a stage the loop would fill too
  auto extra = next.acquire(); // manual-error {{task 'sched' uses tile queue 'Next' outside its ts::tiles loop}} manual-note {{only ts::tiles takes the queue's stages}}
  next.commit(extra);
#endif
#ifdef FETCH
  for (int u : ts::tiles(next, [] { return 0; })) { // fetch-note {{in instantiation of function template specialization}}
  // fetch-error@*:* {{ts::tiles of a ts::clc_async queue takes no fetch: cluster launch control fetches its tiles}}
#elif defined(NOFETCH)
  for (int u : ts::tiles(soft)) { // nofetch-note {{in instantiation of function template specialization}}
  // nofetch-error@*:* {{a ts::async_async queue's scheduler passes its fetch}}
#else
  for (int u : ts::tiles(next)) { // wide-error {{scheduling task 'sched' of tile queue 'Next' has 2 warps}} static-note {{task 'sched' loops over ts::tiles(next)}} tile-payload-note {{in instantiation of function template specialization}}
#endif
    auto s = w.acquire();
    s->v[threadIdx.x % 32] = u;
    w.commit(s);
  }
} // wide-note@-22 {{give it ts::warps(w, 1)}}

[[ts::task(ts::warps(2, 1))]]
__device__ void use(int *out, ts::consumer<Next> next, ts::consumer<Work> w) {
#ifdef STATIC // its own tile count: the scheduler's tiles outrun it
  for (auto t : ts::domain(0, out[0])) { // static-error {{tasks 'sched' and 'use' exchange stages of 'Next' but may run different trip counts}} static-note {{task 'use' loops over ts::domain(0, out[0], 1)}} static-note {{loop over the same ts::domain bounds}} static-error {{task 'use' holds tile queue 'Next' but does not loop over it}} static-note {{loop 'for (int u : ts::tiles(handle))'}}
    const int u = int(t);
    auto n = next.wait(); // static-error {{task 'use' uses tile queue 'Next' outside its ts::tiles loop}} static-note {{only ts::tiles takes}}
    next.release(n);
#else
  for (int u : ts::tiles(next)) {
#endif
    auto s = w.wait();
    out[u * 32 + threadIdx.x % 32] = s->v[threadIdx.x % 32];
    w.release(s);
  }
}

#ifdef HOPPER
[[ts::kernel(sched, use)]]
#elif defined(CLUSTER)
[[ts::kernel(sched, use, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
#else
[[ts::kernel(sched, use, ts::target(ts::sm_100a))]]
#endif
__global__ void k(int *out); // hopper-note {{clusterlaunchcontrol is Blackwell's: add ts::target(ts::sm_100a)}}
