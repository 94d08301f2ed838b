// Inputs without a file of their own, preprocessed inputs and -include
// still become kernels: the kernel is found from its attribute, the
// definition is parsed in the same compile and spells no CUDA macro (a
// preprocessed file has none), and the emitted file restates -include.
// A precompiled header of ts/ts.h (it replaces the predefines) still
// gets the kernel generated.
// RUN: %ts_device -S - -o - < %s | FileCheck %s
// RUN: rm -rf %t.d && mkdir -p %t.d && cd %t.d && %ts_device -save-temps -S %s -o %t.d/k.s
// RUN: FileCheck %s --input-file=%t.d/k.s
// RUN: %ts_device -DNO_INCLUDE -include ts/ts.h -S %s -o - | FileCheck %s
// RUN: %ts_device -DNO_INCLUDE -include ts/ts.h -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.emitted.cu
// RUN: FileCheck %s --check-prefix=EMIT --input-file=%t.emitted.cu
// RUN: echo '#include <ts/ts.h>' > %t.h
// RUN: %ts_device -fsyntax-only -Xclang -emit-pch -Xclang -o -Xclang %t.pch %t.h
// RUN: %ts_device -include-pch %t.pch -S %s -o - | FileCheck %s
// CHECK: .entry _Z4fill6Params(
// EMIT:      #define __LIBTS_GENERATED__ 1
// EMIT-NEXT: #define NO_INCLUDE 1
// EMIT-NEXT: #include "ts/ts.h"
#ifndef NO_INCLUDE
#include <ts/ts.h>
#endif

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void put(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[threadIdx.x % 32] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[int(i)] = s->v[threadIdx.x % 32]; b.release(s); }
}
[[ts::kernel(put, get)]] __global__ void fill(const Params p);
