// setmaxnreg budgets: one value per warp group, a multiple of 8 in [24, 256],
// and the block's total within the 64K-register file.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

#define PRODUCE                                                                \
  for (auto i : ts::domain(0, p.n)) {                                          \
    auto s = b.acquire();                                                      \
    s->v[0] = 1.f;                                                             \
    b.commit(s);                                                               \
  }
#define CONSUME                                                                \
  for (auto i : ts::domain(0, p.n)) {                                          \
    auto s = b.wait();                                                         \
    p.dst[int(i)] = s->v[0];                                                   \
    b.release(s);                                                              \
  }

// Two tasks share warp group 0 with different budgets.
[[ts::task(ts::warps(0, 2), ts::regs(40))]]
__device__ void half_a(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note {{task 'half_a' sets setmaxnreg 40 here}}
[[ts::task(ts::warps(2, 2), ts::regs(232))]]
__device__ void half_b(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error {{task 'half_b' sets setmaxnreg 232 but warp group 0 already uses 40}} expected-note {{give every task of the group the same ts::regs value}}
[[ts::kernel(half_a, half_b)]] __global__ void k_unequal(const Params p);

// Not a multiple of 8.
[[ts::task(ts::warps(0, 4), ts::regs(100))]]
__device__ void odd(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-error {{register budget 100 of task 'odd' is not a multiple of 8 in [24, 256]}} expected-note {{setmaxnreg takes a multiple of 8 in [24, 256]}}
[[ts::task(ts::warps(4, 4), ts::regs(104))]]
__device__ void even(const Params &p, ts::consumer<Buf> b) { CONSUME }
[[ts::kernel(odd, even)]] __global__ void k_odd(const Params p);

// Below and above the setmaxnreg range.
[[ts::task(ts::warps(0, 4), ts::regs(16))]]
__device__ void tiny(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-error {{register budget 16 of task 'tiny' is not a multiple of 8 in [24, 256]}} expected-note {{setmaxnreg takes a multiple of 8 in [24, 256]}}
[[ts::task(ts::warps(4, 4), ts::regs(264))]]
__device__ void huge(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error {{register budget 264 of task 'huge' is not a multiple of 8 in [24, 256]}} expected-note {{setmaxnreg takes a multiple of 8 in [24, 256]}}
[[ts::kernel(tiny, huge)]] __global__ void k_range(const Params p);

// 1 producer group at 40 + 3 consumer groups at 232 = 32768 x ... > 65536.
[[ts::task(ts::warps(0, 4), ts::regs(40))]]
__device__ void prod(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note {{task 'prod': 4 warps x 32 x 40 registers}}
[[ts::task(ts::warps(4, 12), ts::regs(232))]]
__device__ void cons(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-note {{task 'cons': 12 warps x 32 x 232 registers}}
[[ts::kernel(prod, cons)]] __global__ void k_total(const Params p); // expected-error {{register budgets of kernel 'k_total' need 94208 registers; the register file holds 65536}} expected-note {{1 producer + 2 consumer warp groups = 24/240}}

// A task without ts::regs in a warp group that has a budget.
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void budgeted(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note {{task 'budgeted' sets setmaxnreg 40 here}}
[[ts::task(ts::warps(1, 3))]]
__device__ void unbudgeted(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error {{task 'unbudgeted' has no register budget but shares warp group 0 with task 'budgeted'}} expected-note {{add ts::regs(40) to task 'unbudgeted'}}
[[ts::kernel(budgeted, unbudgeted)]] __global__ void k_missing(const Params p);
