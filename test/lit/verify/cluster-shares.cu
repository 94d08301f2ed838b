// ts-cluster: the CTAs of a cluster share a multicast stage, so every CTA
// must run the same iterations (a loop over clusters, not CTAs) and load
// its own share (the destination and the coordinates depend on the CTA's
// position in the cluster). What a bound or an argument reads is followed
// through locals, helper functions, out-parameters and special registers.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -Werror -DOK %s
#include <ts/ts.h>

struct Params { CUtensorMap a, b; float *out; int units; const int *offsets; };
struct [[ts::resource(ts::gmem)]] Out {};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::multicast)]] Tiles { // expected-note 4 {{each phase of 'Tiles' (ts::multicast) needs the releases and loads of every CTA of the cluster}}
  float b[64 * 32];
};

constexpr int kPair = 2;
__device__ int first_pair() { return int(blockIdx.x) / kPair; }
__device__ int pairs() { return int(gridDim.x) >> 1; }
__device__ void share_of(unsigned &share) { share = blockIdx.x % kPair; }

// Valid: the loop runs over pairs (blockIdx.x / 2, gridDim.x >> 1), the
// share comes from blockIdx.x % 2 through an out-parameter.
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  unsigned share;
  share_of(share);
  for (auto u : ts::domain(first_pair(), p.units, pairs())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + share * 32 * 32, &p.b, {0, int(u) * 64 + int(share) * 32},
                               s.barrier());
    t.commit(s);
  }
}

[[ts::task(ts::warps(1, 4))]]
__device__ void use(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(first_pair(), p.units, pairs())) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load, use, ts::cluster_shape(2))]] __global__ void pairs_ok(const __grid_constant__ Params p);

// Valid: a cluster along y; both CTAs of a cluster have the same blockIdx.x.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_y(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32},
                               s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_y(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_y, use_y, ts::cluster_shape(1, 2))]] __global__ void column(const __grid_constant__ Params p);

[[ts::task(ts::warps(1, 4))]]
__device__ void use_cluster(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}

#ifndef OK
// Positions the analysis does not follow are refused, not trusted: a share
// read from memory, written through a pointer out-parameter, or kept in a
// local whose address is taken.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_table(const Params &p, ts::producer<Tiles> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    const int share = p.offsets[threadIdx.x / 32];
    ts::tma::load_multicast(s->b + share, &p.b, {0, int(u) * 64 + share}, s.barrier()); // expected-error {{cannot verify that the CTAs of the cluster multicast this load to the same destination only once: its position reads a value the analysis does not follow}} expected-error {{cannot verify that the CTAs of the cluster multicast this load from the same coordinates only once}} expected-note 2 {{memory, a pointer out-parameter, a local whose address is taken or an opaque call; compute the share from ts::cluster::rank() in locals initialised once or through reference out-parameters}}
    t.commit(s);
  }
}
[[ts::kernel(load_table, use_cluster, ts::cluster_shape(2))]] __global__ void table(const __grid_constant__ Params p);

__device__ void share_at(unsigned *share) { *share = ts::cluster::rank(); }
[[ts::task(ts::warps(0, 1))]]
__device__ void load_pointer(const Params &p, ts::producer<Tiles> t) {
  unsigned share;
  share_at(&share);
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + share * 32 * 32, &p.b, {0, int(u) * 64 + int(share) * 32}, s.barrier()); // expected-error {{cannot verify that the CTAs of the cluster multicast this load to the same destination only once}} expected-error {{cannot verify that the CTAs of the cluster multicast this load from the same coordinates only once}} expected-note 2 {{memory, a pointer out-parameter}}
    t.commit(s);
  }
}
[[ts::kernel(load_pointer, use_cluster, ts::cluster_shape(2))]] __global__ void pointer(const __grid_constant__ Params p);

// A 2 x 2 cluster: blockIdx.x % 2 is the same on the two CTAs along y.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_grid(const Params &p, ts::producer<Tiles> t) {
  const unsigned seat = blockIdx.x % 2; // expected-note {{blockIdx.x % 2 is the same on the 2 CTAs of the cluster (2, 2, 1) along y, so two of them load one share and a share is never loaded; offset the destination}}
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + seat * 16 * 32, &p.b, {0, int(u) * 64 + int(ts::cluster::rank()) * 16}, s.barrier()); // expected-error {{two CTAs of the cluster multicast this load to the same destination}}
    t.commit(s);
  }
}
[[ts::kernel(load_grid, use_cluster, ts::cluster_shape(2, 2))]] __global__ void grid2d(const __grid_constant__ Params p);

// A loop over CTAs: the two CTAs of a pair run different units and, where
// the units are not a multiple of the grid, different trip counts.
__device__ int first_cta() { return int(blockIdx.x); } // expected-note 2 {{it depends on blockIdx.x, which differs between the CTAs of a cluster (2, 1, 1)}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_cta(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(first_cta(), p.units, int(gridDim.x))) { // expected-error {{the trip count of this ts::domain loop of task 'load_cta' may differ between the CTAs of a cluster}}
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32},
                               s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_cta(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(first_cta(), p.units, int(gridDim.x))) { // expected-error {{the trip count of this ts::domain loop of task 'use_cta' may differ between the CTAs of a cluster}}
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_cta, use_cta, ts::cluster_shape(2))]] __global__ void over_ctas(const __grid_constant__ Params p);

