// Bounds that are one value spelled with a commutative operator's operands
// swapped (`p.n + 1` and `1 + p.n`, `p.n * 2` and `2 * p.n`) run the same
// trip count and are verified (an adversarial corpus found them refused,
// session 30); a bound one more than the partner's is still an error (the
// protocol run's deadlock, with the count that shows it).
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok
// RUN: %ts_device -fsyntax-only -DOFF_BY_ONE %s -Xclang -verify=off
// ok-no-diagnostics
#include <ts/ts.h>

struct Params { const float *src; int n; float *out; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[128]; };
struct [[ts::resource(ts::gmem)]] Sums {};

#if defined(OFF_BY_ONE)
#define SUM_BOUND 2 + p.n
#else
#define SUM_BOUND 1 + p.n
#endif

#define PAIR(LOAD, SUM, LOAD_BOUND, USE_BOUND)                                           \
  [[ts::task(ts::warps(4, 4))]]                                                           \
  __device__ void LOAD(const Params &p, ts::producer<Chunk> chunks) {                     \
    const int t = threadIdx.x - 128;                                                      \
    for (auto i : ts::domain(0, LOAD_BOUND)) {                                            \
      auto s = chunks.acquire();                                                          \
      s->v[t] = p.src[int(i) * 128 + t];                                                  \
      chunks.commit(s);                                                                   \
    }                                                                                     \
  }                                                                                       \
  [[ts::task(ts::warps(0, 4))]]                                                           \
  __device__ void SUM(const Params &p, ts::consumer<Chunk> chunks, ts::producer<Sums>) {  \
    const int t = threadIdx.x;                                                            \
    float acc = 0;                                                                        \
    for (auto i : ts::domain(0, USE_BOUND)) {                                             \
      auto s = chunks.wait();                                                             \
      acc += s->v[t];                                                                     \
      chunks.release(s);                                                                  \
    }                                                                                     \
    p.out[blockIdx.x * 128 + t] = acc;                                                    \
  }

// off-note@* 0+ {{}}
PAIR(load, sum, p.n + 1, SUM_BOUND) // off-error {{deadlock: task 'sum' blocks forever on wait of 'Chunk' (p.n = -1: trip counts load 0, sum 1)}}
[[ts::kernel(load, sum)]] __global__ void k(const __grid_constant__ Params p);

PAIR(load2, sum2, p.n * 2, 2 * p.n)
[[ts::kernel(load2, sum2)]] __global__ void k2(const __grid_constant__ Params p);
