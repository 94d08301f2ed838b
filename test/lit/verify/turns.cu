// ts::turns: consumer tasks take turns round a ring (FA3's ping-pong). The
// ring must be whole, each task takes the turn and passes it on in pairs,
// and the protocol run proves the turns cannot deadlock with the pipeline.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: %ts_device -fsyntax-only -DSAME_POSITION %s -Xclang -verify=same
// RUN: %ts_device -fsyntax-only -DGAP %s -Xclang -verify=gap
// RUN: %ts_device -fsyntax-only -DNO_PASS %s -Xclang -verify=nopass
// RUN: %ts_device -fsyntax-only -DTWO_PASSES %s -Xclang -verify=twopasses
// RUN: %ts_device -fsyntax-only -DFIRST_ONLY %s -Xclang -verify=firstonly
// RUN: %ts_device -fsyntax-only -DNOT_TURNS %s -Xclang -verify=notturns
// RUN: %ts_device -fsyntax-only -DOTHER_DOMAIN %s -Xclang -verify=otherdomain
// RUN: %ts_device -fsyntax-only -DPER_TILE %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=PERTILE
// ok-no-diagnostics
#include <ts/ts.h>

struct Params { ts::tma::map<float, 32, 32> src; float *dst; int tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
#if defined(NOT_TURNS)
struct [[ts::resource(ts::gmem)]] Mma {}; // notturns-note 2 {{declare it [[ts::resource(ts::turns)]], an empty struct that names the turn}}
#else
struct [[ts::resource(ts::turns)]] Mma {}; // gap-note {{give the tasks of the ring positions 0, 1, ...}}
#endif

#if defined(GAP)
constexpr unsigned kSecond = 2;
#elif defined(SAME_POSITION)
constexpr unsigned kSecond = 0;
#else
constexpr unsigned kSecond = 1;
#endif

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = a.acquire();
    ts::tma::load(s->v, &p.src, {0, int(t) * 32}, s.barrier());
    a.commit(s);
  }
}

__device__ __forceinline__ float use(const A &s, int row) { return s.v[row][threadIdx.x % 32]; }

[[ts::task(ts::warps(4, 4))]]
__device__ void mma0(const Params &p, ts::consumer<A> a, ts::turn<Mma, 0> turn) { // notturns-error {{ts::turn<Mma, ...>: 'Mma' is a ts::gmem resource}}
  for (auto t : ts::domain(0, p.tiles)) { // otherdomain-note {{task 'mma0' loops over}}
    auto s = a.wait();
    turn.take(); // firstonly-error {{deadlock: task 'mma0' blocks forever on take of 'Mma'}} firstonly-note {{this take of 'Mma' needs a pass from task 'mma1' (the position before), which has finished after passing it 1 time}} firstonly-note 2 {{trace}}
    float x = use(*s, 0);
    turn.pass(); // firstonly-note 2 {{trace}}
#if defined(TWO_PASSES)
    turn.pass(); // twopasses-error {{turn of 'Mma' passed by 'mma0' without being taken: the next position would get it twice}} twopasses-note {{take the turn, then pass it, in the same loop body under the same guard}}
#endif
    a.release(s);
    p.dst[int(t) * 32 + threadIdx.x % 32] = x;
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void mma1(const Params &p, ts::consumer<A> a, ts::turn<Mma, kSecond> turn) { // same-error {{tasks 'mma0' and 'mma1' both take position 0 of the ring of 'Mma'}} same-note {{give the tasks of the ring positions 0, 1, ...}} gap-error {{the ring of 'Mma' has no position 1: its 2 tasks must take positions 0 to 1}} notturns-error {{ts::turn<Mma, ...>: 'Mma' is a ts::gmem resource}}
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = a.wait();
#if defined(FIRST_ONLY)
    if (t.first()) {
      turn.take(); // firstonly-note {{trace 3/6: task 'mma1' take of 'Mma' (iteration 0)}}
      turn.pass(); // firstonly-note {{trace 4/6}}
    }
#else
    turn.take(); // nopass-error {{turn of 'Mma' taken by 'mma1' is not passed on in the same loop body: the next position waits forever}} nopass-note {{call pass() after the work the turn orders}}
    float x = use(*s, 1);
#if !defined(NO_PASS)
    turn.pass();
#endif
    p.dst[int(t) * 32 + threadIdx.x % 32] += x;
#endif
    a.release(s);
  }
}
[[ts::kernel(load, mma0, mma1)]] __global__ void k(const __grid_constant__ Params p);

#if defined(PER_TILE)
// The attention shape: k-loops whose count reads the tile (causal), the
// turn taken per k-step. The search over sequences of counts runs the ring.
__device__ int k_steps(const Params &p, int tile) { return 1 + tile % 3; }
[[ts::task(ts::warps(0, 1))]]
__device__ void kv_load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, k_steps(p, int(t))).nonempty()) {
      auto s = a.acquire();
      ts::tma::load(s->v, &p.src, {int(k) * 32, int(t) * 32}, s.barrier());
      a.commit(s);
    }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void wg0(const Params &p, ts::consumer<A> a, ts::turn<Mma, 0> turn) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, k_steps(p, int(t))).nonempty()) {
      auto s = a.wait();
      turn.take();
      p.dst[int(t) * 32 + threadIdx.x % 32] = use(*s, 0);
      turn.pass();
      a.release(s);
    }
}
[[ts::task(ts::warps(8, 4))]]
__device__ void wg1(const Params &p, ts::consumer<A> a, ts::turn<Mma, 1> turn) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, k_steps(p, int(t))).nonempty()) {
      auto s = a.wait();
      turn.take();
      p.dst[int(t) * 32 + 16 + threadIdx.x % 16] = use(*s, 1);
      turn.pass();
      a.release(s);
    }
}
[[ts::kernel(kv_load, wg0, wg1)]] __global__ void k3(const __grid_constant__ Params p);
// PERTILE: == libts kernel 'k3'
// PERTILE: protocol: inner loop 1 to {{[0-9]+}} times, any count in each tile (bounded
#endif

#if defined(OTHER_DOMAIN)
// A position that shares no pipeline with the others still turns with
// them: its trip count must be theirs.
[[ts::task(ts::warps(8, 4))]]
__device__ void solo(const Params &p, ts::turn<Mma, 1> turn) {
  for (auto t : ts::domain(0, p.tiles * 2)) { // otherdomain-error {{tasks 'mma0' and 'solo' take turns of 'Mma' but may run different trip counts}} otherdomain-note {{task 'solo' loops over}} otherdomain-note {{loop over the same ts::domain bounds}}
    turn.take();
    p.dst[int(t)] = 0.f;
    turn.pass();
  }
}
[[ts::kernel(load, mma0, solo)]] __global__ void k2(const __grid_constant__ Params p);
#endif
// CHECK: Mma  turns  ring mma0 (bar 4, 256 threads) -> mma1 (bar 5, 256 threads)
// CHECK: protocol: every trip count
// JSON: {"name":"Mma","kind":"turns","stages":1,"payload_bytes":0,"tx_bytes":0,"ring":[{"task":"mma0","barrier":4,"threads":256},{"task":"mma1","barrier":5,"threads":256}]}
