// ts::domain(...).nonempty() traps on an empty range, so the verifier starts
// a nested k-loop's counts at 1, but only when the trapping task surely
// reaches its k-loop: here `compute` waits for a bias stage before it, which
// the loader fills on its first k-step only. With no k-step the wait blocks
// forever and the trap never runs: the deadlock at 0 steps is still found.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify
// RUN: %ts_device -fsyntax-only -DREACHED %s -Xclang -verify=reached -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// reached-no-diagnostics
// CHECK: protocol: inner loop 1 to 9 times
#include <ts/ts.h>

struct Params { CUtensorMap a; const float *bias; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Bias { float v[32]; }; // expected-note {{'Bias': 1 empty, 0 full stages}}
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles, ts::producer<Bias> biases) { // expected-note {{task 'load' has finished after committing 0 stages}}
  const int lane = threadIdx.x % 32;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
#ifdef REACHED // the loader's own k-loop traps first, before any wait
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
#else
    for (auto k : ts::domain(0, p.k_tiles)) {
#endif
      if (k.first()) {
        auto b = biases.acquire();
        b->v[lane] = p.bias[int(t) * 32 + lane];
        biases.commit(b);
      }
      auto s = tiles.acquire();
      ts::tma::load(s->v, &p.a, {int(k) * 32, int(t) * 32}, s.barrier());
      tiles.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void compute(const Params &p, ts::consumer<Tiles> tiles, ts::consumer<Bias> biases,
                        ts::producer<Out>) {
  const int row = threadIdx.x / 4, quarter = threadIdx.x % 4;
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto b = biases.wait(); // expected-error {{deadlock: task 'compute' blocks forever on wait of 'Bias' (trip count 1)}} expected-note {{every wait on 'Bias' needs a commit from each producer task}}
    float acc = b->v[row];
    biases.release(b);
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // expected-note {{found with this inner ts::domain loop running 0 times in each iteration of the loop around it}}
      auto s = tiles.wait();
      for (int c = 0; c < 8; ++c)
        acc += s->v[row][quarter * 8 + c];
      tiles.release(s);
    }
    p.out[int(t) * 128 + threadIdx.x] = acc;
  }
}

[[ts::kernel(load, compute)]] __global__ void trap_blocked(const __grid_constant__ Params p);
