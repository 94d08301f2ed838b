// Every attribute argument is used once or rejected: a repeated argument
// is an error at the repeat (not a silent override), an out-of-range kind is
// an error, a kernel's own __launch_bounds__ is an error (libts derives
// them), and a layout past the 32-bit launch size is an error that no -W
// flag downgrades.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DHUGE -Wno-unknown-warning-option -Wno-error=ts-capacity -Xclang -plugin-arg-ts -Xclang -Wno-error=ts-capacity -Xclang -verify=huge %s
#include <ts/ts.h>

struct Params { float *out; int n; };
#ifndef HUGE
struct [[ts::resource(ts::async_async, ts::stages(2), ts::stages(3))]] A { float v[32]; }; // expected-error {{ts::stages is given twice}} expected-note {{keep one; the first is here}}
struct [[ts::resource(static_cast<ts::pipeline_kind>(10), ts::stages(2))]] B { float v[32]; }; // expected-error {{10 is not a ts::pipeline_kind}} expected-note {{use ts::gmem, ts::async_async, ts::tma_async, ts::task_owned, ts::turns, ts::tma_umma, ts::umma_async, ts::clc_async, ts::async_umma or ts::umma_umma}}
struct [[ts::resource(ts::async_async, ts::swizzled, ts::swizzled)]] C { float v[32]; }; // expected-error {{ts::swizzled is given twice}} expected-note {{keep one; the first is here}}
[[ts::task(ts::warps(0, 1), ts::warps(1, 1))]] // expected-error {{ts::warps is given twice}} expected-note {{keep one; the first is here}}
__device__ void fill(const Params &p, ts::producer<A> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1), ts::regs(240), ts::regs(232))]] // expected-error {{ts::regs is given twice}} expected-note {{keep one; the first is here}}
__device__ void drain(const Params &p, ts::consumer<A> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[0] = s->v[0]; b.release(s); }
}
[[ts::kernel(fill, drain, ts::smem_capacity(1000), ts::smem_capacity(2000))]] __global__ void __launch_bounds__(256) k(const Params p); // expected-error {{ts::smem_capacity is given twice}} expected-note {{keep one; the first is here}} expected-error {{ts::kernel 'k' has its own __launch_bounds__}} expected-note {{remove it: libts derives __launch_bounds__(threads, 1) from the tasks' warps (ts::kernel_traits<k>::threads)}}
#else
struct [[ts::resource(ts::async_async, ts::stages(64))]] Big { char v[1 << 27]; }; // huge-note {{'Big': 64 stages x 134217728 B = 8589934592 B}}
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Big> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Big> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[0] = s->v[0]; b.release(s); }
}
[[ts::kernel(fill, drain)]] __global__ void huge(const Params p); // huge-error {{kernel 'huge' needs 8589935728 bytes of shared memory, more than a launch can request}} huge-note {{dynamic shared memory is a 32-bit launch parameter}} huge-warning {{kernel 'huge' needs 8589935728 bytes of shared memory; the capacity is 232448 bytes}} huge-note {{barriers}} huge-note {{use fewer or smaller stages: 232448 bytes is all the shared memory a block can use}}
#endif
