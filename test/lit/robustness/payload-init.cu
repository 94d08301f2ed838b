// Stages are raw shared memory: payload initializers, constructors and
// destructors would never run, so they are errors. Kernel names must be
// ASCII (clang 19's NVPTX backend aborts on others).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async)]] A { float v[4]; int count = 0; }; // expected-error {{member 'count' of resource 'A' has a default value that is never applied}} expected-note {{remove the initializer}}
struct [[ts::resource(ts::async_async)]] B { B() {} float v[4]; }; // expected-error {{payload of resource 'B' has a constructor or destructor that never runs}} expected-note {{trivially constructible plain data}}
struct [[ts::resource(ts::async_async)]] C { ~C() {} float v[4]; }; // expected-error {{payload of resource 'C' has a constructor or destructor that never runs}} expected-note {{trivially constructible plain data}}
[[ts::task(ts::warps(0, 1))]] __device__ void t(const Params &p) {}
[[ts::kernel(t)]] __global__ void kernel_ä(const Params p); // expected-error {{ts::kernel name 'kernel_ä' is not plain ASCII}} expected-note {{ASCII letters}}
