// TMA multicast into a ts::tma_umma stage (sm_100a, a cluster of two): each
// CTA loads its own rows of A and half of B, multicast to both, so each
// CTA's stage is filled by both CTAs' loads. Its MMA task's release is a
// tcgen05.commit multicast to both CTAs' empty barriers, which the plan
// counts as one arrival per CTA (2). With ts::cta_pair it is refused.
// RUN: %ts_device -fsyntax-only -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.cu | FileCheck %s
// RUN: FileCheck %s --check-prefix=EMIT --input-file=%t.cu
// RUN: %ts_device -fsyntax-only -DPAIR %s -Xclang -verify=pair
// RUN: %ts_device -fsyntax-only -DLOCAL %s -Xclang -verify=local
// RUN: %if nvcc %{ %sm100_nvcc -O3 -ptx %t.cu -o %t.ptx %}
// RUN: %if nvcc %{ FileCheck %s --check-prefix=PTX --input-file=%t.ptx %}
// RUN: %if nvcc %{ %sm100_nvcc -G -cubin %t.cu -o %t.g.cubin %}
// ok-no-diagnostics
#include <ts/ts.h>
#include <ts/tensor_map.h>

// CHECK: Ops  tma_umma  stages 3  payload 32768 B  tx 32768 B  arrivals full 1 / empty 2  multicast: stages filled by all 2 CTAs, released by every consumer task's multicast commit to each
// CHECK: verification: PASSED
// EMIT: ::ts::pipeline_kind::tma_umma, 2u, 3u}; // Ops
// EMIT: ::ts::detail::release_mode::by_commit
// PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// PTX: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a;
  ts::tma::map<__nv_bfloat16, 64, 64> b; // half of B's 128 rows
  float *out;
  int tiles, k_tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(128, 128);

#ifdef PAIR
struct [[ts::resource(ts::tma_umma, ts::stages(3), ts::swizzled, ts::multicast, ts::cta_pair)]] Ops { // pair-error {{ts::cta_pair and ts::multicast together are not supported}}
// pair-note@-1 {{a paired stage is read by rank 0's MMAs only and filled by TMA loads only; give the other readers or writers a resource of their own}}
#elif defined(LOCAL)
struct [[ts::resource(ts::tma_umma, ts::stages(3), ts::swizzled)]] Ops { // local-note {{its consumers hand a stage back to their own CTA only, so this load may overwrite a peer's stage while the peer still reads it; declare the resource [[ts::resource(..., ts::multicast)]] so every release reaches every CTA}}
#else
struct [[ts::resource(ts::tma_umma, ts::stages(3), ts::swizzled, ts::multicast)]] Ops {
#endif
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[128 * 64];
};
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(128))]] Acc {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  const unsigned rank = ts::cluster::rank();
  for (auto t : ts::domain(ts::cluster::id(), p.tiles, ts::cluster::count()))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, (2 * int(t) + int(rank)) * 128}, s.barrier());
      ts::tma::load_multicast(s->b + rank * 64 * 64, &p.b, {int(k) * 64, int(rank) * 64}, // local-error {{TMA multicast into 'Ops', which is not ts::multicast}}
                              s.barrier());
      ops.commit(s);
    }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(ts::cluster::id(), p.tiles, ts::cluster::count())) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
      for (int kk = 0; kk < 4; ++kk)
        ts::tcgen05::mma_bf16(a.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32), kIdesc, int(k) > 0 || kk > 0);
      ops.release(s); // multicast commit: both CTAs' loads wait for it
    }
    acc.commit(a);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Acc> acc) {
  for (auto t : ts::domain(ts::cluster::id(), p.tiles, ts::cluster::count())) {
    auto a = acc.wait();
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), threadIdx.x / 32 % 4 * 32, 0));
    ts::tcgen05::wait_ld();
    p.out[threadIdx.x] = __uint_as_float(r[0]);
    acc.release(a);
  }
}

[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void k(const __grid_constant__ Params p);
