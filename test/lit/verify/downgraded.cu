// Downgrading a structural error does not turn the deadlock proof off
// silently: the protocol checks still cannot run on a broken structure, so
// the kernel gets a ts-bound warning and its report says NOT VERIFIED.
// RUN: %ts_device -fsyntax-only -Wno-unknown-warning-option -Wno-error=ts-bracketing -Xclang -verify %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -Wno-unknown-warning-option -Wno-ts-bracketing -Xclang -verify=silenced %s
// With the default severity the kernel fails, and nothing more is said.
// RUN: %ts_device -fsyntax-only -Xclang -verify=default %s
// CHECK: -- verification: NOT VERIFIED (0 error(s), 2 warning(s))
// CHECK-NEXT: checks:
// CHECK-NEXT: protocol: not run: fix the errors above first
#include <ts/ts.h>
struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void no_commit(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-warning {{stage of 'Buf' acquired in the loop is not committed in the same iteration}} expected-note {{commit it before}} default-error {{not committed in the same iteration}} default-note {{commit it before}}
    s->v[0] = 1.f;
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drains(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(no_commit, drains)]] __global__ void k(const Params p); // expected-warning {{kernel 'k' is not verified: the deadlock, balance and race checks did not run}} expected-note {{fix that finding}} silenced-warning {{kernel 'k' is not verified}} silenced-note {{fix that finding}}
