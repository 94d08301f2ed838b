// CTA pairs (ts::cta_pair, sm_100a): rank 0's MMA task issues cta_group::2
// MMAs over both CTAs' operand stages into both CTAs' tensor memory. The
// plan routes both halves' bytes to rank 0's barrier, counts both CTAs'
// readers there, and runs the MMA task on rank 0; the shapes those counts
// do not cover are errors with a way out.
// RUN: %ts_device -fsyntax-only -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DSHAPE %s -Xclang -verify=shape
// RUN: %ts_device -fsyntax-only -DMIXED %s -Xclang -verify=mixed
// RUN: %ts_device -fsyntax-only -DLEADER %s -Xclang -verify=leader
// RUN: %ts_device -fsyntax-only -DATTRS %s -Xclang -verify=attrs
// RUN: %ts_device -fsyntax-only -DFILE %s -Xclang -verify=file
// RUN: %ts_device -fsyntax-only -DHALF %s -Xclang -verify=half
// RUN: %ts_device -fsyntax-only -DTRIPS %s -Xclang -verify=trips
// RUN: %ts_device -fsyntax-only -DPINNED %s -Xclang -verify=pinned
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: FileCheck %s --check-prefix=EMIT --input-file=%t.cu
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// JSON: "name":"mma",{{.*}}"padding":false,"pair_rank0_only":true,
// JSON: "name":"Ops","kind":"tma_umma"{{.*}}"tx_bytes":32768,{{.*}}"cta_pair":true,"armed_bytes":65536}
// ok-no-diagnostics
#include <ts/ts.h>
#include <ts/tensor_map.h>

// CHECK: mma  warps [1, 2)  rank 0 of each CTA pair (issues the pair's MMAs)
// CHECK: Ops  tma_umma  stages 4  payload 32768 B  tx 32768 B  arrivals full 1 / empty 1  CTA pair: each CTA loads its half, rank 0 arms 65536 B for both and its MMAs read both
// CHECK: Acc  umma_async  stages 2  payload 0 B  256 columns of tensor memory per stage  arrivals full 1 / empty 256  CTA pair: rank 0's MMAs fill both CTAs' halves, every reader hands back to rank 0
// CHECK: verification: PASSED

// The file's rewrite takes cta_group::2, the MMA task and its drain run on
// rank 0, both halves' bytes are armed there.
// EMIT: #define LIBTS_CTA_GROUP 2
// EMIT: init_barriers({{.*}}, 2u, 256u); // Acc.empty
// EMIT: 65536u, ::ts::pipeline_kind::tma_umma, 2u, 3u, 0u, 0u, true}; // Ops
// EMIT: if (::ts::detail::cta_rank() == 0u) { // the pair's MMAs
// EMIT-NEXT: ::mma(
// EMIT-NEXT: ::ts::detail::producer_drain(ts_pipe_1, ts_prod_1);
// EMIT-NEXT: }

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a, b;
  int tiles, k_tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(256, 256);

#ifdef TRIPS
// Each CTA its own tiles: rank 0's MMAs would pair tiles of two CTAs, and
// hang where their counts differ.
#define TILES ts::domain(blockIdx.x, p.tiles, gridDim.x)
#else
#define TILES ts::domain(0, p.tiles)
#endif

#ifdef ATTRS
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::cta_pair)]] Tiles { // attrs-error {{ts::cta_pair applies only to ts::tma_umma and ts::umma_async resources, not ts::tma_async}}
  // attrs-note@-1 {{a pair splits the MMA's operand stages and its accumulator between two CTAs; other resources stay per CTA}}
  float x[256];
};
struct [[ts::resource(ts::tma_umma, ts::stages(2), ts::fork, ts::cta_pair)]] Forked { // attrs-error {{ts::cta_pair and ts::fork together are not supported}}
  // attrs-note@-1 {{a paired stage is read by rank 0's MMAs only and filled by TMA loads only; give the other readers or writers a resource of their own}}
  float x[256];
};
#else
// trips-note@+4 {{each phase of 'Ops' (ts::cta_pair) needs both CTAs' halves and releases, and rank 0's MMAs combine them: loop over clusters (ts::cluster::id() and ts::cluster::count(), or blockIdx.x / 2 and gridDim.x / 2) so every CTA runs the same iterations}}
// half-note@+3 {{rank 0's MMAs read the two CTAs' stages as one tile, so each CTA loads its half: offset the coordinates by ts::cluster::rank() (or blockIdx.x % 2), in locals initialised once}}
// shape-note@+2 {{a pair is the two CTAs of a ts::cluster_shape(2) cluster: rank 0 issues the MMAs for both; declare the kernel with ts::cluster_shape(2)}}
// mixed-note@+1 {{ptxas takes one CTA group for all of a kernel's tcgen05 instructions: mark every tcgen05 resource ts::cta_pair, or none}}
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled, ts::cta_pair)]] Ops {
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[128 * 64];
};
#ifdef MIXED
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(256))]] Acc {}; // mixed-error {{tcgen05 resource 'Acc' of kernel 'k' is not ts::cta_pair, but 'Ops' is}}
#else
// trips-note@+1 2 {{each phase of 'Acc' (ts::cta_pair) needs both CTAs' halves and releases, and rank 0's MMAs combine them}}
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(256), ts::cta_pair)]] Acc {};
#endif
#ifdef LEADER
struct [[ts::resource(ts::async_async, ts::stages(2))]] Note { int tile; };
#endif

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  const int rank = int(blockIdx.x % 2);
  for (auto t : TILES) // trips-error {{the trip count of this ts::domain loop of task 'load' may differ between the CTAs of a cluster}}
  // trips-note@-1 {{it depends on blockIdx.x, which differs between the CTAs of a cluster (2, 1, 1)}}
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire();
#ifdef HALF
      // Both CTAs load the same rows of A: the MMA computes with them twice.
      ts::tma::load(s->a, &p.a, {int(k) * 64, 2 * int(t) * 128}, s.barrier()); // half-error {{both CTAs of the pair load this box of 'Ops' from the same coordinates}}
