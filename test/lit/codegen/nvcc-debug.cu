// The rewritten examples compile with nvcc -G (device debug: nothing
// inlined, setmaxnreg left out) as nvcc users build them to debug.
// REQUIRES: nvcc
// RUN: %ts_device -O3 -S %src/examples/gemm_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.gemm.cu -o %t.gemm.o
// RUN: %ts_device -O3 -S -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.gemm2.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.gemm2.cu -o %t.gemm2.o
// RUN: %ts_device -O3 -S %src/examples/gemm_residual_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.residual.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.residual.cu -o %t.residual.o
// RUN: %ts_device -O3 -S %src/examples/gemm_grouped_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.grouped.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.grouped.cu -o %t.grouped.o
// RUN: %ts_device -O3 -S %src/examples/gemm_dynamic_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.dynamic.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.dynamic.cu -o %t.dynamic.o
// RUN: %ts_device -O3 -S %src/examples/conv_sm90.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.conv.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.conv.cu -o %t.conv.o
// RUN: %ts_device -O3 -S %src/examples/tma_copy.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.copy.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.copy.cu -o %t.copy.o
// RUN: %ts_device -O3 -S %src/examples/reduce.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.reduce.cu
// RUN: %nvcc -G -Werror all-warnings -c %t.reduce.cu -o %t.reduce.o
// Only -G drops the register budgets: nvcc without -O (its host compiler at
// -O0 defines __NO_INLINE__) still optimizes device code and keeps them.
// RUN: %nvcc -ptx %t.gemm.cu -o - | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: setmaxnreg.inc.sync.aligned.u32 232
// RUN: %nvcc -G -ptx %t.gemm.cu -o - | FileCheck %s --check-prefix=DEBUG
// DEBUG-NOT: setmaxnreg
// The watchdog's build compiles with nvcc too.
// RUN: %ts_device -O3 -S %src/examples/tma_copy.cu -o /dev/null -Xclang -plugin-arg-ts -Xclang -debug-hangs -Xclang -plugin-arg-ts -Xclang -emit=%t.watch.cu
// RUN: %nvcc -Werror all-warnings -c %t.watch.cu -o %t.watch.o
