// Pipeline operations stand only where the verifier can follow them: the top
// level of a task body, directly in its one ts::domain loop, or under the
// first/last-iteration guards. Anything else is an error at the op.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };

__device__ void fill(ts::producer<Buf> b) {}
__device__ bool flag();

[[ts::task(ts::warps(0, 1))]]
__device__ void in_if(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    if (int(i) % 2 == 0) { // expected-note 2 {{an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop starts here}}
      auto s = b.acquire(); // expected-error {{pipeline operation 'acquire' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop}} expected-note {{pipeline operations may stand only at the top level}}
      b.commit(s); // expected-error {{pipeline operation 'commit' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop}} expected-note {{pipeline operations may stand only at the top level}}
    }
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void in_for(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    for (int k = 0; k < 2; ++k) { // expected-note 2 {{a 'for' loop that is not the task's ts::domain loop starts here}}
      auto s = b.wait(); // expected-error {{pipeline operation 'wait' is inside a 'for' loop that is not the task's ts::domain loop, where libts cannot verify it}} expected-note {{or under 'if (i.first())', 'if (i.last())' or their negations in the innermost of those loops}}
      b.release(s); // expected-error {{pipeline operation 'release' is inside a 'for' loop}} expected-note {{pipeline operations may stand only}}
    }
  }
}

[[ts::kernel(in_if, in_for)]] __global__ void k_nested(const Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void in_lambda(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto go = [&] { // expected-note 2 {{a lambda starts here}}
      auto s = b.acquire(); // expected-error {{pipeline operation 'acquire' is inside a lambda, where libts cannot verify it}} expected-note {{pipeline operations may stand only}}
      b.commit(s); // expected-error {{pipeline operation 'commit' is inside a lambda}} expected-note {{pipeline operations may stand only}}
    };
    go();
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void two_loops(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { // expected-note {{the first ts::domain loop is here}}
    auto s = b.wait();
    b.release(s);
  }
  for (auto i : ts::domain(0, p.n)) { // expected-error {{a task may have only one ts::domain loop}} expected-note 2 {{a ts::domain loop that is not the task's loop or a k-loop directly in it starts here}}
    auto s = b.wait(); // expected-error {{pipeline operation 'wait' is inside a ts::domain loop that is not the task's loop or a k-loop directly in it, where libts cannot verify it}} expected-note {{pipeline operations may stand only}}
    b.release(s); // expected-error {{pipeline operation 'release' is inside a ts::domain loop that is not the task's loop or a k-loop directly in it}} expected-note {{pipeline operations may stand only}}
  }
}

[[ts::kernel(in_lambda, two_loops)]] __global__ void k_lambda(const Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void escapes(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n))
    fill(b); // expected-error {{pipeline handle 'b' is passed to 'fill': libts follows pipeline operations only in the task body}} expected-note {{call the handle's operations in the task, and pass 'fill' the stage instead of the handle (for example 'auto s = b.acquire(); fill(..., s); b.commit(s);')}}
}

// Kept where it is not an argument: the general message.
[[ts::task(ts::warps(0, 1))]]
__device__ void copies(const Params &p, ts::producer<Buf> b) {
  ts::producer<Buf> c = b; // expected-error {{pipeline handle 'b' escapes the task}} expected-note {{use the handle only to call its operations}}
  (void)c;
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    b.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void jumps(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    if (flag())
      break; // expected-error {{'break' in the ts::domain loop cannot be verified}} expected-note {{every iteration must run the loop body's pipeline operations}}
    auto s = b.wait();
    if (flag())
      continue; // expected-error {{'continue' in the ts::domain loop cannot be verified}} expected-note {{every iteration must run}}
    switch (int(i) % 3) {
    case 0:
      break; // leaves the switch only: fine
    case 1:
      continue; // expected-error {{'continue' in the ts::domain loop cannot be verified}} expected-note {{every iteration must run}}
    }
    for (int k = 0; k < 2; ++k)
      if (flag())
        continue; // the inner loop's: fine
    b.release(s);
  }
}

[[ts::kernel(escapes, jumps)]] __global__ void k_escape(const Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void returns(const Params &p, ts::producer<Buf> b) {
  if (p.n == 0)
    return; // expected-error {{control flow that leaves a task early cannot be verified}} expected-note {{guard the work, not the operations}}
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.acquire();
    b.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void non_op(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    b.~consumer(); // expected-error {{'~consumer' is not a consumer operation}} expected-note {{a ts::consumer handle offers wait, try_wait and release}}
    b.release(s);
  }
}

[[ts::kernel(returns, non_op)]] __global__ void k_return(const Params p);

// The recognised guards are accepted: the first iteration fills one extra
// stage, the last one drains it, and guarded work touches a held stage.
[[ts::task(ts::warps(0, 1))]]
__device__ void guarded_producer(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    if (i.first()) {
      auto s = b.acquire();
      s->v[0] = 0.f;
      b.commit(s);
    }
    auto s = b.acquire();
    s->v[0] = float(int(i));
    b.commit(s);
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void guarded_consumer(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = b.wait();
    if (i.first())
      p.dst[0] = s->v[0];
    b.release(s);
    if (i.last()) {
      auto t = b.wait();
      p.dst[1] = t->v[0];
      b.release(t);
    }
  }
}

[[ts::kernel(guarded_producer, guarded_consumer)]] __global__ void k_guards(const Params p);

// Each construct that hides an op is named at its start.
[[ts::task(ts::warps(0, 1))]]
__device__ void constructs(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) {
    while (flag()) { // expected-note {{a 'while' loop starts here}}
      b.acquire(); // expected-error {{pipeline operation 'acquire' is inside a 'while' loop, where libts cannot verify it}} expected-note {{pipeline operations may stand only}}
    }
    switch (p.n) { // expected-note {{a 'switch' starts here}}
    case 1:
      b.acquire(); // expected-error {{pipeline operation 'acquire' is inside a 'switch', where libts cannot verify it}} expected-note {{pipeline operations may stand only}}
    }
    flag() && b.try_acquire(); // expected-error {{pipeline operation 'try_acquire' is inside a short-circuit '&&', where libts cannot verify it}} expected-note {{a short-circuit '&&' starts here}} expected-note {{pipeline operations may stand only}}
  }
}
