// Mutation corpus: a consumer that holds two stages of one resource at once
// (wait, wait, release, release; the producer fills two per iteration). It
// needs two stages of Tile.
//
// Whether that is valid depends on the runtime (include/ts/pipeline.h):
// when acquire()/wait() move the cursor and release(s) hands back stage s,
// the two waits take consecutive stages and this is a correct
// double-buffered read. When only commit()/release() move the cursor, the
// second wait returns the SAME stage, the consumer reads stage k twice and
// never k+1, and its second release arrives on stage k+1 before anyone
// waited for it, so the producer may overwrite k+1 before it is read: then
// the file is a seed BUG, checked to be refused and not mutated.
// mutation: seed-bug if close-advances
// mutation: min-stages Tile=2
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tile { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Dst {};

[[ts::task(ts::warps(4, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tile) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s0 = tile.acquire();
    ts::tma::load(s0->v, &p.src, {0, int(i) * 64}, s0.barrier());
    tile.commit(s0);
    auto s1 = tile.acquire();
    ts::tma::load(s1->v, &p.src, {0, int(i) * 64 + 32}, s1.barrier());
    tile.commit(s1);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void pairs(const Params &p, ts::consumer<Tile> tile, ts::producer<Dst>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto a = tile.wait();
    auto b = tile.wait();
    p.dst[int(i) * 128 + threadIdx.x] = a->v[threadIdx.x / 32][threadIdx.x % 32] +
                                        b->v[threadIdx.x / 32][threadIdx.x % 32];
    tile.release(a);
    tile.release(b);
  }
}

[[ts::kernel(load, pairs)]] __global__ void pair_sum(const __grid_constant__ Params p);
