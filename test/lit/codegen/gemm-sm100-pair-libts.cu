// examples/gemm_sm100.cu with -DGEMM_SM100_PAIR (2-CTA MMA): verified with
// no findings, rewritten, and built by nvcc 13 for sm_100a at -O3 and -G
// (ptxas takes one CTA group per kernel, dead branches included, so a -G
// build is the check that no cta_group::1 form is left). Its PTX holds the
// pair forms only: each CTA's TMA half completing on rank 0's barrier
// (.cta_group::2 with the mapa'd address), m256 MMAs, commits multicast
// to both CTAs, the pair's alloc and dealloc. The MMA warp's k-loop is the
// hand-written pair GEMM's (test/gpu/handwritten/gemm_sm100_pair_hand.cu)
// in SASS up to register names and the barriers' offsets (the example
// also holds a CLC queue in front of them). No Blackwell GPU runs it here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror -DGEMM_SM100_PAIR %src/examples/gemm_sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -O3 -c %t.cu -o %t.o
// RUN: %sm100_nvcc -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -O3 -ptx %t.cu -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=NOT1 < %t.ptx
// CHECK: .entry _ZN7gemm10011gemm_kernelENS_6ParamsE(
// CHECK: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{.*}}], 512;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK: barrier.cluster.arrive
// CHECK-DAG: mapa.shared::cluster.u32
// CHECK-DAG: cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-DAG: tcgen05.mma.cta_group::2.kind::f16
// CHECK-DAG: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// CHECK-DAG: tcgen05.ld.sync.aligned.32x32b.x8.b32
// CHECK-DAG: clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// CHECK: barrier.cluster.arrive
// CHECK: tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{.*}}, 512;
// NOT1-NOT: cta_group::1
// The idesc of m256n256 bf16 -> f32 (docs/blackwell-facts.md, section 2).
// RUN: grep -c 272630928 %t.ptx
// RUN: %sm100_nvcc -O3 -c %src/test/gpu/handwritten/gemm_sm100_pair_hand.cu -o %t.hand.o
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.o > %t.sass %}
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.hand.o > %t.hand.sass %}
// RUN: %if cuobjdump %{ python3 %src/bench/gemm/sass_diff.py %t.hand.sass %t.sass -a gemm100_pair -b 'gemm100.*gemm_kernel' --label-a hand --label-b libts --mma UTCHMMA --arch sm_100a | FileCheck %s --check-prefix=SASS %}
// SASS: hand main loop: {{.*}} 4 UTCHMMA);
// SASS: libts main loop: {{.*}} 4 UTCHMMA);
// SASS: UTCHMMA 4 4
// SASS: -SYNCS.PHASECHK.TRANS64.TRYWAIT P, [UR+0x20000], R
// SASS-NEXT: +SYNCS.PHASECHK.TRANS64.TRYWAIT P, [UR+0x20120], R
// SASS: -UIADD3 UR, UPT, UPT, UR, 0x20020, URZ
// SASS-NEXT: +UIADD3 UR, UPT, UPT, UR, 0x20140, URZ
// SASS: UTCBAR.2CTA.MULTICAST [UR], URZ, UR
// SASS: -SYNCS.PHASECHK.TRANS64.TRYWAIT P, [UR+0x20000], R
// SASS-NEXT: +SYNCS.PHASECHK.TRANS64.TRYWAIT P, [UR+0x20120], R
// SASS: verdict: differ: 3 lines
