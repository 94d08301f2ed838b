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
__device__ void half_a(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note@-1 {{task 'half_a' sets setmaxnreg 40 here}}
[[ts::task(ts::warps(2, 2), ts::regs(232))]]
__device__ void half_b(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error@-1 {{task 'half_b' sets setmaxnreg 232 but warp group 0 already uses 40}} expected-note {{give every task of the group the same ts::regs value}}
[[ts::kernel(half_a, half_b)]] __global__ void k_unequal(const Params p);

// Not a multiple of 8.
[[ts::task(ts::warps(0, 4), ts::regs(100))]]
__device__ void odd(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-error@-1 {{register budget 100 of task 'odd' is not a multiple of 8 in [24, 256]}} expected-note@-1 {{write ts::regs(96) or ts::regs(104): setmaxnreg takes a multiple of 8 in [24, 256]}}
[[ts::task(ts::warps(4, 4), ts::regs(104))]]
__device__ void even(const Params &p, ts::consumer<Buf> b) { CONSUME }
[[ts::kernel(odd, even)]] __global__ void k_odd(const Params p);

// Below and above the setmaxnreg range.
[[ts::task(ts::warps(0, 4), ts::regs(16))]]
__device__ void tiny(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-error@-1 {{register budget 16 of task 'tiny' is not a multiple of 8 in [24, 256]}} expected-note@-1 {{write ts::regs(24) or ts::regs(32)}}
[[ts::task(ts::warps(4, 4), ts::regs(264))]]
__device__ void huge(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error@-1 {{register budget 264 of task 'huge' is not a multiple of 8 in [24, 256]}} expected-note@-1 {{write ts::regs(248) or ts::regs(256)}}
[[ts::kernel(tiny, huge)]] __global__ void k_range(const Params p);

// 1 producer group at 40 + 3 consumer groups at 232: 5120 + 89088 > 65536.
[[ts::task(ts::warps(0, 4), ts::regs(40))]]
__device__ void prod(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note@-1 {{task 'prod': 4 warps x 32 threads x 40 registers = 5120}}
[[ts::task(ts::warps(4, 12), ts::regs(232))]]
__device__ void cons(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-note@-1 {{task 'cons': 12 warps x 32 threads x 232 registers = 89088}}
[[ts::kernel(prod, cons)]] __global__ void k_total(const Params p); // expected-error {{register budgets of kernel 'k_total' need 94208 registers; the register file holds 65536}} expected-note {{budgets that fit: 24 registers for the producer warp group, up to 160 for each of the 3 consumer warp groups}}

// A task without ts::regs in a warp group that has a budget.
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void budgeted(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note@-1 {{task 'budgeted' sets setmaxnreg 40 here}}
[[ts::task(ts::warps(1, 3))]]
__device__ void unbudgeted(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-error {{task 'unbudgeted' has no register budget but shares warp group 0 with task 'budgeted'}} expected-note {{add ts::regs(40) to task 'unbudgeted'}}
[[ts::kernel(budgeted, unbudgeted)]] __global__ void k_missing(const Params p);

// The sum counts the padding that fills a task's warp group, term by term.
[[ts::task(ts::warps(0, 1), ts::regs(24))]]
__device__ void one_warp(const Params &p, ts::producer<Buf> b) { PRODUCE } // expected-note@-1 {{task 'one_warp': 1 warp x 32 threads x 24 registers = 768}}
[[ts::task(ts::warps(4, 8), ts::regs(248))]]
__device__ void wide(const Params &p, ts::consumer<Buf> b) { CONSUME } // expected-note@-1 {{task 'wide': 8 warps x 32 threads x 248 registers = 63488}}
[[ts::kernel(one_warp, wide)]] __global__ void k_padded(const Params p); // expected-error {{register budgets of kernel 'k_padded' need 66560 registers; the register file holds 65536}} expected-note {{padding: 3 warps x 32 threads x 24 registers = 2304 (warps [1, 4): setmaxnreg sets the whole warp group)}} expected-note {{budgets that fit: 24 registers for the producer warp group, up to 240 for each of the 2 consumer warp groups}}
