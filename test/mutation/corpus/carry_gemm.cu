// Mutation corpus: a persistent GEMM main loop with the MMA lag written
// like a hand-written kernel: the consumer declares `ts::stage<Tiles> prev;`
// in the tile loop (it holds nothing at the start of each tile), hands back
// the previous k-step's stage with release(prev) under `if (!k.first())`
// once that step's group is done (wait_group<1>), carries its own
// (`prev = s;`), and after the k-loop waits for the last group and hands
// back the tile's last stage. That release needs the k-loop to have run:
// the consumer's k-loop is `.nonempty()`, the loader's a plain domain.
// The lag holds two stages: one stage deadlocks.
// mutation: min-stages Tiles=2
#include <ts/ts.h>

struct Params { CUtensorMap a; CUtensorMap b; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(3), ts::swizzled)]] Tiles {
  __nv_bfloat16 a[64 * 64];
  __nv_bfloat16 b[64 * 64];
};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = tiles.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 64}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());
      tiles.commit(s);
    }
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  float acc[32];
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    ts::stage<Tiles> prev; // the stage the previous k-step's MMAs read
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = tiles.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a);
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
      for (int kk = 0; kk < 4; ++kk)
        ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
                            ts::wgmma::advance_k(db, kk * 32), int(k) > 0 || kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<1>(); // the previous k-step's group is done
      if (!k.first())
        tiles.release(prev);
      prev = s;
    }
    ts::wgmma::wait_group<0>(); // the tile's last group, then its stage
    ts::wgmma::fence_operand(acc);
    tiles.release(prev);
    for (int r = 0; r < 32; ++r)
      p.out[(int(t) * 128 + threadIdx.x) * 32 + r] = acc[r];
  }
}

[[ts::kernel(load, mma)]] __global__ void carry_gemm(const __grid_constant__ Params p);
