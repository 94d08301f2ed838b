// An overloaded task named first in [[ts::kernel]] is reported as
// overloaded (it used to read "unknown name ... declare the task function
// before the kernel").
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void prod(const Params &p, ts::producer<Out>) {}
__device__ void prod(const Params &p, int extra);

[[ts::kernel(prod)]] __global__ void k(const Params p); // expected-error {{task name 'prod' is ambiguous}} expected-note {{tasks must not be overloaded; rename one of the functions}}
