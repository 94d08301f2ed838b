// Stages read by asynchronous MMAs (ts::wgmma): a stage handed to an MMA is
// read until a wait_group sees its group complete, so it may be released
// only after that wait. The usual lag (wait for stage k, issue its MMAs,
// wait until one group is pending, release stage k-1) holds a stage across
// an iteration boundary: release_oldest() under 'if (!i.first())' hands back
// the previous iteration's stage, and the last iteration releases its own.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap a; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 a[64 * 64];
};

// One producer per kernel (handles stay in their task, so a macro).
#define LOAD_TILES(t)                                                     \
  for (auto k : ts::domain(0, p.k_tiles)) {                               \
    auto s = t.acquire();                                                 \
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());            \
    t.commit(s);                                                          \
  }

// (a) The lag, verified for every trip count.
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence();
    for (int kk = 0; kk < 4; ++kk)
      ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(d, kk * 32), d, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!k.first())
      tiles.release_oldest();
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      tiles.release(s);
    }
  }
}
[[ts::kernel(load, mma)]] __global__ void lag(const __grid_constant__ Params p);

// (b) Released before the MMAs that read it are waited for.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_b(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void early(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::mma_bf16(acc, d, d, true); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>(); // expected-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running}}
    tiles.release(s); // expected-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}}
  }
}
[[ts::kernel(load_b, early)]] __global__ void released_early(const __grid_constant__ Params p);

// (c) The group is never committed before the release.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void open_group(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    ts::wgmma::mma_bf16(acc, ts::wgmma::make_desc_sw128(s->a), 0, true); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::wait_group<0>();
    tiles.release(s); // expected-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}} expected-note {{close its group with ts::wgmma::commit_group() and wait for it with ts::wgmma::wait_group<0>() before the release}}
    ts::wgmma::commit_group();
  }
}
[[ts::kernel(load_c, open_group)]] __global__ void uncommitted(const __grid_constant__ Params p);

// (d) The lag without the last iteration's release: the final stage is
// never handed back in the loop, and the tail cannot release it (at trip
// count 0 the task holds none).
[[ts::task(ts::warps(0, 1))]]
__device__ void load_d(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void tail(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait(); // expected-error {{stage of 'Tile' waited for in the loop is not released in the same iteration}} expected-note {{release it before the end of the loop body}} expected-note {{or, for an asynchronous reader, hand it back in the next iteration with release_oldest() under 'if (!i.first())' and hand the last one back under 'if (i.last())'}}
    ts::wgmma::mma_bf16(acc, ts::wgmma::make_desc_sw128(s->a), 0, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!k.first())
      tiles.release_oldest(); // expected-note {{the last stage was released here}}
  }
  ts::wgmma::wait_group<0>();
  tiles.release_oldest(); // expected-error {{release of 'Tile' without an open wait}} expected-note {{wait a stage before the release}} expected-error {{release_oldest of 'Tile' runs while the task holds no stage of it}} expected-note {{wait for a stage before handing the oldest back}}
}
[[ts::kernel(load_d, tail)]] __global__ void tail_release(const __grid_constant__ Params p);

// (e) The lag holds two stages: with one stage the consumer waits for the
// second while it holds the first, which the producer needs back.
struct [[ts::resource(ts::tma_async, ts::stages(1), ts::swizzled)]] One { // expected-note {{'One': 0 empty, 0 full stages}} expected-note {{ts::stages(2) on 'One' removes it: every trip count then passes}}
  __nv_bfloat16 a[64 * 64];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void load_e(const Params &p, ts::producer<One> t) { LOAD_TILES(t) } // expected-error {{deadlock: task 'load_e' blocks forever on acquire of 'One' (trip count 2)}} expected-note {{trace 1/3: task 'load_e' acquire of 'One' (iteration 0)}} expected-note {{trace 2/3: task 'load_e' commit of 'One' (iteration 0)}} expected-note {{every acquire beyond the 1 stage of 'One' needs a release from each consumer task}}

[[ts::task(ts::warps(4, 4))]]
__device__ void one_stage(const Params &p, ts::consumer<One> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait(); // expected-note {{task 'one_stage' is blocked here on wait of 'One'}} expected-note {{task 'one_stage' holds 1 stage of 'One' it waited for but never released}} expected-note {{trace 3/3: task 'one_stage' wait of 'One' (iteration 0)}}
    ts::wgmma::mma_bf16(acc, ts::wgmma::make_desc_sw128(s->a), 0, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!k.first())
      tiles.release_oldest(); // expected-note {{this release runs on every iteration but the first}}
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      tiles.release(s); // expected-note {{this release runs only on the last iteration}}
    }
  }
}
[[ts::kernel(load_e, one_stage)]] __global__ void too_few_stages(const __grid_constant__ Params p);
