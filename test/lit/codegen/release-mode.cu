// A consumer's release waits for the TMA stores its thread issued only
// when a statement on the stage may store (ts::consumer::release with
// release_mode::after_store_reads, the default). User helpers are followed
// through their bodies: one that only computes releases at once (the
// attention example's QK^T and PV helpers); a store from the stage anywhere
// under it or a function without a body keeps the wait. (A call through
// a pointer is refused, verify/unfollowed-calls.cu, and so is inline
// assembly issuing cp.async on a stage, verify/value-flow.cu.)
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
#include <ts/ts.h>

struct Params { CUtensorMap c; int tiles; float *out; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Rows { float v[32 * 32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.acquire();
    s->v[threadIdx.x % 32] = float(t);
    r.commit(s);
  }
}

__device__ float sum_row(const float *row) { return row[threadIdx.x % 32]; }
__device__ float twice(const float *row) { return 2.f * sum_row(row); }
__device__ void store_row(const Params &p, const float *row, int t) {
  ts::tma::store(&p.c, {0, t}, row);
}
__device__ void indirect(const Params &p, const float *row, int t) { store_row(p, row, t); }
__device__ float opaque(const float *row); // no body here

// CHECK-LABEL: ::computes(p, ::ts::detail::param_t<decltype(&::computes), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once))
[[ts::task(ts::warps(1, 1))]]
__device__ void computes(const Params &p, ts::consumer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.wait();
    p.out[threadIdx.x] = twice(s->v);
    r.release(s);
  }
}
// CHECK-LABEL: ::stores(p, ::ts::detail::param_t<decltype(&::stores), 1>(ts_pipe_0, ts_cons_0))
[[ts::task(ts::warps(2, 1))]]
__device__ void stores(const Params &p, ts::consumer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.wait();
    indirect(p, s->v, int(t));
    r.release(s);
  }
}
[[ts::kernel(fill, computes, stores)]] __global__ void k_two(const __grid_constant__ Params p);

// CHECK-LABEL: ::unseen(p, ::ts::detail::param_t<decltype(&::unseen), 1>(ts_pipe_0, ts_cons_0))
[[ts::task(ts::warps(1, 1))]]
__device__ void unseen(const Params &p, ts::consumer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.wait();
    p.out[threadIdx.x] = opaque(s->v);
    r.release(s);
  }
}
[[ts::kernel(fill, unseen)]]
__global__ void k_three(const __grid_constant__ Params p);
