// Two producer tasks fill one TMA stage (A and B of a GEMM stage from two
// warps). The stage must expect its bytes once: the plan lets the first
// producer's leader arm the whole payload and the other's only arrive (on
// the H200, both arming the whole payload hung every launch: the barrier
// waited for twice the bytes the loads delivered).
// RUN: %ts_device -O3 -S %s -o %t.ptx -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.cu | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=REWRITE --input-file=%t.cu
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// RUN: %ts_cubin -O0 -c %s -o %t.o
// REPORT: Ops  tma_async  stages 2  payload 8192 B  tx 8192 B (armed by 'load_a')  arrivals full 2 / empty 128
// REPORT: verification: PASSED (0 error(s), 0 warning(s))
// REWRITE: ::load_a(p, ::ts::detail::param_t<decltype(&::load_a), 1>(ts_pipe_0, ts_prod_0, ts_warp == 4u));
// REWRITE: ::load_b(p, ::ts::detail::param_t<decltype(&::load_b), 1>(ts_pipe_0, ts_prod_0, ts_warp == 5u, ::ts::detail::fill_mode::arrives));
// One expect_tx in the kernel: load_a's.
// PTX: .entry
// PTX-COUNT-1: mbarrier.arrive.expect_tx
// PTX-NOT: mbarrier.arrive.expect_tx
#include <ts/ts.h>
struct Params { CUtensorMap a, b; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Ops { float a[32][32]; float b[32][32]; };

[[ts::task(ts::warps(4, 1))]]
__device__ void load_a(const Params &p, ts::producer<Ops> ops) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = ops.acquire();
    ts::tma::load(s->a, &p.a, {0, i * 32}, s.barrier());
    ops.commit(s);
  }
}
[[ts::task(ts::warps(5, 1))]]
__device__ void load_b(const Params &p, ts::producer<Ops> ops) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = ops.acquire();
    ts::tma::load(s->b, &p.b, {0, i * 32}, s.barrier());
    ops.commit(s);
  }
}
[[ts::task(ts::warps(0, 4))]]
__device__ void use(const Params &p, ts::consumer<Ops> ops) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = ops.wait();
    p.dst[int(i) * 128 + threadIdx.x] = s->a[0][threadIdx.x % 32] + s->b[0][threadIdx.x % 32];
    ops.release(s);
  }
}
[[ts::kernel(load_a, load_b, use)]] __global__ void k(const __grid_constant__ Params p);
