// __LIBTS_GENERATED__ marks a file libts already rewrote. Defined by hand,
// it used to make the plugin skip the kernel silently: the compile succeeded
// with the kernel never defined.
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
// RUN: %ts_device -S -o /dev/null -Xclang -verify %s
#define __LIBTS_GENERATED__ 1
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Out>) {}

[[ts::kernel(fill)]] __global__ void k(const Params p); // expected-error {{ts::kernel 'k' has no generated body although __LIBTS_GENERATED__ is defined}} expected-note {{do not define it yourself}}
