// The driver plans and verifies each kernel exactly once per compile: a
// code-generating compile decides a kernel where its definition is parsed
// (after its declaration) and the end of the translation unit reuses that
// decision for the diagnostics and reports; an analysis-only compile
// decides each kernel at the end.
// RUN: %ts_device -O1 -S -o /dev/null -Xclang -plugin-arg-ts -Xclang -stats -Wno-unknown-warning-option -Wts-padding %s 2>&1 | FileCheck %s
// RUN: %ts_device -fsyntax-only -Xclang -plugin-arg-ts -Xclang -stats -Wno-unknown-warning-option -Wts-padding %s 2>&1 | FileCheck %s
// Each kernel's finding is shown once, in source order, then the count.
// CHECK: once.cu:32:38: warning: warps [1, 4) of warp group 0 have no task
// CHECK-NOT: warning:
// CHECK: once.cu:33:39: warning: warps [1, 4) of warp group 0 have no task
// CHECK-NOT: warning:
// CHECK: once.cu:34:38: warning: warps [1, 4) of warp group 0 have no task
// CHECK-NOT: warning:
// CHECK: libts: 3 kernel plans and verifications
// CHECK-NEXT: libts: analysis {{[0-9]+\.[0-9]}} ms
// CHECK-NOT: libts:
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 1.0f;
}
[[ts::task(ts::warps(0, 1), ts::regs(48))]]
__device__ void fill2(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 2.0f;
}
[[ts::kernel(fill)]] __global__ void k1(const Params p);
[[ts::kernel(fill2)]] __global__ void k2(const Params p);
[[ts::kernel(fill)]] __global__ void k3(const Params p);
