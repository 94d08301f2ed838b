// An emitted file fed back through the plugin is recognised as generated:
// it is verified again, compiled unchanged, and -emit writes it as it is.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -x cuda %t.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.again.cu
// RUN: cmp %t.cu %t.again.cu
// RUN: %ts_device -S -x cuda %t.cu -o %t.ptx -Xclang -plugin-arg-ts -Xclang -emit=%t.codegen.cu
// RUN: cmp %t.cu %t.codegen.cu
// RUN: FileCheck %s --input-file=%t.ptx
// CHECK-COUNT-1: .entry _Z1k6Params(
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 1.0f;
}
[[ts::kernel(fill)]] __global__ void k(const Params p);
