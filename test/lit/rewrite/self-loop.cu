// A task may produce and consume one resource (a ping-pong through shared
// memory): it gets one cursor per role, and the rewrite compiles.
// RUN: %ts_device -S %s -o %t.ptx -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v CHECK %t.cu | FileCheck %s
// CHECK:      ::ts::detail::cursor ts_prod_0{0u, 1u};
// CHECK-NEXT: ::ts::detail::cursor ts_cons_0{0u, 0u};
// CHECK-NEXT: ::both(p, ::ts::detail::param_t<decltype(&::both), 1>(ts_pipe_0, ts_prod_0, ts_warp == 0u), ::ts::detail::param_t<decltype(&::both), 2>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once));
// CHECK-NEXT: ::ts::detail::producer_drain(ts_pipe_0, ts_prod_0);
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void both(const Params &p, ts::producer<Buf> out, ts::consumer<Buf> in) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = out.acquire();
    s->v[threadIdx.x % 32] = float(i);
    out.commit(s);
    auto t = in.wait();
    p.dst[int(i)] = t->v[threadIdx.x % 32];
    in.release(t);
  }
}
[[ts::kernel(both)]] __global__ void k(const Params p);
