// A code-generating compile of a kernel with a libts error reports that
// error, not a follow-on "undefined template ts::kernel_traits" from the
// host code that launches it: the kernel gets its traits, not its body.
// RUN: not %ts_device -S %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ts_device -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: errors-shown.cu:[[@LINE+13]]:50: error: stage of 'Buf' waited for in the loop is not released in the same iteration [-Wts-bracketing]
// CHECK-NOT: kernel_traits
// CHECK: 1 error generated
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void put(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[threadIdx.x % 32] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[int(i)] = s->v[threadIdx.x % 32]; }
}
[[ts::kernel(put, get)]] __global__ void fill(const Params p);

cudaError_t run(const Params &p) { return ts::launch<fill>(dim3(1), 0, p); }
