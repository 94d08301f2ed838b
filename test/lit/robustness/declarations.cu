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
// A template is not a task, and naming one in a kernel says so.
template <int N>
[[ts::task(ts::warps(0, 1))]] __device__ void tmpl(const Params &p) {} // expected-error {{task 'tmpl' must be a non-template free function}} expected-note {{make it a plain __device__ function}}
[[ts::kernel(tmpl<1>)]] __global__ void k4(const Params p); // expected-error {{'tmpl' names a function template, not a task}} expected-note {{non-template __device__ functions}}
// Generated locals are named ts_*: kernel parameters may not be.
[[ts::task(ts::warps(0, 1))]] __device__ void v(const Params &p) {}
[[ts::kernel(v)]] __global__ void k5(const Params p, int ts_warp); // expected-error {{kernel parameter 'ts_warp' uses the reserved prefix 'ts_'}} expected-note {{rename it}}
// A template taking a turn position is told the turns pattern: a ring
// position is not a warp group's index.
struct [[ts::resource(ts::turns)]] Ring {};
template <unsigned Pos>
[[ts::task(ts::warps(0, 4))]] __device__ void turner(const Params &p, ts::turn<Ring, Pos> t) {} // expected-error {{task 'turner' must be a non-template free function}} expected-note {{make it a plain __device__ function; warp groups that take turns are one task per ring position, each with its ts::turn<R, Pos>, sharing their work through helper functions (docs/guide.md, "Warp groups that take turns")}}
[[ts::kernel(turner<0>, turner<1>)]] __global__ void k5(const Params p); // expected-error 2 {{'turner' names a function template, not a task}} expected-note 2 {{tasks must be plain, non-template __device__ functions; warp groups that take turns are one task per ring position}}
