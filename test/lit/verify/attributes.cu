// Malformed attributes: each gets an error at the argument, with a fix note.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
int runtime_value();

struct [[ts::resource(ts::stages(2))]] NoKind { float v[4]; }; // expected-error {{[[ts::resource]] needs a kind}} expected-note {{add ts::gmem, ts::async_async, ts::tma_async, ts::task_owned, ts::turns, ts::tma_umma, ts::umma_async, ts::clc_async, ts::async_umma or ts::umma_umma}}
struct [[ts::resource(ts::async_async, ts::stages(0))]] ZeroStages { float v[4]; }; // expected-error {{ts::stages(0) is out of range}} expected-note {{between 1 and 64 stages}}
struct [[ts::resource(ts::tma_async, ts::tx_bytes(64))]] TooManyBytes { float v[4]; }; // expected-error {{ts::tx_bytes(64) exceeds the payload of 16 bytes}} expected-note {{TMA cannot deliver}}
struct [[ts::resource(ts::async_async, ts::tx_bytes(8))]] TxOnAsync { float v[4]; }; // expected-error {{ts::tx_bytes applies only to TMA-filled (ts::tma_async, ts::tma_umma) resources}} expected-note {{remove it}}
struct [[ts::resource(ts::async_async, ts::align(100))]] BadAlign { float v[4]; }; // expected-error {{ts::align(100) is not a power of two}} expected-note {{use 16, 32}}
struct [[ts::resource(ts::async_async, 42)]] Junk { float v[4]; }; // expected-error {{unexpected argument to [[ts::resource]]}} expected-note {{expected ts::gmem}}
struct [[ts::resource(ts::async_async)]] Empty {}; // expected-error {{pipelined resource 'Empty' has no payload}} expected-note {{give the struct the members}}
struct [[ts::resource(ts::gmem, ts::stages(2))]] GmemStages {}; // expected-error {{a ts::gmem resource has no stages}} expected-note {{remove ts::stages}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Good { float v[4]; };

[[ts::task(ts::regs(40))]] // expected-error {{[[ts::task]] needs a warp range}} expected-note {{add ts::warps(first, count)}}
__device__ void no_warps(const Params &p) {}

[[ts::task(ts::warps(30, 4))]] // expected-error {{ts::warps(30, 4) is not a warp range inside a block}} expected-note {{at most 32 warps}}
__device__ void too_far(const Params &p) {}

[[ts::task(ts::warps(0, runtime_value()))]] // expected-error {{argument of ts::warps is not a constant expression}} expected-note {{literal or a constexpr}}
__device__ void not_constant(const Params &p) {}

[[ts::task(ts::warps(0, 1))]]
__device__ void by_ref(ts::producer<Good> &g) {} // expected-error {{take pipeline handles by value}} expected-note {{write 'ts::producer<R> g'}}

struct Plain { int x; };
[[ts::task(ts::warps(0, 1))]]
__device__ void not_resource(ts::consumer<Plain> c) {} // expected-error {{'Plain' is not a libts resource}} expected-note {{declare it as}}

[[ts::task(ts::warps(0, 1))]]
__device__ void two_handles(ts::producer<Good> a, ts::producer<Good> b) {} // expected-error {{task 'two_handles' has two producer handles for 'Good'}} expected-note {{one handle per resource and role}}

__device__ void helper(const Params &p) {} // expected-note {{mark it [[ts::task(ts::warps(first, count))]]}}
[[ts::task(ts::warps(2, 1))]]
__device__ void ok_task(const Params &p) {}

[[ts::task(ts::warps(0, 1))]]
__device__ void wrong_name(const Params &q) {} // expected-error {{task parameter 'q' matches no parameter of kernel 'k1'}}
[[ts::task(ts::warps(1, 1))]]
__device__ void wrong_type(const int &p) {} // expected-error {{task parameter 'p' has type 'const int &' but kernel parameter 'p' has type 'const Params'}}

[[ts::kernel(wrong_name, wrong_type)]] __global__ void k1(const Params p); // expected-note {{task parameters bind to kernel parameters of the same name}} expected-note {{give both the same type}}

[[ts::kernel(helper)]] __global__ void k2(const Params p); // expected-error {{'helper' is not a task}}
[[ts::kernel(no_such_task)]] __global__ void k3(const Params p); // expected-error {{unknown name 'no_such_task' in [[ts::kernel]]}} expected-note {{declare the task function before the kernel}}
[[ts::kernel()]] __global__ void k4(const Params p); // expected-error {{ts::kernel 'k4' lists no tasks}} expected-note {{write [[ts::kernel(task1, task2, ...)]]}}
[[ts::kernel(ok_task)]] __device__ void k5(const Params p); // expected-error {{ts::kernel 'k5' is not a __global__ function}} expected-note {{declare it '__global__ void k5(...);'}}
[[ts::kernel(ok_task)]] __global__ void k6(const Params p) {} // expected-error {{ts::kernel 'k6' must not have a body}} expected-note {{libts generates the body}}
[[ts::kernel(ok_task, 7)]] __global__ void k7(const Params p); // expected-error {{unexpected argument to [[ts::kernel]]}} expected-note {{expected task functions}}
