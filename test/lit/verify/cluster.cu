// Clusters: ts::cluster_shape on the kernel, ts::multicast on a tma_async
// resource, TMA multicast loads into its stages. The plan derives the empty
// barrier's arrivals (one per consumer warp of every CTA); the lowering
// initialises barriers before a cluster-wide sync, hands stages back to
// every CTA and syncs the cluster before exit.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify -DATTRS %s
// RUN: %ts_device -fsyntax-only -DOK %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -json=%t.json | FileCheck %s --check-prefix=REPORT
// RUN: grep -v RUN %t.cu | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: %ts_device -O3 -S -DOK %s -o - | FileCheck %s --check-prefix=PTX
#include <ts/ts.h>

struct Params { CUtensorMap a, b; float *out; int units; };
struct [[ts::resource(ts::gmem)]] Out {};

struct [[ts::resource(ts::tma_async, ts::stages(4), ts::multicast)]] Tiles {
  float a[64 * 32];
  float b[64 * 32];
};

// Each CTA loads its own A and its half of B, multicast to both: every
// stage of every CTA gets all of its bytes.
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  const unsigned rank = ts::cluster::rank();
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load(s->a, &p.a, {0, int(u) * 64}, s.barrier());
    ts::tma::load_multicast(s->b + rank * 32 * 32, &p.b, {0, int(u) * 64 + int(rank) * 32},
                               s.barrier());
    t.commit(s);
  }
}

[[ts::task(ts::warps(1, 4))]]
__device__ void use(const Params &p, ts::consumer<Tiles> t, ts::producer<Out>) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->a[threadIdx.x] * s->b[threadIdx.x];
    t.release(s);
  }
}

// REPORT: == libts kernel 'pair': 5 warps, 160 threads, 65712 B dynamic shared memory, baseline 256 registers/thread, clusters of 2 CTAs (2x1x1; everything below is per CTA)
// REPORT: Tiles  tma_async  stages 4  payload 16384 B  tx 16384 B  arrivals full 1 / empty 8  multicast: stages filled by all 2 CTAs, released by every consumer warp to each
// REPORT: Tiles.empty               4 x 8 B         8     65568
// REPORT: verification: PASSED (0 error(s), 0 warning(s))
// JSON: "tx_bytes":16384,{{.*}}"full_arrivals":1,"empty_arrivals":8,"multicast_ctas":2}
// JSON: "cluster":[2,1,1]
// CHECK: static constexpr unsigned cluster_x = 2u, cluster_y = 1u, cluster_z = 1u;
// CHECK: ::ts::detail::init_barriers({{.*}}, 4u, 8u); // Tiles.empty
// CHECK: ::ts::detail::fence_barrier_init();
// CHECK-NEXT: }
// CHECK-NEXT: ::ts::detail::expect_cluster_ctas<2u>();
// CHECK-NEXT: ::ts::detail::cluster_sync();
// CHECK: ::ts::pipeline_kind::tma_async, 2u, 3u}; // Tiles
// CHECK: ::ts::detail::cluster_sync();
// CHECK-NEXT: }
// PTX: fence.mbarrier_init.release.cluster
// PTX: %cluster_nctarank
// PTX: barrier.cluster.arrive.release
// PTX: barrier.cluster.wait.acquire
// PTX: mapa.shared::cluster.u32
// PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: barrier.cluster.arrive.release
[[ts::kernel(load, use, ts::cluster_shape(2))]] __global__ void pair(const __grid_constant__ Params p);

#if !defined(OK) && !defined(ATTRS)
// The multicast mutation: a multicast into a resource without ts::multicast,
// whose consumers hand stages back only to their own CTA.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Local { // expected-note {{its consumers hand a stage back to their own CTA only, so this load may overwrite a peer's stage while the peer still reads it; declare the resource [[ts::resource(..., ts::multicast)]] so every release reaches every CTA}}
  float b[64 * 32];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void load_local(const Params &p, ts::producer<Local> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast(s->b, &p.b, {0, int(u) * 64}, s.barrier()); // expected-error {{TMA multicast into 'Local', which is not ts::multicast}}
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_local(const Params &p, ts::consumer<Local> t, ts::producer<Out>) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_local, use_local, ts::cluster_shape(2))]] __global__ void no_peers(const __grid_constant__ Params p);

// Explicit masks are checked against the cluster.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::multicast)]] Shared {
  float b[64 * 32];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void load_masked(const Params &p, ts::producer<Shared> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast<0x5>(s->b, &p.b, {0, int(u) * 64}, s.barrier()); // expected-error {{TMA multicast mask 0x5 names CTA rank 2, outside the cluster of 2 CTAs}}
    t.commit(s);
  }
}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_nowhere(const Params &p, ts::producer<Shared> t) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.acquire();
    ts::tma::load_multicast<0>(s->b, &p.b, {0, int(u) * 64}, s.barrier()); // expected-error {{TMA multicast mask 0 writes no CTA}}
    // expected-note@-1 {{set bit i for each CTA rank i that receives the tile, or leave the mask out to write every CTA of the cluster}}
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 4))]]
__device__ void use_shared(const Params &p, ts::consumer<Shared> t, ts::producer<Out>) {
  for (auto u : ts::domain(ts::cluster::id(), p.units, ts::cluster::count())) {
    auto s = t.wait();
    p.out[threadIdx.x] += s->b[threadIdx.x];
    t.release(s);
  }
}
[[ts::kernel(load_masked, use_shared, ts::cluster_shape(2))]] __global__ void masked(const __grid_constant__ Params p); // expected-note {{the kernel's cluster is (2, 1, 1): ranks 0 to 1 exist; use a mask below 0x4 or a larger ts::cluster_shape}}
[[ts::kernel(load_nowhere, use_shared, ts::cluster_shape(2))]] __global__ void nowhere(const __grid_constant__ Params p);
#endif

#ifdef ATTRS

// Malformed cluster shapes and multicast on a resource TMA does not fill.
[[ts::kernel(use, ts::cluster_shape(0))]] __global__ void zero(const __grid_constant__ Params p); // expected-error {{ts::cluster_shape(0, 1, 1) has an extent below 1}} expected-note {{every cluster dimension holds at least one CTA}}
[[ts::kernel(use, ts::cluster_shape(4, 4))]] __global__ void big(const __grid_constant__ Params p); // expected-error {{ts::cluster_shape(4, 4, 1) has 16 CTAs, more than the portable cluster size of 8}} expected-note {{use a cluster of at most 8 CTAs}}
[[ts::kernel(use, ts::cluster_shape(2), ts::cluster_shape(2))]] __global__ void twice(const __grid_constant__ Params p); // expected-error {{ts::cluster_shape is given twice}} expected-note {{give the kernel one cluster shape}}
struct [[ts::resource(ts::async_async, ts::stages(2), ts::multicast)]] Threads { float v[32]; }; // expected-error {{ts::multicast applies only to ts::tma_async and ts::tma_umma resources, not ts::async_async}} expected-note {{only TMA loads multicast across a cluster; remove ts::multicast or make the resource ts::tma_async}}
#endif
