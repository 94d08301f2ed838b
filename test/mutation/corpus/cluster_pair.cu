// Mutation corpus: a 2-CTA cluster (ts::cluster_shape(2)) whose CTAs share
// half of every stage. One TMA producer warp loads this CTA's own half of a
// stage (A) with a plain load and its share of the shared half (B) with a
// multicast load, which writes the same stage of both CTAs; so the resource
// is ts::multicast: each consumer warp hands a stage back to both CTAs, and
// every CTA's stage receives all of its bytes. The tile loop runs over
// clusters (ts::cluster::id() / count()), so both CTAs run the same trip
// counts (docs/verifier.md, "Clusters and multicast").
#include <ts/ts.h>

struct Params { CUtensorMap a, b; float *out; int units; };
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::multicast)]] Pair {
  float a[64 * 32]; // this CTA's
  float b[64 * 32]; // shared: each CTA loads 32 of its 64 rows, multicast to both
};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Pair> pairs) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = pairs.acquire();
    ts::tma::load(s->a, &p.a, {0, (int(u) * 2 + int(rank)) * 64}, s.barrier());
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32},
                               s.barrier());
    pairs.commit(s);
  }
}

[[ts::task(ts::warps(1, 4))]]
__device__ void use(const Params &p, ts::consumer<Pair> pairs, ts::producer<Out>) {
  const unsigned rank = ts::cluster::rank();
  const int i = int(threadIdx.x) - 32; // 0 .. 127
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = pairs.wait();
    float acc = 0.f;
#pragma unroll
    for (int c = 0; c < 16; ++c)
      acc += s->a[i * 16 + c] * s->b[i * 16 + c];
    pairs.release(s);
    p.out[(int(u) * 2 + int(rank)) * 128 + i] = acc;
  }
}

[[ts::kernel(load, use, ts::cluster_shape(2))]] __global__ void cluster_pair(const __grid_constant__ Params p);
