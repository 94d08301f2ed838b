// What libts accepts compiles to machine code at every optimization level:
// each example (and the GEMM's 2-CTA cluster build) through clang 19 and
// ptxas at -O0 and -O3, with no warning (-O1 and -O2 lie between: CI
// time). The copy,
// the reduction and the cluster build at -O0 only (CI time): their -O3
// code is made of the GEMM's pieces, and scripts/examples.sh builds all of
// them at -O3. At -O0
// nothing is inlined: the relaxed cluster arrival (PTX ISA 8.6, newer than
// clang 19 writes) and setmaxnreg (which ptxas cannot keep around calls)
// must not be emitted.
//
// The normal build only: clang's code generation is the same in the
// sanitized one, which verifies every example in verify/examples-asan.cu.
// UNSUPPORTED: asan
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_sm90.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -DGEMM_CLUSTER=2 -c %src/examples/gemm_sm90.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -c %src/examples/tma_copy.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -c %src/examples/reduce.cu -o %t.o
// The -O0 PTX has neither; the -O3 PTX keeps the register budgets.
// RUN: %ts_device -O0 -S -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -o - | FileCheck %s --check-prefix=O0
// O0-NOT: setmaxnreg
// O0-NOT: mbarrier.arrive.relaxed
// O0: .entry _ZN4gemm11gemm_kernelENS_6ParamsE(
// O0-NOT: setmaxnreg
// O0-NOT: mbarrier.arrive.relaxed
// RUN: %ts_device -O3 -S %src/examples/gemm_sm90.cu -o - | FileCheck %s --check-prefix=O3
// O3: setmaxnreg.inc.sync.aligned.u32 232
// The attention example and the turns test kernel.
// RUN: %ts_cubin -O0 -Werror -c %src/examples/attention_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/attention_sm90.cu -o %t.o
// The GEMM with a residual epilogue loop (two k-loops per tile).
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_residual_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_residual_sm90.cu -o %t.o
// The grouped GEMM (a k-count per group, 6 KiB of parameters).
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_grouped_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_grouped_sm90.cu -o %t.o
// The implicit-GEMM convolution (im2col TMA loads).
// RUN: %ts_cubin -O0 -Werror -c %src/examples/conv_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/conv_sm90.cu -o %t.o
// The GEMM with a dynamic tile scheduler (ts::tiles).
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_dynamic_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_dynamic_sm90.cu -o %t.o
// The stream-K GEMM (ts::stream_k's fix-up).
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_streamk_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_streamk_sm90.cu -o %t.o
// The FP8 GEMM with per-block scaling.
// RUN: %ts_cubin -O0 -Werror -c %src/examples/gemm_fp8_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/examples/gemm_fp8_sm90.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -DATTN_HEAD_DIM=64 -c %src/examples/attention_sm90.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -DATTN_HEAD_DIM=64 -c %src/examples/attention_sm90.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -c %src/test/gpu/ping_pong.cu -o %t.o
// RUN: %ts_cubin -O3 -Werror -c %src/test/gpu/ping_pong.cu -o %t.o
// RUN: %ts_cubin -O0 -Werror -c %src/test/gpu/merge_add.cu -o %t.o
