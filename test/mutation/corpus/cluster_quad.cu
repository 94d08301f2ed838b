// Mutation corpus: clusters of four CTAs along x (ts::cluster_shape(4)),
// written without the ts::cluster helpers. A CTA finds its seat in the quad
// as blockIdx.x % 4 (through a __device__ helper with an out-parameter) and
// walks the units by quad: blockIdx.x / 4 .. p.units, step gridDim.x / 4, so
// the four CTAs of a quad run the same trip counts. Each stage of the
// ts::multicast resource `Slab` has a private part (`rows`, a plain load of
// this CTA's 32 rows) and two parts the quad shares: the weight tile `w`
// (64 rows, 16 loaded per CTA) and the gate `g` (4 rows, one per CTA), each
// share multicast to all four, so every CTA's stage gets all of its bytes.
#include <ts/ts.h>

constexpr int kQuad = 4;

struct Params { CUtensorMap rows, w, g; float *out; int units; };
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::multicast)]] Slab {
  float rows[32 * 64]; // private
  float w[64 * 64];    // shared: rows [16 * seat, 16 * seat + 16) come from CTA `seat`
  float g[4 * 64];     // shared: row `seat` comes from CTA `seat`
};
struct [[ts::resource(ts::gmem)]] Sink {};

__device__ inline void seat_in_quad(unsigned &seat) { seat = blockIdx.x % kQuad; }
__device__ inline unsigned quad_of_cta() { return blockIdx.x / kQuad; }
__device__ inline unsigned quads_in_grid() { return gridDim.x / kQuad; }

[[ts::task(ts::warps(0, 1))]]
__device__ void feed(const Params &p, ts::producer<Slab> slabs) {
  unsigned seat;
  seat_in_quad(seat);
  for (auto u : ts::domain(quad_of_cta(), p.units, quads_in_grid())) {
    auto s = slabs.acquire();
    const int unit = int(u);
    ts::tma::load(s->rows, &p.rows, {0, (unit * kQuad + int(seat)) * 32}, s.barrier());
    ts::tma::load_multicast(s->w + seat * 16 * 64, &p.w, {0, unit * 64 + int(seat) * 16}, s.barrier());
    ts::tma::load_multicast(s->g + seat * 64, &p.g, {0, unit * kQuad + int(seat)}, s.barrier());
    slabs.commit(s);
  }
}

[[ts::task(ts::warps(1, 4))]]
__device__ void reduce(const Params &p, ts::consumer<Slab> slabs, ts::producer<Sink>) {
  unsigned seat;
  seat_in_quad(seat);
  const int t = int(threadIdx.x) - 32; // 0 .. 127
  for (auto u : ts::domain(quad_of_cta(), p.units, quads_in_grid())) {
    auto s = slabs.wait();
    float dot = 0.f;
    for (int c = 0; c < 16; ++c)
      dot += s->rows[t * 16 + c] * s->w[t * 32 + c];
    dot *= s->g[t * 2];
    slabs.release(s);
    p.out[(int(u) * kQuad + int(seat)) * 128 + t] = dot;
  }
}

[[ts::kernel(feed, reduce, ts::cluster_shape(kQuad))]] __global__ void cluster_quad(const __grid_constant__ Params p);
