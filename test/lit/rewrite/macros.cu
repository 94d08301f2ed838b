// The rewrite was laid out under the command line's -D/-U, so it restates
// them: the emitted file compiles alone, and compiling it with other values
// is a loud redefinition rather than a kernel laid out for another shape.
// RUN: %ts_device -fsyntax-only -DSTAGES=3 -UNOT_THERE %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
// RUN: %clang_device -fsyntax-only -Werror %t.cu
// RUN: not %clang_device -fsyntax-only -Werror -DSTAGES=5 %t.cu 2>&1 | FileCheck %s --check-prefix=CLASH
// CHECK:      #define __LIBTS_GENERATED__ 1
// CHECK-NEXT: #define STAGES 3
// CHECK-NEXT: #undef NOT_THERE
// CHECK-NEXT: #line 1
// CHECK:      static constexpr unsigned smem_bytes = 12448u;
// CLASH: error: 'STAGES' macro redefined
#include <ts/ts.h>

#ifndef STAGES
#define STAGES 4
#endif
struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(STAGES))]] Tiles { float v[32][32]; };

[[ts::task(ts::warps(4, 4))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}
[[ts::task(ts::warps(0, 4))]]
__device__ void use(const Params &p, ts::consumer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i)] = s->v[0][threadIdx.x % 32];
    tiles.release(s);
  }
}
[[ts::kernel(load, use)]] __global__ void k(const __grid_constant__ Params p);
