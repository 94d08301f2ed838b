// The hand-written 2-CTA Blackwell GEMM (test/gpu/handwritten/gemm_sm100_pair_hand.cu),
// the groundwork for libts' CTA pairs (issue 23): nvcc 13 builds it for
// sm_100a at -O3 and -G, and every tcgen05 instruction in it uses
// cta_group::2 (ptxas refuses a kernel that mixes the groups:
// docs/blackwell-facts.md, open question 3). Its PTX holds the pair
// allocation, the peer's TMA loads completing on rank 0's barrier, the
// m256n256 MMAs and the commits multicast to both CTAs; its SASS the
// 2CTA forms. Compile-verified only: no Blackwell GPU here.
// REQUIRES: nvcc
// RUN: %sm100_nvcc -O3 -ptx %src/test/gpu/handwritten/gemm_sm100_pair_hand.cu -o %t.ptx
// RUN: %sm100_nvcc -O3 -cubin %src/test/gpu/handwritten/gemm_sm100_pair_hand.cu -o %t.cubin
// RUN: %sm100_nvcc -G -cubin %src/test/gpu/handwritten/gemm_sm100_pair_hand.cu -o %t.g.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: not grep 'cta_group::1' %t.ptx
// CHECK: .entry
// CHECK: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [{{.*}}], 512;
// CHECK-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK-DAG: mapa.shared::cluster.u32
// CHECK-DAG: cp.async.bulk.tensor.2d.cta_group::2.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK-DAG: tcgen05.mma.cta_group::2.kind::f16
// CHECK-DAG: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// CHECK-DAG: mbarrier.arrive.release.cluster.shared::cluster.b64
// CHECK: tcgen05.dealloc.cta_group::2.sync.aligned.b32 {{.*}}, 512;
// The idesc of m256n256 bf16 -> f32: (1 << 4) | (1 << 7) | (1 << 10) | (32 << 17) | (16 << 24).
// RUN: grep -c 272630928 %t.ptx
// RUN: %if cuobjdump %{ %cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS %}
// SASS-DAG: UTCHMMA.2CTA
// SASS-DAG: UTCBAR.2CTA.MULTICAST
// SASS-DAG: UTMALDG.2D.2CTA
