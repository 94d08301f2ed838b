// The sanitized build's pass over every example and build variant: the
// plugin verifies each with no findings under ASan and UBSan, its rewrite
// included. The normal build checks the same in the examples' mutation
// tests and codegen/opt-levels.cu, so this runs in the sanitized one only.
// REQUIRES: asan
// RUN: %ts_device -fsyntax-only -Werror %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/reduce.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_residual_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_grouped_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_dynamic_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_fp8_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_streamk_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/conv_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror -DATTN_HEAD_DIM=64 %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/ping_pong.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror -DNO_TURNS %src/test/gpu/ping_pong.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/pdl_alias.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/merge_add.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror -DGEMM_SM100_PAIR %src/examples/gemm_sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_mxf8_sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %ts_device -fsyntax-only -Werror %src/test/lit/codegen/tmem-sm100.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
