// Diagnostics in user code keep their file and line after the rewrite
// (checked on a compile that rewrites: -S).
// RUN: %ts_device -O0 -S %s -o /dev/null -Wunused-variable -fno-caret-diagnostics 2>&1 | FileCheck %s
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  int unused_here = 0; // CHECK: lines.cu:[[@LINE]]:7: warning: unused variable 'unused_here'
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 1.0f;
}

[[ts::kernel(fill)]] __global__ void k(const Params p);

__device__ void after(const Params &p) {
  int unused_after = 0; // CHECK: lines.cu:[[@LINE]]:7: warning: unused variable 'unused_after'
}
// CHECK-NOT: warning
