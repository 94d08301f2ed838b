// The hand-written twins (the yardsticks of the zero-overhead claim) and
// the GEMM benchmark's driver compile with nvcc 13 for sm_90a, so they stay
// in step with the headers they share with libts (ts/detail.h, ts/tma.h,
// ts/cluster.h, ts/wgmma.h, ts/tensor_map.h). Nothing runs here: the GPU
// runs are scripts/gpu-run.sh and bench/gemm/run.sh.
// REQUIRES: nvcc
// RUN: %nvcc -O3 -I %src/bench/gemm -c %src/test/gpu/handwritten/gemm_sm90_hand.cu -o %t.gemm.o
// RUN: %nvcc -O3 -c %src/test/gpu/handwritten/reduce_hand.cu -o %t.reduce.o
// RUN: %nvcc -O3 -c %src/test/gpu/handwritten/tma_copy_hand.cu -o %t.copy.o
// The attention twin, as its self-check program (bench/attention's library
// build, -DATTN_HAND_LIBRARY, only leaves main() out).
// RUN: %nvcc -O3 -c %src/test/gpu/handwritten/attention_sm90_hand.cu -o %t.attn.o
// RUN: %nvcc -O3 -DATTN_HEAD_DIM=64 -c %src/test/gpu/handwritten/attention_sm90_hand.cu -o %t.attn64.o
// RUN: %nvcc -O3 -I %src/bench/gemm -DGEMM_HAND_VARIANTS=1 -DGEMM_WITH_LIBTS=1 -DGEMM_WITH_LIBTS_CLUSTER=1 -c %src/bench/gemm/bench.cu -o %t.bench.o
// The cluster variant of the twin uses the multicast load and the cluster barrier.
// RUN: %nvcc -O3 -I %src/bench/gemm -ptx %src/test/gpu/handwritten/gemm_sm90_hand.cu -o - | FileCheck %s
// CHECK: .entry _ZN9gemm_hand11gemm_kernelILi2ELb1ELb1E
// CHECK: barrier.cluster.arrive
// CHECK: multicast::cluster
// CHECK: mbarrier.arrive.relaxed.cluster.shared::cluster.b64
