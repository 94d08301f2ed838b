// TMA stores on the sides of a branch whose condition the verifier cannot
// evaluate (a parameter, data): each run takes or skips each branch it
// meets, and an `else` runs exactly when its `then` did not, so what holds
// on every path is accepted and a race on one path is found. Before, both
// outcomes were joined after the branch, and an epilogue that stores in
// both branches (64 or 128 columns, by tile) was refused.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct __align__(128) Params { CUtensorMap c; int tiles; int wide; int *flags; };
struct [[ts::resource(ts::task_owned)]] Out { float two[2][64 * 32]; float one[64 * 32]; };

__device__ __forceinline__ bool issuer() { return threadIdx.x % 128 == 0; }

/// Chunks chunks through two buffers, one store in flight.
template <int Chunks>
__device__ void store_chunks(const Params &p, int t, float (&bufs)[2][64 * 32]) {
#pragma unroll
  for (int j = 0; j < Chunks; ++j) {
    float *buf = bufs[j & 1];
    if (issuer())
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
    buf[threadIdx.x % 128] = float(t + j); // expected-error {{'buf[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {j * 32, t * 64}, buf); // expected-note {{this store reads it}}
  }
}

// Four chunks or two, by tile: every sequence of tiles is safe.
[[ts::task(ts::warps(0, 4))]]
__device__ void by_tile(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (p.flags[int(t)])
      store_chunks<4>(p, int(t), out->two);
    else
      store_chunks<2>(p, int(t), out->two);
  }
}
[[ts::kernel(by_tile)]] __global__ void k_by_tile(const __grid_constant__ Params p);

// Sometimes no store at all.
[[ts::task(ts::warps(0, 4))]]
__device__ void some_tiles(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    if (p.flags[int(t)] > 1)
      store_chunks<2>(p, int(t), out->two);
}

// Three chunks end on the first buffer, which the next storing tile
// rewrites first while that store may still read it.
[[ts::task(ts::warps(0, 4))]]
__device__ void odd_tiles(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    if (p.flags[int(t)] > 1)
      store_chunks<3>(p, int(t), out->two);
}
[[ts::kernel(odd_tiles)]] __global__ void k_odd_tiles(const __grid_constant__ Params p);
[[ts::kernel(some_tiles)]] __global__ void k_some_tiles(const __grid_constant__ Params p);

// One side stores from the single buffer and the other rewrites it with no
// wait: safe in each tile alone, a race when a storing tile comes first.
[[ts::task(ts::warps(0, 4))]]
__device__ void other_side(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (p.flags[int(t)]) {
      if (issuer())
        ts::tma::wait_store_reads<0>();
      ts::sync_warpgroup();
      out->one[threadIdx.x % 128] = 1.0f;
      ts::tma::store_fence();
      ts::sync_warpgroup();
      if (issuer())
        ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it}}
    } else {
      out->one[threadIdx.x % 128] = 0.0f; // expected-error {{'out->one[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    }
  }
}
[[ts::kernel(other_side)]] __global__ void k_other_side(const __grid_constant__ Params p);

// The single buffer rewritten after a wait that leaves one store in
// flight: safe in the first storing tile, a race in the second.
[[ts::task(ts::warps(0, 4))]]
__device__ void twice(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (p.flags[int(t)] > 2) {
      if (issuer())
        ts::tma::wait_store_reads<1>();
      ts::sync_warpgroup();
      out->one[threadIdx.x % 64] = 2.0f; // expected-error {{'out->one[threadIdx.x % 64]' is written while a TMA store may still be reading it}}
      ts::tma::store_fence();
      ts::sync_warpgroup();
      if (issuer())
        ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it}}
    }
  }
}
[[ts::kernel(twice)]] __global__ void k_twice(const __grid_constant__ Params p);
