// The rewrite: user lines keep their numbers; tasks are force-inlined; the
// kernel's traits follow its declaration on the same line; one generated
// body with derived arrival counts, phases and layout offsets.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v CHECK %t.cu | FileCheck %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};

// CHECK:      #define __LIBTS_GENERATED__ 1
// CHECK-NEXT: #line 1 "{{.*}}tma-copy.cu"
// CHECK:      {{^}}__device__ __forceinline__ void load(const Params &p, ts::producer<Tiles> tiles) {
[[ts::task(ts::warps(4, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

// CHECK: {{^}}__device__ __forceinline__ void store(
[[ts::task(ts::warps(0, 4), ts::regs(232))]]
__device__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i) * 128 + threadIdx.x] = s->v[threadIdx.x / 32][threadIdx.x % 32];
    tiles.release(s);
  }
}

// 3 stages x 4096 B, then 3 full + 3 empty barriers: 12288 + 48 = 12336 B,
// plus 112 B to align the base to 128 at run time.
// CHECK: {{^}}{{\[\[}}ts::kernel(load, store){{\]\]}} __global__ void copy(const __grid_constant__ Params p); namespace ts { template <> struct kernel_traits<&::copy> { static constexpr unsigned smem_bytes = 12448u; static constexpr unsigned threads = 256u; }; }{{$}}
[[ts::kernel(load, store)]] __global__ void copy(const __grid_constant__ Params p);

// CHECK:      #line 1 "<libts generated: {{.*}}tma-copy.cu>"
// CHECK:      __attribute__((global)) void __attribute__((launch_bounds(256, 1))) copy(const __grid_constant__ Params p) {
// CHECK-NEXT:   extern __attribute__((shared)) __attribute__((aligned(16))) unsigned char ts_smem_raw[];
// CHECK-NEXT:   unsigned char *const ts_smem = ::ts::detail::align_base<128>(ts_smem_raw);
// CHECK-NEXT:   const unsigned ts_warp = ::ts::detail::warp_index();
// CHECK-NEXT:   if (::threadIdx.x == 0) {
// One TMA producer task arms each stage once; 128 consumer threads release.
// CHECK-NEXT:     ::ts::detail::init_barriers(reinterpret_cast<::uint64_t *>(ts_smem + 12288), 3u, 1u); // Tiles.full
// CHECK-NEXT:     ::ts::detail::init_barriers(reinterpret_cast<::uint64_t *>(ts_smem + 12312), 3u, 128u); // Tiles.empty
// CHECK-NEXT:     ::ts::detail::fence_barrier_init();
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   const ::ts::detail::pipe ts_pipe_0{ts_smem + 0, 4096u, 3u, reinterpret_cast<::uint64_t *>(ts_smem + 12288), reinterpret_cast<::uint64_t *>(ts_smem + 12312), 4096u, ::ts::pipeline_kind::tma_async}; // Tiles
// One branch per register region, setmaxnreg first in it (baseline for 8
// warps is 256 registers: both regions decrease), then the region's tasks.
// CHECK-NEXT:   if (ts_warp < 4u) { // warps [0, 4): 232 registers
// CHECK-NEXT:     ::ts::detail::setmaxnreg_dec<232>();
// CHECK-NEXT:     // store
// CHECK-NEXT:     ::ts::detail::cursor ts_cons_0{0u, 0u};
// CHECK-NEXT:     ::store(p, ::ts::detail::param_t<decltype(&::store), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once), ::ts::detail::param_t<decltype(&::store), 2>());
// CHECK-NEXT:   }
// The padding warps 5-7 enter the region, lower their budget, and leave.
// CHECK-NEXT:   else if (ts_warp >= 4u && ts_warp < 8u) { // warps [4, 8): 40 registers
// CHECK-NEXT:     ::ts::detail::setmaxnreg_dec<40>();
// CHECK-NEXT:     if (ts_warp >= 4u && ts_warp < 5u) { // load
// CHECK-NEXT:       ::ts::detail::cursor ts_prod_0{0u, 1u};
// CHECK-NEXT:       ::load(p, ::ts::detail::param_t<decltype(&::load), 1>(ts_pipe_0, ts_prod_0, ts_warp == 4u));
// CHECK-NEXT:       ::ts::detail::producer_drain(ts_pipe_0, ts_prod_0);
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
