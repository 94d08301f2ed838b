// Rewrites that used to produce files that do not compile: a kernel in a
// braceless extern "C" (the traits closed a scope that is not there), in an
// anonymous namespace ('::(anonymous namespace)::k'), with a default
// argument (repeated on the generated definition), and a resource that is
// an explicit template specialization (spelt without its arguments).
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %clang_device -fsyntax-only %t.cu
// RUN: %ts_device -S -o /dev/null %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cg.cu
// RUN: cmp %t.cu %t.cg.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
template <class T> struct Tile;
template <> struct [[ts::resource(ts::async_async, ts::stages(2))]] Tile<float> { float v[32]; };

namespace {
[[ts::task(ts::warps(0, 1))]]
__device__ void prod(const Params &p, ts::producer<Tile<float>> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void cons(const Params &p, ts::consumer<Tile<float>> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.dst[i] = s->v[0]; b.release(s); }
}
// CHECK: kernel_traits<&::in_anon>
[[ts::kernel(prod, cons)]] __global__ void in_anon(const Params p);
}

// CHECK: void k_c(const Params p); namespace ts { template <> struct kernel_traits<&::k_c> {{.*}}; }{{$}}
extern "C" [[ts::kernel(prod, cons)]] __global__ void k_c(const Params p);

// CHECK: void with_default(const Params p, int extra = 3); namespace ts
[[ts::kernel(prod, cons)]] __global__ void with_default(const Params p, int extra = 3);

// CHECK: launch_bounds(64, 1))) with_default(const Params p, int extra) {
// CHECK: ::cons(p, ::ts::detail::param_t<decltype(&::cons), 1>(ts_pipe_0, ts_cons_0,
