// Two consumer warpgroups take turns on one pipeline's stages (ts::turns,
// FA3's ping-pong): the mutants drop or double a hand-over, or swap who
// goes first.
#include <ts/ts.h>

struct Params { ts::tma::map<float, 32, 32> src; float *dst; int tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::turns)]] Mma {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.acquire();
    ts::tma::load(s->v, &p.src, {0, int(t) * 32}, s.barrier());
    a.commit(s);
  }
}


[[ts::task(ts::warps(4, 4))]]
__device__ void mma0(const Params &p, ts::consumer<A> a, ts::turn<Mma, 0> turn) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.wait();
    turn.take();
    float x = s->v[0][threadIdx.x % 32];
    turn.pass();
    a.release(s);
    p.dst[int(t) * 64 + threadIdx.x % 32] = x;
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void mma1(const Params &p, ts::consumer<A> a, ts::turn<Mma, 1> turn) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.wait();
    turn.take();
    float x = s->v[1][threadIdx.x % 32];
    turn.pass();
    a.release(s);
    p.dst[int(t) * 64 + 32 + threadIdx.x % 32] = x;
  }
}
[[ts::kernel(load, mma0, mma1)]] __global__ void k(const __grid_constant__ Params p);
