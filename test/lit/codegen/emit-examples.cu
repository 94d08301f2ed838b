// The sanitized build's stand-in for nvcc-examples.cu and nvcc-debug.cu
// (which it leaves out for CI time): the plugin, under ASan and UBSan,
// verifies and rewrites every bundled example with no finding, and each
// rewrite is a whole generated file.
// REQUIRES: asan
// RUN: %ts_device -fsyntax-only -Werror %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.copy.cu
// RUN: FileCheck %s --input-file=%t.copy.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/reduce.cu -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.reduce.cu
// RUN: FileCheck %s --input-file=%t.reduce.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm.cu
// RUN: FileCheck %s --input-file=%t.gemm.cu
// RUN: %ts_device -fsyntax-only -Werror -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm2.cu
// RUN: FileCheck %s --input-file=%t.gemm2.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_residual_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.res.cu
// RUN: FileCheck %s --input-file=%t.res.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_grouped_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.grouped.cu
// RUN: FileCheck %s --input-file=%t.grouped.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.attn.cu
// RUN: FileCheck %s --input-file=%t.attn.cu
// RUN: %ts_device -fsyntax-only -Werror -DATTN_HEAD_DIM=64 %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.attn64.cu
// RUN: FileCheck %s --input-file=%t.attn64.cu
// CHECK: #define __LIBTS_GENERATED__ 1
// CHECK: struct kernel_traits<
// CHECK: #line 1 "<libts generated: {{.*}}examples/{{.*}}.cu>"
// CHECK: __attribute__((global))
