// A consumer that peels its first k-step (issue 22): it waits for the
// first stage before its k-loop, which then runs one step fewer than the
// producer's. The verifier pairs the two counts exactly (N and N - 1) for
// every N, and refuses loops apart by a constant that the peeled steps do
// not make up for.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DPRODUCER_PEELS %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=PROD
// RUN: %ts_device -fsyntax-only -DMAYBE_EMPTY %s -Xclang -verify=empty
// RUN: %ts_device -fsyntax-only -DPRODUCER_PEELS -DMAYBE_EMPTY %s -Xclang -verify=prodempty
// RUN: %ts_device -fsyntax-only -DNO_PEEL %s -Xclang -verify=nopeel
// RUN: %ts_device -fsyntax-only -DFROM_ZERO %s -Xclang -verify=fromzero
// RUN: %ts_device -fsyntax-only -DGUARDED %s -Xclang -verify=guarded
// ok-no-diagnostics
#include <ts/ts.h>

struct Params { ts::tma::map<__nv_bfloat16, 64, 64> a; float *out; int tiles, k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile { // empty-note {{'Tile': 2 empty, 0 full stages}} fromzero-note {{'Tile': 2 empty, 0 full stages}} prodempty-note {{'Tile': 0 empty, 2 full stages}}
  __nv_bfloat16 a[64 * 64];
};

// The loop that runs the whole count: nonempty(), so that the peeled step
// has a stage (k_tiles >= 1; at 0 the kernel traps).
#ifdef MAYBE_EMPTY
#define WHOLE(n) ts::domain(0, n)
#else
#define WHOLE(n) ts::domain(0, n).nonempty()
#endif

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) { // empty-note {{task 'load' has finished after committing 0 stages}} fromzero-note {{task 'load' has finished after committing 1 stage}}
  for (auto t : ts::domain(0, p.tiles)) {
#ifdef PRODUCER_PEELS
    // At k_tiles == 0 without nonempty(): one stage more than 'mma' takes.
    auto s0 = tiles.acquire(); // prodempty-error {{deadlock: task 'load' blocks forever on acquire of 'Tile' (trip count 3)}} prodempty-note 2 {{trace}} prodempty-note {{every acquire beyond the 2 stages of 'Tile' needs a release from each consumer task}}
    ts::tma::load(s0->a, &p.a, {0, int(t) * 64}, s0.barrier());
    tiles.commit(s0); // prodempty-error {{1 commit of 'Tile' is never waited for (trip count 1)}} prodempty-note {{every commit needs one wait in each consumer task}} prodempty-note 2 {{trace}}
    for (auto k : ts::domain(1, p.k_tiles)) { // prodempty-note 2 {{found with this inner ts::domain loop running 0 times in each iteration of the loop around it}}
#else
    for (auto k : WHOLE(p.k_tiles)) { // nopeel-note {{task 'load' loops over (0, p.k_tiles, 1)}} guarded-note {{task 'load' loops over (0, p.k_tiles, 1)}}
#endif
      auto s = tiles.acquire(); // fromzero-note {{trace 1/4: task 'load' acquire of 'Tile' (iteration 0)}}
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 64}, s.barrier());
      tiles.commit(s); // fromzero-note {{trace 2/4: task 'load' commit of 'Tile' (iteration 0)}}
    }
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) { // prodempty-note {{task 'mma' waits for 0 stages}} prodempty-note {{task 'mma' has finished after releasing 0 stages}}
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
#if !defined(NO_PEEL) && !defined(PRODUCER_PEELS)
    { // the first k-step, peeled: it starts the accumulator
      auto s = tiles.wait(); // empty-error {{deadlock: task 'mma' blocks forever on wait of 'Tile' (trip count 1)}} empty-note {{every wait on 'Tile' needs a commit from each producer task}}
      // fromzero-note@-1 {{trace 3/4: task 'mma' wait of 'Tile' (iteration 0)}}
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, false);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<0>();
      tiles.release(s); // fromzero-note {{trace 4/4: task 'mma' release of 'Tile' (iteration 0)}}
    }
#endif
#if defined(FROM_ZERO) // peeled, and a whole k-loop besides: one stage too many
    for (auto k : ts::domain(0, p.k_tiles)) { // fromzero-note {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
#elif defined(PRODUCER_PEELS)
    for (auto k : WHOLE(p.k_tiles)) {
#else
    for (auto k : ts::domain(1, p.k_tiles)) { // nopeel-error {{the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts}} nopeel-note {{task 'mma' loops over (1, p.k_tiles, 1)}} nopeel-note {{per tile task 'load' moves 1 stage of 'Tile' more than task 'mma': a k-loop that runs fewer steps must do the missing steps' stage operations outside it (a peeled step)}} nopeel-note {{give both inner loops the same bounds, or bounds apart by a constant}}
      // guarded-error@-1 {{the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts}} guarded-note@-1 {{task 'mma' loops over (1, p.k_tiles, 1)}} guarded-note@-1 {{a stage operation of 'Tile' runs only on some iterations: with guards, k-loops must have equal bounds}} guarded-note@-1 {{give both inner loops the same bounds}}
      // empty-note@-2 {{found with this inner ts::domain loop running 0 times in each iteration of the loop around it}}
#endif
      auto s = tiles.wait(); // fromzero-error {{deadlock: task 'mma' blocks forever on wait of 'Tile' (trip count 1)}} fromzero-note {{every wait on 'Tile' needs a commit from each producer task}}
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, true);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<0>();
#ifdef GUARDED
      if (k.last()) { // one more stage on the last step: not the producer's count
        auto extra = tiles.wait();
        tiles.release(extra);
      }
#endif
      tiles.release(s);
    }
    p.out[int(t)] = acc[0];
  }
}
[[ts::kernel(load, mma)]] __global__ void k(const __grid_constant__ Params p);

// CHECK: load  warps [0, 1)  consumes -  produces Tile  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1).nonempty()
// CHECK: mma  warps [4, 8)  consumes Tile  produces -  domain(0, p.tiles, 1) > domain(1, p.k_tiles, 1)
// CHECK: verification: PASSED (0 error(s), 0 warning(s))
// CHECK: protocol: inner loop 1 to 10 times (bounded
// PROD: load  warps [0, 1)  consumes -  produces Tile  domain(0, p.tiles, 1) > domain(1, p.k_tiles, 1)
// PROD: mma  warps [4, 8)  consumes Tile  produces -  domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1).nonempty()
// PROD: verification: PASSED (0 error(s), 0 warning(s))
// PROD: protocol: inner loop 1 to 10 times (bounded
