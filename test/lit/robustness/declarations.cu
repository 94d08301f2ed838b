// Variadic tasks and kernels have no fixed parameters to bind or generate;
// a kernel must have a declaration of its own.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>
struct Params { float *dst; int n; };
[[ts::task(ts::warps(0, 1))]] __device__ void t(const Params &p, ...) {} // expected-error {{task 't' is variadic}} expected-note {{list the parameters}}
[[ts::task(ts::warps(0, 1))]] __device__ void u(const Params &p) {}
[[ts::kernel(u)]] __global__ void k(const Params p, ...); // expected-error {{ts::kernel 'k' is variadic}} expected-note {{fixed parameter list}}
// One declaration, two declarators: the traits need the kernel's own ';'.
[[ts::kernel(u)]] __global__ void k2(const Params p), k3(const Params p); // expected-error {{ts::kernel 'k2' shares its declaration with another declarator}} expected-note {{declare the kernel on its own}}
