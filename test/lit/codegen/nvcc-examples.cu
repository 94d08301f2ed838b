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
