// A k-loop nested in a tile loop (a persistent kernel): the verifier writes
// the k-loop out for each inner trip count from 0 to all stages + 3 and
// checks every tile count at each. Findings name the inner count.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DAFTER %s -Xclang -verify=after
// RUN: %ts_device -fsyntax-only -DWAIT2 %s -Xclang -verify=wait2
// RUN: %ts_device -fsyntax-only -DSTAGES1 %s -Xclang -verify=stages1
// RUN: %ts_device -fsyntax-only -DFLAT %s -Xclang -verify=flat
// RUN: %ts_device -fsyntax-only -DMISMATCH %s -Xclang -verify=mismatch
// RUN: %ts_device -fsyntax-only -DJUMPS %s -Xclang -verify=jumps
// RUN: %ts_device -fsyntax-only -DAFTER -DNONEMPTY %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=NONEMPTY
// ok-no-diagnostics
#include <ts/ts.h>

#ifdef NONEMPTY // the k-loops trap when empty: a release after them is safe
#define KLOOP(n) ts::domain(0, n).nonempty()
#else
#define KLOOP(n) ts::domain(0, n)
#endif
#ifdef STAGES1
#define STAGES 1
#else
#define STAGES 2
#endif
#ifdef WAIT2
#define PENDING 2
#else
#define PENDING 1
#endif

struct Params { CUtensorMap a; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(STAGES), ts::swizzled)]] Tile { // stages1-note {{'Tile': 0 empty, 0 full stages}} stages1-note {{ts::stages(2) on 'Tile' removes it: every trip count then passes}}
  __nv_bfloat16 a[64 * 64];
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
#ifdef FLAT
  for (auto i : ts::domain(0, p.tiles)) { // flat-error {{task 'load' exchanges stages of 'Tile' with task 'mma', which nests a ts::domain loop in its loop, but has no such loop}}
    auto s = tiles.acquire();
    ts::tma::load(s->a, &p.a, {0, int(i) * 64}, s.barrier());
    tiles.commit(s);
  }
#else
  for (auto t : ts::domain(0, p.tiles))
#ifdef MISMATCH
    for (auto k : ts::domain(0, p.k_tiles + 1)) { // mismatch-note {{task 'load' loops over (0, p.k_tiles + 1, 1)}}
#else
    for (auto k : KLOOP(p.k_tiles)) { // stages1-note {{found with this inner ts::domain loop running 2 times in each iteration of the loop around it}}
#endif
      auto s = tiles.acquire(); // stages1-error {{deadlock: task 'load' blocks forever on acquire of 'Tile' (trip count 1)}} stages1-note {{trace 1/3: task 'load' acquire of 'Tile' (iteration 0)}} stages1-note {{every acquire beyond the 1 stage of 'Tile' needs a release from each consumer task}}
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 64}, s.barrier());
      tiles.commit(s); // stages1-note {{trace 2/3: task 'load' commit of 'Tile' (iteration 0)}}
    }
#endif
}
// flat-note@37 {{write the same loops in both tasks: the tile loop with the k-loop inside it}}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : KLOOP(p.k_tiles)) { // flat-note {{the inner ts::domain loop of 'mma' is here}} mismatch-error {{the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts}} mismatch-note {{task 'mma' loops over (0, p.k_tiles, 1)}} mismatch-note {{per tile task 'load' moves 1 stage of 'Tile' more than task 'mma': a k-loop that runs fewer steps must do the missing steps' stage operations outside it (a peeled step)}} mismatch-note {{give both inner loops the same bounds}}
      // after-note@-1 2 {{found with this inner ts::domain loop running 0 times in each iteration of the loop around it}}
      // wait2-note@-2 {{found with this inner ts::domain loop running 2 times in each iteration of the loop around it}}
      auto s = tiles.wait(); // stages1-note {{task 'mma' is blocked here on wait of 'Tile'}} stages1-note {{task 'mma' holds 1 stage of 'Tile' it waited for but never released}} stages1-note {{trace 3/3: task 'mma' wait of 'Tile' (iteration 0)}}
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, int(k) > 0); // wait2-note {{the MMA reading the stage is issued here}}
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<PENDING>(); // wait2-note {{wait with ts::wgmma::wait_group<1>() or a smaller N before the release: 2 groups committed since the read may still be running}}
      if (!k.first())
        tiles.release_oldest(); // wait2-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}}
#ifdef JUMPS
      if (int(k) == 3)
        break; // jumps-error {{'break' in the ts::domain loop cannot be verified}} jumps-note {{every iteration must run the loop body's pipeline operations; guard the work instead}}
#endif
#ifndef AFTER
      if (k.last()) { // the tile's last step hands its own stage back
        ts::wgmma::wait_group<0>();
        tiles.release(s);
      }
#endif
    }
#ifdef AFTER
    // After the k-loop: wrong when it ran no iteration.
    ts::wgmma::wait_group<0>();
    tiles.release_oldest(); // after-error {{release of 'Tile' without an open wait}} after-note {{wait a stage before the release}} after-error {{release_oldest of 'Tile' runs while the task holds no stage of it}} after-note {{wait for a stage before handing the oldest back; guard the release like the wait it follows (i.first(), i.last() or their negations)}}
#endif
    p.out[int(t)] = acc[0];
  }
}
[[ts::kernel(load, mma)]] __global__ void k(const __grid_constant__ Params p);

// CHECK: load  warps [0, 1)  consumes -  produces Tile  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1)
// CHECK: mma  warps [4, 8)  consumes Tile  produces -  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1)
// CHECK: Tile       acquire     L  #0.0
// CHECK: Tile       release     L  #0.1
// CHECK: #i iteration (#i.k: inner loop iteration k, written out)
// CHECK: verification: PASSED (0 error(s), 0 warning(s))
// CHECK: protocol: inner loop 0 to 5 times (bounded: docs/verifier.md, "Nested domains"); outer loop, at each: every trip count
// NONEMPTY: mma  warps [4, 8)  consumes Tile  produces -  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1).nonempty()
// NONEMPTY: verification: PASSED (0 error(s), 0 warning(s))
// NONEMPTY: protocol: inner loop 1 to 6 times
