// The -html register table of a block that is not a whole number of warp
// groups: the last group holds the warps the block has, and the sum counts
// only those (as the ts-registers check does).
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -html=%t.html
// RUN: FileCheck %s --input-file=%t.html
#include <ts/ts.h>
struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] A { float v[32]; };
[[ts::task(ts::warps(4, 1))]]
__device__ void fill(const Params &p, ts::producer<A> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(0, 4))]]
__device__ void drain(const Params &p, ts::consumer<A> rows) {
  for (auto i : ts::domain(0, p.n)) { auto s = rows.wait(); p.out[0] = s->v[0]; rows.release(s); }
}
[[ts::kernel(fill, drain)]] __global__ void k(const Params p);
// CHECK:      <tr><td class="num">0</td><td>[0, 4)</td><td>drain</td><td>baseline 256</td><td class="num">32768</td><td class="num">50%</td></tr>
// CHECK-NEXT: <tr><td class="num">1</td><td>[4, 5)</td><td>fill</td><td>baseline 256</td><td class="num">8192</td><td class="num">12.5%</td></tr>
// CHECK-NEXT: </table>
// CHECK-NEXT: <p class="facts reg-total">total 40960 of 65536 registers (62.5%); launch baseline 256 registers/thread</p>
