// Values that do not fit the generated code's 32-bit fields are errors at
// the argument: a capacity beyond 4 GiB let payloads of 4 GiB through, and
// the emitted file failed to compile with narrowing errors. A negative
// register budget was reported as "budget 0".
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Huge { char v[0x100000000ll]; };

[[ts::task(ts::warps(0, 1), ts::regs(-8))]] // expected-error {{ts::regs(-8) is negative}} expected-note {{setmaxnreg takes a multiple of 8 between 24 and 256}}
__device__ void prod(const Params &p, ts::producer<Huge> h) {
  for (auto i : ts::domain(0, p.n)) { auto s = h.acquire(); h.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void cons(const Params &p, ts::consumer<Huge> h) {
  for (auto i : ts::domain(0, p.n)) { auto s = h.wait(); h.release(s); }
}
[[ts::kernel(prod, cons, ts::smem_capacity(0x7fffffffffffffffll))]] __global__ void k(const Params p); // expected-error {{ts::smem_capacity(9223372036854775807) is more shared memory than a block can use}} expected-note {{a block of sm_90 uses at most 232448 bytes}}