#else
      ts::tma::load(s->a, &p.a, {int(k) * 64, (2 * int(t) + rank) * 128}, s.barrier());
#endif
      ts::tma::load(s->b, &p.b, {int(k) * 64, rank * 128}, s.barrier());
      ops.commit(s);
    }
}

#ifdef PINNED
#define PIN , ts::cta(0)
#else
#define PIN
#endif
[[ts::task(ts::warps(1, 1) PIN)]]
// pinned-error@+2 {{task 'mma' issues the CTA pair's MMAs; ts::cta(0) does not apply to it}}
// pinned-note@+1 {{the plan runs the pair's MMA task on rank 0 by itself; remove ts::cta}}
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc
#ifdef LEADER
                    , ts::producer<Note> note // leader-error {{task 'mma' issues the CTA pair's MMAs, so it runs on rank 0 only, yet it takes part in 'Note'}}
#endif
) { // leader-note@-4 {{the other CTA's tasks would wait for it forever; give that work to a task that runs on both CTAs}}
  for (auto t : TILES) { // trips-error {{the trip count of this ts::domain loop of task 'mma' may differ between the CTAs of a cluster}} trips-note {{it depends on blockIdx.x, which differs between the CTAs of a cluster (2, 1, 1)}}
    auto a = acc.acquire();
#ifdef LEADER
    auto n = note.acquire();
    n->tile = int(t);
    note.commit(n);
#endif
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
      for (int kk = 0; kk < 4; ++kk)
        ts::tcgen05::mma_bf16(a.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32), kIdesc, int(k) > 0 || kk > 0);
      ops.release(s);
    }
    acc.commit(a);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, float *out, ts::consumer<Acc> acc
#ifdef LEADER
                         , ts::consumer<Note> note
#endif
) {
  for (auto t : TILES) { // trips-error {{the trip count of this ts::domain loop of task 'epilogue' may differ between the CTAs of a cluster}} trips-note {{it depends on blockIdx.x, which differs between the CTAs of a cluster (2, 1, 1)}}
#ifdef LEADER
    auto n = note.wait();
    out[0] = float(n->tile);
    note.release(n);
#endif
    auto a = acc.wait();
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), threadIdx.x / 32 % 4 * 32, 0));
    ts::tcgen05::wait_ld();
    out[threadIdx.x] = __uint_as_float(r[0]);
    acc.release(a);
  }
}

#ifdef SHAPE
[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a), ts::cluster_shape(1, 2))]] // shape-error {{kernel 'k' uses CTA-pair resource 'Ops' but its cluster is 2 CTAs along y or z}}
__global__ void k(const __grid_constant__ Params p, float *out);
#else
[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void k(const __grid_constant__ Params p, float *out);
#endif

#ifdef FILE
// A one-CTA tcgen05 kernel in the same file: the group is per file.
struct [[ts::resource(ts::umma_async, ts::stages(1), ts::tmem(32))]] Solo {};
[[ts::task(ts::warps(0, 1))]]
__device__ void solo_mma(const Params &p, ts::producer<Solo> s) {
  auto a = s.acquire();
  ts::tcgen05::mma_bf16(a.tmem(), 0, 0, kIdesc, false);
  s.commit(a);
}
[[ts::task(ts::warps(4, 4))]]
__device__ void solo_read(float *out, ts::consumer<Solo> s) {
  auto a = s.wait();
  uint32_t r[8];
  ts::tcgen05::ld_32x32b_x8(r, a.tmem());
  ts::tcgen05::wait_ld();
  out[threadIdx.x] = __uint_as_float(r[0]);
  s.release(a);
}
[[ts::kernel(solo_mma, solo_read, ts::target(ts::sm_100a))]]
__global__ void solo(const __grid_constant__ Params p, float *out); // file-error {{kernel 'solo' uses cta_group::1 tcgen05 resources, kernel 'k' of this file cta_group::2}}
// file-note@-23 {{the CTA group is chosen per file (the rewrite defines LIBTS_CTA_GROUP): put CTA-pair kernels and one-CTA tcgen05 kernels in separate files}}
#endif
#endif
