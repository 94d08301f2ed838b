// A kernel's shared memory (stages, barriers, alignment) must fit the
// target's capacity; ts::smem_capacity lowers the limit (never past the
// hardware's 232448 bytes), and the fix says which stage count fits.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -DOVER -Xclang -verify=over %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
// 4 stages x 64 KiB: more than the 227 KiB of an sm_90 block.
struct [[ts::resource(ts::async_async, ts::stages(4))]] Big { float v[128][128]; }; // expected-note {{'Big': 4 stages x 65536 B = 262144 B}}
struct [[ts::resource(ts::async_async, ts::stages(4))]] Big2 { float v[128][128]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Big> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0][0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Big> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0][0];
    b.release(s);
  }
}
#ifndef OVER
[[ts::kernel(fill, drain)]] __global__ void k_big(const Params p); // expected-error {{kernel 'k_big' needs 262320 bytes of shared memory; the capacity is 232448 bytes}} expected-note {{barriers: 64 B, base alignment slack: 112 B}} expected-note {{use fewer or smaller stages (ts::stages(3) on 'Big' fits): 232448 bytes is all the shared memory a block can use}}
#endif

[[ts::task(ts::warps(0, 1))]]
__device__ void fill2(const Params &p, ts::producer<Big2> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0][0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain2(const Params &p, ts::consumer<Big2> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0][0];
    b.release(s);
  }
}
// No block has more shared memory than the hardware's (an error about the
// attribute, which stops the file's verification: a run of its own).
#ifdef OVER
[[ts::kernel(fill2, drain2, ts::smem_capacity(300000))]] __global__ void k_big2(const Params p); // over-error {{ts::smem_capacity(300000) is more shared memory than a block can use}} over-note {{a block of sm_90 uses at most 232448 bytes of dynamic shared memory (the default)}}
#endif

// Below the hardware's limit, the fix may raise it.
struct [[ts::resource(ts::async_async, ts::stages(4))]] Mid { float v[32][128]; }; // expected-note {{'Mid': 4 stages x 16384 B = 65536 B}}
[[ts::task(ts::warps(0, 1))]]
__device__ void fill3(const Params &p, ts::producer<Mid> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0][0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain3(const Params &p, ts::consumer<Mid> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0][0];
    b.release(s);
  }
}
#ifndef OVER
[[ts::kernel(fill3, drain3, ts::smem_capacity(50000))]] __global__ void k_low(const Params p); // expected-error {{kernel 'k_low' needs 65712 bytes of shared memory; the capacity is 50000 bytes}} expected-note {{barriers: 64 B, base alignment slack: 112 B}} expected-note {{use fewer or smaller stages (ts::stages(3) on 'Mid' fits), or raise ts::smem_capacity up to 232448 bytes, all a block can use}}
#endif
