// Task-owned shared memory ([[ts::resource(ts::task_owned)]], taken as
// ts::owned<R>): placed in the layout with no barriers, private to one task.
// Every misuse is an error at the user's line.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DTWO %s -Xclang -verify=two
// RUN: %ts_device -fsyntax-only -DOK %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DOK %s -Xclang -plugin-arg-ts -Xclang -json=%t.json
// RUN: FileCheck %s --check-prefix=JSON < %t.json
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Work { float v[32]; };
struct [[ts::resource(ts::task_owned)]] Scratch { float v[4][32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void make(const Params &p, ts::producer<Work> w) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = w.acquire();
    s->v[threadIdx.x % 32] = float(int(i));
    w.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<Work> w, ts::owned<Scratch> mine) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = w.wait();
    mine->v[int(i) % 4][threadIdx.x % 32] = s->v[threadIdx.x % 32];
    w.release(s);
  }
  __syncwarp();
  p.out[threadIdx.x % 32] = mine->v[0][threadIdx.x % 32];
}
[[ts::kernel(make, use)]] __global__ void ok(const Params p);

// CHECK: use  warps [1, 2)  consumes Work  produces -  owns Scratch
// CHECK: Scratch  task_owned  512 B, private to its task
// CHECK: [smem-layout] kernel 'ok'
// CHECK-NEXT: resource        kind         stages   stage B  align    offset       end
// CHECK-NEXT: Work            async_async       2       128    128         0       256
// CHECK-NEXT: Scratch         task_owned        1       512    128       256       768
// CHECK-NEXT: barrier                    count  arrivals    offset
// CHECK-NEXT: Work.full                2 x 8 B        32       768
// CHECK-NEXT: Work.empty               2 x 8 B        32       784
// CHECK-NEXT: data 768 B + barriers 32 B = 800 B (launch size 912 B) / capacity 232448 B
// CHECK: verification: PASSED
// JSON: "name":"use",{{.*}}"owns":["Scratch"]
// JSON: {"name":"Scratch","kind":"task_owned","stages":1,"payload_bytes":512,"tx_bytes":0,"offset":256,"stage_stride":512,"align":128}

#ifdef TWO
// A second task taking the same memory would race with the first.
[[ts::task(ts::warps(2, 1))]]
__device__ void peek(const Params &p, ts::owned<Scratch> theirs) { // two-error {{task-owned resource 'Scratch' is taken by task 'peek' and by task 'use'}}
  p.out[0] = theirs->v[0][0];
}
[[ts::kernel(make, use, peek)]] __global__ void shared_owner(const Params p);
// two-note@25 {{memory a task owns has no barriers, so only one task of a kernel may touch it; to pass data between tasks, make 'Scratch' a pipeline (ts::async_async)}}
#elif !defined(OK)
// A pipeline handle of owned memory, owned memory of a pipeline.
[[ts::task(ts::warps(0, 1))]]
__device__ void wrong_handle(ts::producer<Scratch> s) {} // expected-error {{'Scratch' is task-owned shared memory, not a pipeline}} expected-note {{take it as 'ts::owned<Scratch> s'}}
[[ts::task(ts::warps(0, 1))]]
__device__ void wrong_kind(ts::owned<Work> w) {} // expected-error {{ts::owned<Work>: 'Work' is a ts::async_async resource}}
// expected-note@12 {{declare it [[ts::resource(ts::task_owned)]], or take a producer or consumer handle of it}}
[[ts::task(ts::warps(0, 1))]]
__device__ void by_ref(const ts::owned<Scratch> &s) {} // expected-error {{take task-owned memory by value}} expected-note {{write 'ts::owned<R> s'}}
[[ts::task(ts::warps(0, 1))]]
__device__ void twice(ts::owned<Scratch> a, ts::owned<Scratch> b) {} // expected-error {{task 'twice' takes 'Scratch' twice}} expected-note {{one ts::owned parameter per resource}}

// Stages, aliasing and grid dependence do not apply.
struct [[ts::resource(ts::task_owned, ts::stages(2))]] Staged { float v[8]; }; // expected-error {{a ts::task_owned resource has no stages}} expected-note {{remove ts::stages; for several buffers, give the struct an array of them}}
struct [[ts::resource(ts::task_owned)]] Empty {}; // expected-error {{task-owned resource 'Empty' has no payload}} expected-note {{give the struct the members the task keeps in shared memory}}
[[ts::kernel(make, use, ts::alias<Scratch, Work>)]] __global__ void aliased(const Params p); // expected-error {{'Scratch' is task-owned: the schedule does not show when it is used}}
// expected-note@13 {{only pipelined resources (tma_async, async_async) can share bytes, since the verifier proves each phase ends from their stage hand-backs}}
[[ts::kernel(make, use, ts::grid_dependent<Scratch>)]] __global__ void dependent(const Params p); // expected-error {{'Scratch' is task-owned shared memory, which no grid before this one can write}}
// expected-note@13 {{list the resources whose data the previous grid writes (gmem ones, or pipelines that load it)}}
#endif
