// A pipelined resource needs a producer task and a consumer task, and a
// producer handle must take stages, or the other side waits forever.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Unread { float v[32]; }; // expected-note {{add a task with a ts::consumer<Unread> parameter}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Unwritten { float v[32]; }; // expected-note {{add a task with a ts::producer<Unwritten> parameter}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Idle { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void writer(const Params &p, ts::producer<Unread> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
}
[[ts::kernel(writer)]] __global__ void k_no_consumer(const Params p); // expected-error {{pipelined resource 'Unread' has no consumer task in kernel 'k_no_consumer'}}

[[ts::task(ts::warps(0, 1))]]
__device__ void reader(const Params &p, ts::consumer<Unwritten> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(reader)]] __global__ void k_no_producer(const Params p); // expected-error {{pipelined resource 'Unwritten' has no producer task in kernel 'k_no_producer'}}

// The producer handle is declared but never used.
[[ts::task(ts::warps(0, 1))]]
__device__ void lazy(const Params &p, ts::producer<Idle> b) { // expected-error {{task 'lazy' produces 'Idle' but never acquires a stage}} expected-note {{acquire and commit a stage on the producer handle, or drop the parameter}}
  for (auto i : ts::domain(0, p.n))
    p.dst[int(i)] = 0.f;
}
[[ts::task(ts::warps(1, 1))]]
__device__ void eager(const Params &p, ts::consumer<Idle> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(lazy, eager)]] __global__ void k_lazy(const Params p);

// The consumer exists but the kernel does not list it: the note names it.
struct [[ts::resource(ts::async_async, ts::stages(2))]] Forgotten { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void listed(const Params &p, ts::producer<Forgotten> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    s->v[0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void left_out(const Params &p, ts::consumer<Forgotten> b) { // expected-note {{task 'left_out' consumes 'Forgotten' but kernel 'k_left_out' does not list it: add it to [[ts::kernel(...)]]}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    p.dst[int(i)] = s->v[0];
    b.release(s);
  }
}
[[ts::kernel(listed)]] __global__ void k_left_out(const Params p); // expected-error {{pipelined resource 'Forgotten' has no consumer task in kernel 'k_left_out'}}
