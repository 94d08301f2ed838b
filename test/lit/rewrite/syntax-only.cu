// -fsyntax-only (and clangd) analyses and reports but never compiles a
// rewrite: the rewritten text defines __LIBTS_GENERATED__, which would hit
// the #error below. A compile that generates code does use the rewrite.
// RUN: %ts_device -fsyntax-only %s
// RUN: not %ts_device -S %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: compiled the rewrite
#include <ts/ts.h>
#ifdef __LIBTS_GENERATED__
#error compiled the rewrite
#endif

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 1.0f;
}
[[ts::kernel(fill)]] __global__ void k(const Params p);