// Along y the CTAs of a cluster differ in blockIdx.y.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_rows(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(blockIdx.y, p.units, gridDim.y)) { // expected-error {{the trip count of this ts::domain loop of task 'load_rows' may differ between the CTAs of a cluster}} expected-note {{it depends on blockIdx.y, which differs between the CTAs of a cluster (1, 2, 1)}}
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32},
                               s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_rows(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(blockIdx.y, p.units, gridDim.y)) { // expected-error {{the trip count of this ts::domain loop of task 'use_rows' may differ between the CTAs of a cluster}} expected-note {{it depends on blockIdx.y, which differs between the CTAs of a cluster (1, 2, 1)}}
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_rows, use_rows, ts::cluster_shape(1, 2))]] __global__ void rows(const __grid_constant__ Params p);

// A position that repeats within the cluster: two CTAs load one share.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_half(const Params &p, ts::producer<Tiles> t) {
  const unsigned seat = blockIdx.x % 2; // expected-note {{blockIdx.x % 2 repeats on the 4 CTAs of the cluster (4, 1, 1) along x, so two of them load one share and a share is never loaded; offset the destination by this CTA's share (ts::cluster::rank()) so the shares tile the stage}}
  for (auto u : ts::domain(blockIdx.x / 4, p.units, gridDim.x / 4)) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + seat * 16 * 32, &p.b, {0, int(u) * 64 + int(ts::cluster::rank()) * 16}, s.barrier()); // expected-error {{two CTAs of the cluster multicast this load to the same destination}}
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_quad(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(blockIdx.x / 4, p.units, gridDim.x / 4)) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_half, use_quad, ts::cluster_shape(4))]] __global__ void halves(const __grid_constant__ Params p);

// Shares: the rank left out of the destination, of the coordinates, or a
// mask that leaves a CTA out.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_same(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b, &p.b, {0, int(u) * 64 + int(rank) * 32}, s.barrier()); // expected-error {{every CTA of the cluster multicasts this load to the same destination}} expected-note {{each CTA's stage receives this load from every CTA of the cluster (2, 1, 1); offset the destination by this CTA's share (ts::cluster::rank()) so the shares tile the stage}}
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64}, s.barrier()); // expected-error {{every CTA of the cluster multicasts this load from the same coordinates}} expected-note {{select this CTA's share of the tile with ts::cluster::rank() in the coordinates}}
    ts::tma::load_multicast<0x1>(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32}, s.barrier()); // expected-error {{TMA multicast mask 0x1 leaves out CTA rank 1 of the cluster}} expected-note {{every CTA issues this load, so the stage of rank 1 receives none of its bytes while the CTAs in the mask receive them from all 2: their phases complete early or never; leave the mask out to write every CTA}}
    ts::tma::load_multicast<0x3>(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::kernel(load_same, use_cluster, ts::cluster_shape(2))]] __global__ void same(const __grid_constant__ Params p);
// Shares that do not tile the member: 2 CTAs x 512 of 2048 elements leave
// half of the stage unloaded; 2 x 2048 write past the member.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_short(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + rank * 16 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32}, s.barrier()); // expected-error {{the 2 shares of this multicast load cover 1024 of the member's 2048 elements, so part of the stage is never loaded}} expected-note {{each CTA of the cluster (2, 1, 1) loads its share 512 elements after the previous one's; a stride of 1024 (and a box of that size) tiles the member}}
    t.commit(s);
  }
}
[[ts::kernel(load_short, use_cluster, ts::cluster_shape(2))]] __global__ void short_shares(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void load_long(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + rank * 64 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32}, s.barrier()); // expected-error {{the 2 shares of this multicast load cover 4096 of the member's 2048 elements, so a share lands past the member}} expected-note {{a stride of 1024}}
    t.commit(s);
  }
}
[[ts::kernel(load_long, use_cluster, ts::cluster_shape(2))]] __global__ void long_shares(const __grid_constant__ Params p);
// A position past the cluster: blockIdx.x % 4 in a cluster of 2 is 2 or 3
// in every other cluster, and blockIdx.x grows with the grid; those CTAs
// write their shares past the stage's.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_wide(const Params &p, ts::producer<Tiles> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + (blockIdx.x % 4) * 32 * 32, &p.b, {0, int(u) * 64 + int(ts::cluster::rank()) * 32}, s.barrier()); // expected-error {{the destination of this multicast load reads blockIdx.x % 4, which goes past the 2 CTAs of the cluster (2, 1, 1) along x: the CTAs of later clusters write their shares past the stage's}} expected-note {{a CTA's share is its place in its own cluster: use ts::cluster::rank(), or blockIdx.x % 2}}
    t.commit(s);
  }
}
[[ts::kernel(load_wide, use_cluster, ts::cluster_shape(2))]] __global__ void wide_position(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 1))]]
__device__ void load_unreduced(const Params &p, ts::producer<Tiles> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b + blockIdx.x * 32 * 32, &p.b, {0, int(u) * 64 + int(ts::cluster::rank()) * 32}, s.barrier()); // expected-error {{the destination of this multicast load reads blockIdx.x, which goes past the 2 CTAs}} expected-note {{use ts::cluster::rank(), or blockIdx.x % 2}}
    t.commit(s);
  }
}
[[ts::kernel(load_unreduced, use_cluster, ts::cluster_shape(2))]] __global__ void grid_position(const __grid_constant__ Params p);
#endif
