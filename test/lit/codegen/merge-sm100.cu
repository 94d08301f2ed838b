// ts::merge in PTX: the clean kernel of test/lit/verify/merge.cu, rewritten
// and built by nvcc 13 for sm_100a at -O3 and -G. One operand stage, one
// full barrier: the load task's leader arms the 16384 bytes of A
// (mbarrier.arrive.expect_tx), the thread task's threads each fence their
// stores to the async proxy and arrive (the barrier counts 1 + 128).
// Compile-verified only: no Blackwell GPU here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror -DCLEAN %src/test/lit/verify/merge.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -DCLEAN -O3 -ptx %t.cu -o %t.ptx
// RUN: %sm100_nvcc -DCLEAN -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -DCLEAN -O3 -cubin %t.cu -o %t.cubin
// RUN: grep -c 'init_barriers(.*, 4u, 129u); // Ops.full' %t.cu
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry _Z6merged6Params(
// CHECK-DAG: mbarrier.arrive.expect_tx
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: mbarrier.arrive.shared.b64
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16
// CHECK-DAG: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.dealloc
