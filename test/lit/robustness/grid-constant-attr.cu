// CUDA 13 writes __grid_constant__ as __attribute__((grid_constant)), which
// clang 19 does not know: libts accepts it on a const parameter without the
// "unknown attribute" warning (here with that warning on), refuses it where
// nvcc does, and a -W plugin argument must name one of libts's groups.
// RUN: %ts_device -fsyntax-only -Wunknown-attributes -Xclang -verify %s
// RUN: not %ts_device -fsyntax-only -Xclang -plugin-arg-ts -Xclang -Wno-error=ts-credt %s 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: %ts_device -fsyntax-only -Xclang -plugin-arg-ts -Xclang -Wno-error=ts-credit -Xclang -plugin-arg-ts -Xclang -Wno-ts -Xclang -plugin-arg-ts -Xclang -Werror %s -DGOOD_ONLY
// GROUP: error: libts: plugin argument '-Wno-error=ts-credt' names no libts warning group (groups: ts, ts-syntax, ts-warps,
#include <ts/ts.h>

struct Params { CUtensorMap map; float *out; };
__global__ void fine(const __grid_constant__ Params p) { p.out[0] = 1; }
#ifndef GOOD_ONLY
__global__ void mutable_param(__grid_constant__ Params p) { p.out[0] = 1; } // expected-error {{__grid_constant__ parameter must be const-qualified}} expected-note {{nvcc refuses it too: write 'const __grid_constant__ T name'}}
__grid_constant__ int not_a_param; // expected-error {{__grid_constant__ applies only to parameters of a __global__ function}}
[[ts::taks(1)]] __device__ void typo(); // expected-warning {{unknown attribute 'taks' ignored}}
#endif
