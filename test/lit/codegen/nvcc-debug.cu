// The rewritten examples compile with nvcc -G (device debug: nothing
// inlined, setmaxnreg left out) as nvcc users build them to debug, device
// code only (-cubin: -G changes nothing on the host side, which
// codegen/nvcc-examples.cu compiles): one
// of each runtime piece (the GEMM's wgmma and TMA stores, its cluster
// build's multicast and remote arrivals, ts::tiles, im2col loads, FP8 MMAs,
// the stream-K fix-up's flags and partial sums,
// the copy's plain loads); the other examples are made of the same pieces.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.gemm.cu -o %t.gemm.cubin
// RUN: %ts_device -fsyntax-only -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm2.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.gemm2.cu -o %t.gemm2.cubin
// RUN: %ts_device -fsyntax-only %src/examples/gemm_dynamic_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.dynamic.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.dynamic.cu -o %t.dynamic.cubin
// RUN: %ts_device -fsyntax-only %src/examples/conv_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.conv.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.conv.cu -o %t.conv.cubin
// RUN: %ts_device -fsyntax-only %src/examples/gemm_fp8_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.fp8.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.fp8.cu -o %t.fp8.cubin
// RUN: %ts_device -fsyntax-only %src/examples/gemm_streamk_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.streamk.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.streamk.cu -o %t.streamk.cubin
// RUN: %ts_device -fsyntax-only %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.copy.cu
// RUN: %nvcc -G -Werror all-warnings -cubin %t.copy.cu -o %t.copy.cubin
// Only -G drops the register budgets: nvcc without -O (its host compiler at
// -O0 defines __NO_INLINE__) still optimizes device code and keeps them.
// RUN: %nvcc -ptx %t.gemm.cu -o - | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: setmaxnreg.inc.sync.aligned.u32 232
// RUN: %nvcc -G -ptx %t.gemm.cu -o - | FileCheck %s --check-prefix=DEBUG
// DEBUG-NOT: setmaxnreg
// The watchdog's build compiles with nvcc too.
// RUN: %ts_device -fsyntax-only %src/examples/tma_copy.cu -Xclang -plugin-arg-ts -Xclang -debug-hangs -Xclang -plugin-arg-ts -Xclang -emit=%t.watch.cu
// RUN: %nvcc -Werror all-warnings -c %t.watch.cu -o %t.watch.o
