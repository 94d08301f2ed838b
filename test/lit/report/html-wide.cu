// A graph wider than the page wraps onto bands of 5 columns instead of
// running off the right edge: 11 nodes in a chain give three bands, and
// the edges that cross a band turn below it and come in from the left.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -html=%t.html
// RUN: FileCheck %s --input-file=%t.html
// CHECK: <svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" aria-label="task/resource graph of kernel wide" width="1148" height="366" viewBox="0 0 1148 366">
// CHECK: <path d="M 1108 83 L 1144 83 L 1144 144 L 4 144 L 4 205 L 40 205" class="edge produce"
// CHECK: <path d="M 1108 205 L 1144 205 L 1144 266 L 4 266 L 4 327 L 40 327" class="edge consume"
#include <ts/ts.h>
struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] LongResourceName0 { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] LongResourceName1 { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] LongResourceName2 { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] LongResourceName3 { float v[32]; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] LongResourceName4 { float v[32]; };
[[ts::task(ts::warps(0, 1))]] __device__ void stage_task_0(const Params &p, ts::producer<LongResourceName0> out) {
  for (auto i : ts::domain(0, p.n)) { auto b = out.acquire(); b->v[0] = 1; out.commit(b); }
}
[[ts::task(ts::warps(1, 1))]] __device__ void stage_task_1(const Params &p, ts::consumer<LongResourceName0> in, ts::producer<LongResourceName1> out) {
  for (auto i : ts::domain(0, p.n)) { auto a = in.wait(); auto b = out.acquire(); b->v[0] = 1; out.commit(b); p.out[0] = a->v[0]; in.release(a); }
}
[[ts::task(ts::warps(2, 1))]] __device__ void stage_task_2(const Params &p, ts::consumer<LongResourceName1> in, ts::producer<LongResourceName2> out) {
  for (auto i : ts::domain(0, p.n)) { auto a = in.wait(); auto b = out.acquire(); b->v[0] = 1; out.commit(b); p.out[0] = a->v[0]; in.release(a); }
}
[[ts::task(ts::warps(3, 1))]] __device__ void stage_task_3(const Params &p, ts::consumer<LongResourceName2> in, ts::producer<LongResourceName3> out) {
  for (auto i : ts::domain(0, p.n)) { auto a = in.wait(); auto b = out.acquire(); b->v[0] = 1; out.commit(b); p.out[0] = a->v[0]; in.release(a); }
}
[[ts::task(ts::warps(4, 1))]] __device__ void stage_task_4(const Params &p, ts::consumer<LongResourceName3> in, ts::producer<LongResourceName4> out) {
  for (auto i : ts::domain(0, p.n)) { auto a = in.wait(); auto b = out.acquire(); b->v[0] = 1; out.commit(b); p.out[0] = a->v[0]; in.release(a); }
}
[[ts::task(ts::warps(5, 1))]] __device__ void stage_task_5(const Params &p, ts::consumer<LongResourceName4> in) {
  for (auto i : ts::domain(0, p.n)) { auto a = in.wait(); p.out[0] = a->v[0]; in.release(a); }
}
[[ts::kernel(stage_task_0, stage_task_1, stage_task_2, stage_task_3, stage_task_4, stage_task_5)]] __global__ void wide(const Params p);
