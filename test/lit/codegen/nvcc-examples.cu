// Every bundled example is verified, rewritten, and the rewrite compiles
// unchanged with nvcc 13 for sm_90a.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Wno-ts-padding %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.tma_copy.cu
// RUN: %nvcc -O3 -c %t.tma_copy.cu -o %t.tma_copy.o
// RUN: %ts_device -fsyntax-only -Wno-ts-padding %src/examples/reduce.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.reduce.cu
// RUN: %nvcc -O3 -c %t.reduce.cu -o %t.reduce.o
// RUN: %nvcc -O3 -c %t.reduce.cu -o - -ptx | FileCheck %s
// CHECK: mbarrier.try_wait.parity
// CHECK: mbarrier.arrive
// The GPU regression test with a two-warp TMA producer task goes the same way.
// RUN: %ts_device -fsyntax-only -DTMA_PRODUCER_WARPS=2 -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.multiwarp.cu
// RUN: FileCheck %s --check-prefix=MULTI --input-file=%t.multiwarp.cu
// MULTI: if (ts_warp >= 4u && ts_warp < 6u) { // load
// RUN: %nvcc -O3 -c %t.multiwarp.cu -o %t.multiwarp.o
// The TMA-store variant: one consumer warp stores stages with TMA, and
// release() waits for the store's shared-memory reads before arriving.
// RUN: %ts_device -fsyntax-only -DTMA_STORE=1 -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.store.cu
// RUN: %nvcc -O3 -ptx %t.store.cu -o - | FileCheck %s --check-prefix=STORE
// STORE: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// STORE: cp.async.bulk.commit_group
// STORE: cp.async.bulk.wait_group.read 0
// STORE: mbarrier.arrive
// The GPU regression test for PDL and alias groups verifies clean and its
// emission compiles.
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/pdl_alias.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.pdl.cu
// RUN: %nvcc -O3 -c %t.pdl.cu -o %t.pdl.o
// The attention example (issue 21). The benchmarks build each example as a
// library with -D..._NO_MAIN, which only leaves main() out: not compiled again.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.attn.cu
// RUN: %nvcc -O3 -c %t.attn.cu -o %t.attn.o
// The GEMM with a residual epilogue loop (issue 22), as a program.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_residual_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.res.cu
// RUN: %nvcc -O3 -c %t.res.cu -o %t.res.o
// The grouped GEMM (issue 22).
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_grouped_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.grouped.cu
// RUN: %nvcc -O3 -Werror all-warnings -c %t.grouped.cu -o %t.grouped.o
// The GEMM with a dynamic tile scheduler (issue 22).
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_dynamic_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.dynamic.cu
// RUN: %nvcc -O3 -Werror all-warnings -c %t.dynamic.cu -o %t.dynamic.o
// The implicit-GEMM convolution (issue 22).
// RUN: %ts_device -fsyntax-only -Werror %src/examples/conv_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.conv.cu
// RUN: %nvcc -O3 -Werror all-warnings -c %t.conv.cu -o %t.conv.o
// The FP8 GEMM with per-block scaling (issue 22).
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_fp8_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.fp8.cu
// RUN: %nvcc -O3 -Werror all-warnings -c %t.fp8.cu -o %t.fp8.o
// The stream-K GEMM (issue 22).
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_streamk_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.streamk.cu
// RUN: %nvcc -O3 -Werror all-warnings -c %t.streamk.cu -o %t.streamk.o
// The benchmarks' drivers of these (linked with cuBLAS on the GPU machine).
// RUN: %nvcc -O3 -c %src/bench/gemm/grouped.cu -o %t.grouped.bench.o
// RUN: %nvcc -O3 -c %src/bench/gemm/residual.cu -o %t.residual.bench.o
// RUN: %nvcc -O3 -c %src/bench/gemm/dynamic.cu -o %t.dynamic.bench.o
// RUN: %nvcc -O3 -c %src/bench/gemm/streamk.cu -o %t.streamk.bench.o
// So does the one for turns (ts::turns ping-pong), with and without them.
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/ping_pong.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.pp.cu
// RUN: %nvcc -O3 -c %t.pp.cu -o %t.pp.o
// RUN: %ts_device -fsyntax-only -Werror -DNO_TURNS %src/test/gpu/ping_pong.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.ppn.cu
// RUN: %nvcc -O3 -DNO_TURNS -c %t.ppn.cu -o %t.ppn.o
// And the one for ts::merge (TMA and threads fill one stage), at -O3 and -G.
// RUN: %ts_device -fsyntax-only -Werror %src/test/gpu/merge_add.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.merge.cu
// RUN: %nvcc -O3 -c %t.merge.cu -o %t.merge.o
// RUN: %nvcc -G -c %t.merge.cu -o %t.merge.g.o
