// Stage accesses sit between the op that takes a stage and the op that hands
// it back; every taken stage is handed back; a try_* is followed by the
// blocking op it stands for.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void fills(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
}

// Reads the stage after handing it back: the producer may refill it.
[[ts::task(ts::warps(1, 1))]]
__device__ void late_read(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    b.release(s); // expected-note {{the stage was released here; another task may now overwrite it}}
    p.dst[int(i)] = s->v[0]; // expected-error {{stage of 'Buf' is used after it was released}} expected-note {{move the use before the release}}
  }
}
[[ts::kernel(fills, late_read)]] __global__ void k_use_after_release(const Params p);

// Acquires every iteration, never commits.
[[ts::task(ts::warps(0, 1))]]
__device__ void no_commit(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-error {{stage of 'Buf' acquired in the loop is not committed in the same iteration}} expected-note {{commit it before the end of the loop body}}
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
[[ts::kernel(no_commit, drains)]] __global__ void k_no_commit(const Params p);

// Acquired once in the head, never committed.
[[ts::task(ts::warps(0, 1))]]
__device__ void head_no_commit(const Params &p, ts::producer<Buf> b) {
  auto s = b.acquire(); // expected-error {{stage of 'Buf' acquired here is never committed}} expected-note {{commit the stage before the task returns}}
  s->v[0] = 1.f;
}
[[ts::task(ts::warps(1, 1))]]
__device__ void head_drain(const Params &p, ts::consumer<Buf> b) {
  auto s = b.wait();
  p.dst[0] = s->v[0];
  b.release(s);
}
[[ts::kernel(head_no_commit, head_drain)]] __global__ void k_head_no_commit(const Params p);

// A last poll after the loop whose token nothing uses.
[[ts::task(ts::warps(0, 1))]]
__device__ void try_only(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
  auto t = b.try_acquire(); // expected-warning {{try_acquire of 'Buf' is not followed by acquire in the same iteration}} expected-note {{pass its token to acquire(token) after it, in the same iteration and under the same guard}}
}
[[ts::task(ts::warps(1, 1))]]
__device__ void try_wait_only(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
  auto t = b.try_wait(); // expected-warning {{try_wait of 'Buf' is not followed by wait in the same iteration}} expected-note {{pass its token to wait(token) after it, in the same iteration and under the same guard}}
}
[[ts::kernel(try_only, try_wait_only)]] __global__ void k_try(const Params p);

// Polls and then takes the stage with the token: accepted.
[[ts::task(ts::warps(0, 1))]]
__device__ void try_then_acquire(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto t = b.try_acquire();
    auto s = b.acquire(t);
    s->v[0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void try_then_wait(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto t = b.try_wait();
    auto s = b.wait(t);
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(try_then_acquire, try_then_wait)]] __global__ void k_try_ok(const Params p);

// Takes a second stage while holding the first.
[[ts::task(ts::warps(0, 1))]]
__device__ void double_acquire(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire(); // expected-note {{the older stage was taken here}} expected-error {{stage of 'Buf' acquired in the loop is not committed in the same iteration}} expected-note {{commit it before the end of the loop body}}
    auto t = b.acquire();
    s->v[0] = t->v[0];
    b.commit(t); // expected-error {{commit of 'Buf' hands back a newer stage while an older one is held}} expected-note {{hand stages of one resource back oldest first, or hand the older one back in the same iteration without release_oldest()}}
  }
}
[[ts::kernel(double_acquire, drains)]] __global__ void k_double(const Params p);
