// A kernel's shared memory (stages, barriers, alignment) must fit the
// target's capacity; ts::smem_capacity raises the limit.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
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
[[ts::kernel(fill, drain)]] __global__ void k_big(const Params p); // expected-error {{kernel 'k_big' needs 262320 bytes of shared memory; the capacity is 232448 bytes}} expected-note {{barriers: 64 B, base alignment slack: 112 B}} expected-note {{use fewer stages or smaller stages, or raise the limit with ts::smem_capacity(bytes) on the kernel}}

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
// A target with more shared memory per block.
[[ts::kernel(fill2, drain2, ts::smem_capacity(300000))]] __global__ void k_big2(const Params p);
