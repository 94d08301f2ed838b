// examples/gemm_sm100.cu (Blackwell): verified with no findings, rewritten,
// and built by nvcc 13 for sm_100a at -O3 and -G. Its PTX holds the TMA
// loads, the tcgen05 MMAs, the commits that hand operand stages back and
// publish accumulators, the accumulator loads, and one alloc (512 columns,
// before the first barrier, permit given up) and one dealloc after the
// last barrier; and the tile scheduler's cluster launch control: one
// try_cancel (the scheduler's lane 0), its response decoded by each role,
// with a proxy fence before the stage goes back. Its hand-written twin (test/gpu/handwritten/gemm_sm100_hand.cu)
// builds the same way, and the MMA warps' k-loops of the two are identical
// in SASS up to register names (cuobjdump for sm_100a, bench/gemm/sass_diff.py).
// No Blackwell GPU runs either here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -O3 -c %t.cu -o %t.o
// RUN: %sm100_nvcc -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -O3 -ptx %t.cu -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=COUNT < %t.ptx
// CHECK: .entry _ZN7gemm10011gemm_kernelENS_6ParamsE(
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{.*}}], 512;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CHECK: bar.sync 0;
// CHECK: tcgen05.fence::after_thread_sync;
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16
// CHECK-DAG: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK-DAG: tcgen05.ld.sync.aligned.32x32b.x8.b32
// CHECK-DAG: tcgen05.wait::ld.sync.aligned;
// CHECK-DAG: tcgen05.fence::before_thread_sync;
// CHECK-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128
// CHECK-DAG: clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CHECK-DAG: clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128
// CHECK-DAG: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{.*}}, 512;
// COUNT-COUNT-1: tcgen05.alloc
// COUNT-NOT: tcgen05.alloc
// COUNT-COUNT-1: clusterlaunchcontrol.try_cancel
// COUNT-NOT: clusterlaunchcontrol.try_cancel
// The idesc of m128n256 bf16 -> f32 (docs/blackwell-facts.md, section 2).
// RUN: grep -c 138413200 %t.ptx
// RUN: %sm100_nvcc -O3 -c %src/test/gpu/handwritten/gemm_sm100_hand.cu -o %t.hand.o
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.o > %t.sass %}
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.hand.o > %t.hand.sass %}
// RUN: %if cuobjdump %{ python3 %src/bench/gemm/sass_diff.py %t.hand.sass %t.sass -a gemm100_hand -b 'gemm100.*gemm_kernel' --label-a hand --label-b libts --mma UTCHMMA --arch sm_100a | FileCheck %s --check-prefix=SASS %}
// SASS: hand main loop: {{.*}} 4 UTCHMMA); loops holding UTCHMMA: {{[^,]*}}, {{[^,]*}}{{$}}
// SASS: libts main loop: {{.*}} 4 UTCHMMA); loops holding UTCHMMA:
// SASS: UTCHMMA 4 4
// SASS: verdict: main loops identical up to register names
