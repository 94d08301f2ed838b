// ts::fork in PTX: the clean kernel of test/lit/verify/fork.cu, rewritten
// and built by nvcc 13 for sm_100a at -O3 and -G. Its one operand pipeline
// is handed back two ways: by the MMA task's tcgen05.commit and by each
// thread of the row-sum task's mbarrier.arrive (the barrier counts 1 + 128).
// Compile-verified only: no Blackwell GPU here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror -DCLEAN %src/test/lit/verify/fork.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %sm100_nvcc -DCLEAN -O3 -ptx %t.cu -o %t.ptx
// RUN: %sm100_nvcc -DCLEAN -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -DCLEAN -O3 -cubin %t.cu -o %t.cubin
// RUN: grep -c 'init_barriers(.*, 4u, 129u); // Ops.empty' %t.cu
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry _Z6forked6Params(
// CHECK-DAG: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK-DAG: mbarrier.arrive.shared.b64
// CHECK-DAG: tcgen05.mma.cta_group::1.kind::f16
// CHECK: tcgen05.dealloc
