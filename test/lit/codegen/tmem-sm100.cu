// Tensor memory in the generated body: a ts::tmem resource gets its columns
// from the plan, warp 0 allocates them (and gives up the permit) before the
// block's first barrier, every warp reads the base after it, and warp 0
// frees them after the block's last barrier; a device compile for another
// architecture stops at an #error. nvcc 13 builds the rewrite for sm_100a
// (-O3 and -G); its PTX holds each tcgen05 instruction, alloc and dealloc
// once each, in that order.
// RUN: %ts_device -fsyntax-only -Werror %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '^//' %t.cu | FileCheck %s --check-prefix=BODY
// BODY: tmem_kernel(const float *in, float *out) {
// BODY-NEXT: #if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)
// BODY-NEXT: #error "kernel 'tmem_kernel' targets sm_100a: compile it with -gencode=arch=compute_100a,code=sm_100a"
// BODY-NEXT: #endif
// BODY: if (ts_warp == 0u) ::ts::detail::tmem_alloc<128u>(reinterpret_cast<::uint32_t *>(ts_smem + 25600));
// BODY-NEXT: __syncthreads();
// BODY-NEXT: const ::uint32_t ts_tmem = ::ts::detail::tmem_base(reinterpret_cast<::uint32_t *>(ts_smem + 25600));
// BODY: ::ts::detail::tmem_at{ts_tmem + 0u}
// BODY-SAME: ::ts::detail::tmem_at{ts_tmem + 64u}
// BODY: __syncthreads();
// BODY-NEXT: if (ts_warp == 0u) ::ts::detail::tmem_free<128u>(ts_tmem);
// BODY-NEXT: }
// The report and the HTML view show the columns next to shared memory.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -html=%t.html 2>&1 | FileCheck %s --check-prefix=REPORT
// REPORT: == libts kernel 'tmem_kernel': {{.*}} registers/thread, target sm_100a, 128 columns of tensor memory
// REPORT: Acc  task_owned  64 columns of tensor memory, private to its task
// REPORT: Scratch  task_owned  40 columns of tensor memory, private to its task
// REPORT: data 25600 B + barriers 0 B + tensor-memory address 16 B = 25616 B
// REPORT: [tmem-layout] kernel 'tmem_kernel'
// REPORT-NEXT: resource columns first end
// REPORT-NEXT: Acc 64 0 64
// REPORT-NEXT: Scratch 40 64 104
// REPORT-NEXT: used 104 columns, allocated 128 / capacity 512 (warp 0 allocates before the first barrier, frees after the last; address at shared offset 25600)
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// HTML: <h3>Tensor memory</h3>
// HTML: <tr><td><code>Scratch</code></td><td class="num">40</td><td class="num">64</td><td class="num">104</td>
// HTML: used 104 columns, allocated 128 / capacity 512
// REQUIRES: nvcc
// RUN: %sm100_nvcc -O3 -cubin %t.cu -o %t.cubin
// RUN: %sm100_nvcc -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -O3 -ptx %t.cu -o - | FileCheck %s --check-prefix=PTX
// PTX: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{.*}}], 128;
// PTX-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// PTX: tcgen05.fence::before_thread_sync;
// PTX: bar.sync 0;
// PTX: tcgen05.fence::after_thread_sync;
// PTX: tcgen05.mma.cta_group::1.kind::f16
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// PTX: tcgen05.ld.sync.aligned.32x32b.x8.b32
// PTX: tcgen05.wait::ld.sync.aligned;
// PTX: bar.sync 0;
// PTX: tcgen05.fence::after_thread_sync;
// PTX: tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{.*}}, 128;
// PTX-NOT: tcgen05.alloc
// PTX-NOT: tcgen05.dealloc
// A device compile for Hopper stops at the guard.
// RUN: not %nvcc -O3 -cubin %t.cu -o %t.90.cubin 2>&1 | FileCheck %s --check-prefix=GUARD
// GUARD: error: #error "kernel 'tmem_kernel' targets sm_100a
#include <ts/ts.h>
#include <cstdint>
#include <cuda_bf16.h>

// One warpgroup: stages a 128 x 64 bf16 A and 64 x 64 B tile in its own
// shared memory, runs four k16 tcgen05 MMAs into its tensor-memory
// accumulator, waits for their commit and reads D back.
struct [[ts::resource(ts::task_owned, ts::tmem(64))]] Acc {};
struct [[ts::resource(ts::task_owned, ts::tmem(40))]] Scratch {}; // at column 64: 104 used, 128 allocated
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Tiles {
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[64 * 64];
  uint64_t done;
};

[[ts::task(ts::warps(0, 4))]]
__device__ void mma(const float *in, float *out, ts::owned<Acc> acc, ts::owned<Scratch> scratch,
                    ts::owned<Tiles> t) {
  const unsigned tid = threadIdx.x;
  for (unsigned i = tid; i < 128 * 64; i += 128)
    t->a[i] = __float2bfloat16(in[i]);
  for (unsigned i = tid; i < 64 * 64; i += 128)
    t->b[i] = __float2bfloat16(in[i]);
  if (tid == 0)
    ts::detail::init_barriers(&t->done, 1u, 1u);
  ts::sync_warpgroup();
  ts::tcgen05::fence_after_thread_sync();
  if (tid == 0) {
    const uint64_t da = ts::tcgen05::make_desc_sw128(t->a);
    const uint64_t db = ts::tcgen05::make_desc_sw128(t->b);
    for (unsigned k = 0; k < 4; ++k)
      ts::tcgen05::mma_bf16(acc.tmem(), ts::tcgen05::advance_k(da, 32 * k),
                            ts::tcgen05::advance_k(db, 32 * k), ts::tcgen05::idesc_bf16(128, 64),
                            k > 0);
    ts::tcgen05::commit(&t->done);
  }
  ts::detail::wait_parity(&t->done, 0u);
  ts::tcgen05::fence_after_thread_sync();
  uint32_t r[8];
  ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(acc.tmem(), tid / 32 * 32, 0));
  ts::tcgen05::wait_ld();
  for (int j = 0; j < 8; ++j)
    out[tid * 8 + j] = __uint_as_float(r[j]) + float(scratch.tmem() - acc.tmem());
}

[[ts::kernel(mma, ts::target(ts::sm_100a))]]
__global__ void tmem_kernel(const float *in, float *out);
