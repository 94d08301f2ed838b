// The ts::async_umma and ts::umma_umma runtime (include/ts/pipeline.h) in
// PTX: the clean chain of test/lit/verify/umma-kinds.cu, rewritten and
// built by nvcc 13 for sm_100a at -O3 and -G. The threads that fill an
// async_umma stage fence it to the async proxy before they arrive; the MMAs
// that read it wait behind tcgen05.fence::after_thread_sync and hand it
// back by tcgen05.commit; the umma_umma consumer's MMAs take A from tensor
// memory. Compile-verified only: no Blackwell GPU here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror -DCLEAN %src/test/lit/verify/umma-kinds.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -DCLEAN -O3 -ptx %t.cu -o %t.ptx
// RUN: %sm100_nvcc -DCLEAN -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -DCLEAN -O3 -cubin %t.cu -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=COUNT < %t.ptx
// The arrival counts in the barrier inits: Made 128 / 2, Mid 1 / 1.
// RUN: grep -c 'init_barriers(.*, 2u, 128u); // Made.full' %t.cu
// RUN: grep -c 'init_barriers(.*, 2u, 2u); // Made.empty' %t.cu
// RUN: grep -c 'init_barriers(.*, 2u, 1u); // Mid.full' %t.cu
// RUN: grep -c 'init_barriers(.*, 2u, 1u); // Mid.empty' %t.cu
// CHECK: .entry _Z5chain6Params(
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{.*}}], 512;
// CHECK-DAG: fence.proxy.async.shared::cta;
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, p;
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16 [%r{{[0-9]+}}], [%r{{[0-9]+}}], %rd{{[0-9]+}}, %r{{[0-9]+}}, p;
// CHECK-DAG: tcgen05.fence::after_thread_sync;
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{.*}}, 512;
// Five commits: Mid's and Made's by the first MMA task, Acc's, Mid's and
// Made's by the second.
// COUNT-COUNT-5: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// COUNT-NOT: tcgen05.commit
