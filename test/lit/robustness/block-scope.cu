// Attributes on declarations inside a function never reach a kernel: each
// is an error at the attribute, never silently dropped.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>
struct Params { float *dst; int n; };
[[ts::task(ts::warps(0, 1))]] __device__ void t(const Params &p) {}
[[ts::kernel(t)]] __global__ void k(const Params p);

void host() {
  [[ts::kernel(t)]] __global__ void local(const Params p); // expected-error {{[[ts::kernel]] on a declaration at block scope}} expected-note {{declare it at namespace scope}}
  struct [[ts::resource(ts::async_async, ts::stages(2))]] R { float v[4]; }; // expected-error {{[[ts::resource]] on a declaration at block scope}} expected-note {{declare it at namespace scope}}
}

__device__ void device() {
  [[ts::task(ts::warps(1, 1))]] __device__ void u(const Params &p); // expected-error {{[[ts::task]] on a declaration at block scope}} expected-note {{declare it at namespace scope}}
}
