// A stage kept past its iteration in a carried variable: `ts::stage<R>
// prev;` declared where pipeline operations may stand, assigned `prev = s;`
// and handed back one iteration later (the lag of an asynchronous reader:
// wait for stage k, issue its MMAs, wait until one group is pending,
// release stage k-1). The ownership check follows which stage the variable
// holds; the GEMM's mutations (release before the MMA wait, one stage fewer
// than the lag needs, the copy before the release, no release after the
// k-loop, no guard) are errors.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DEARLY %s -Xclang -verify=early
// RUN: %ts_device -fsyntax-only -DUNGUARDED %s -Xclang -verify=unguarded
// RUN: %ts_device -fsyntax-only -DCOPYFIRST %s -Xclang -verify=copyfirst
// RUN: %ts_device -fsyntax-only -DNOTAIL %s -Xclang -verify=notail
// RUN: %ts_device -fsyntax-only -DSTAGES1 %s -Xclang -verify=stages1
// RUN: %ts_device -fsyntax-only -DFLATLAG %s -Xclang -verify=ok
// Accepted, both compile: the carried variable is a plain ts::stage copy.
// RUN: %ts_device -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %ts_device -S -DFLATLAG %s -o - | FileCheck %s --check-prefix=PTX
// PTX: .entry _Z1k6Params(
// PTX: wgmma.wait_group.sync.aligned 1
// PTX: mbarrier.arrive
// ok-no-diagnostics
#include <ts/ts.h>

#ifdef STAGES1
#define STAGES 1
#else
#define STAGES 2
#endif

struct Params { CUtensorMap a; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(STAGES), ts::swizzled)]] Tile { // stages1-note {{'Tile': 0 empty, 0 full stages}} stages1-note {{ts::stages(2) on 'Tile' removes it: every trip count then passes}}
  __nv_bfloat16 a[64 * 64];
};

#ifdef FLATLAG
// One loop: the last iteration hands its own stage back (at trip count 0
// there is none to hand back after the loop).
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32];
  ts::stage<Tile> prev;
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence();
    ts::wgmma::mma_bf16(acc, d, d, int(k) > 0);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!k.first())
      tiles.release(prev);
    prev = s;
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      tiles.release(s);
    }
  }
  p.out[0] = acc[0];
}
#else
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // stages1-note {{found with this inner ts::domain loop running 2 times in each iteration of the loop around it}}
      auto s = tiles.acquire(); // stages1-error {{deadlock: task 'load' blocks forever on acquire of 'Tile' (trip count 1)}} stages1-note {{trace 1/3: task 'load' acquire of 'Tile' (iteration 0)}} stages1-note {{every acquire beyond the 1 stage of 'Tile' needs a release from each consumer task}}
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 64}, s.barrier());
      tiles.commit(s); // stages1-note {{trace 2/3: task 'load' commit of 'Tile' (iteration 0)}}
    }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
    ts::stage<Tile> prev; // holds nothing at the start of each tile
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // early-note {{found with this inner ts::domain loop running 2 times in each iteration of the loop around it}} unguarded-note 2 {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}} copyfirst-note 3 {{found with this inner ts::domain loop running 2 times in each iteration of the loop around it}} notail-note {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
      auto s = tiles.wait(); // stages1-note {{task 'mma' is blocked here on wait of 'Tile'}} stages1-note {{task 'mma' holds 1 stage of 'Tile' it waited for but never released}} stages1-note {{trace 3/3: task 'mma' wait of 'Tile' (iteration 0)}} copyfirst-note {{the older stage was taken here}} notail-error {{stage of 'Tile' waited for in the loop is not released in the same iteration}} notail-note {{release it before the end of the loop body}}
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, int(k) > 0); // early-note {{the MMA reading the stage is issued here}} copyfirst-note {{the MMA reading the stage is issued here}}
      ts::wgmma::commit_group();
#ifdef EARLY
      if (!k.first())
        tiles.release(prev); // early-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}}
      ts::wgmma::wait_group<1>(); // early-note {{wait with ts::wgmma::wait_group<1>() or a smaller N before the release: 2 groups committed since the read may still be running}}
#elif defined(UNGUARDED)
      ts::wgmma::wait_group<1>();
      tiles.release(prev); // unguarded-error {{release of 'Tile' hands back a carried stage variable that holds no stage here}} unguarded-note {{assign it a stage first ('prev = s;'); a release that lags one iteration runs under 'if (!i.first())'}} unguarded-note {{the last stage was released here}}
#elif defined(COPYFIRST)
      ts::wgmma::wait_group<1>(); // copyfirst-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running}}
      prev = s;
      if (!k.first())
        tiles.release(prev); // copyfirst-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}} copyfirst-error {{release of 'Tile' hands back a newer stage while an older one is held}} copyfirst-note {{hand stages of one resource back oldest first, or hand the older one back in the same iteration without release_oldest()}} copyfirst-note {{the stage was released here}}
#else
      ts::wgmma::wait_group<1>(); // the previous step's MMAs are done reading
      if (!k.first())
        tiles.release(prev);
#endif
#ifndef COPYFIRST
      prev = s;
#endif
    }
    ts::wgmma::wait_group<0>();
#ifndef NOTAIL
    tiles.release(prev); // unguarded-error {{release of 'Tile' without an open wait}} unguarded-note {{wait a stage before the release}} copyfirst-error {{release of 'Tile' hands back a stage that was already released}} copyfirst-note {{hand each stage back exactly once}}
#endif
    p.out[int(t)] = acc[0];
  }
}
#endif
[[ts::kernel(load, mma)]] __global__ void k(const __grid_constant__ Params p);

// CHECK: mma  warps [4, 8)  consumes Tile  produces -  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1).nonempty()
// CHECK: stage copy  L  #0
// CHECK: Tile       wait        L  #0.0
// CHECK: stage copy  L  #0.0
// CHECK: Tile       release     L  #0.1
// CHECK: stage copy  L  #0.1
// CHECK: Tile       release     L    #0
// CHECK: verification: PASSED (0 error(s), 0 warning(s))
