// Kernels inside namespaces: the traits close and reopen the namespaces on
// the declaration's line; the body is defined right after it, inside them,
// between #line directives. The emitted file compiles without the plugin.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v CHECK %t.cu | FileCheck %s
// RUN: %clang_device -fsyntax-only -Wno-unknown-attributes %t.cu
#include <ts/ts.h>

namespace app {
inline namespace v1 {
struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 2))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 64))
    p.out[int(i)] = 1.0f;
}

// CHECK: __global__ void fill_kernel(const Params p); } } namespace ts { template <> struct kernel_traits<&::app::fill_kernel> { static constexpr unsigned smem_bytes = 0u; static constexpr unsigned threads = 64u; }; } namespace app { inline namespace v1 {{{$}}
// CHECK-NEXT: #line 1 "<libts generated: {{.*}}namespaces.cu>"
// CHECK-NEXT: __attribute__((global)) void __attribute__((launch_bounds(64, 1))) fill_kernel(const Params p) {
// CHECK-NEXT:   const unsigned ts_warp = ::ts::detail::warp_index();
// CHECK-NEXT:   if (ts_warp < 2u) { // fill
// CHECK-NEXT:     ::app::fill(p, ::ts::detail::param_t<decltype(&::app::fill), 1>());
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: #line {{[0-9]+}} "{{.*}}namespaces.cu"
// CHECK-EMPTY:
// CHECK-NEXT: } // namespace v1
[[ts::kernel(fill)]] __global__ void fill_kernel(const Params p);
} // namespace v1
} // namespace app

