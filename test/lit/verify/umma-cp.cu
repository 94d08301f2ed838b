// tcgen05.cp from a ts::tma_umma stage (block scales into tensor memory)
// is an MMA access of the stage: it must come before the release, whose
// commit covers its reads; a thread's own read of the stage in the MMA task
// is not covered. The MMA warp's scale columns are task-owned tensor memory.
// RUN: %ts_device -fsyntax-only -Xclang -verify=ok %s
// RUN: not %ts_device -fsyntax-only -DLATE %s 2>&1 | FileCheck %s --check-prefix=LATE
// The copies after the release are the first uses it reports.
// LATE: umma-cp.cu:50:{{[0-9]+}}: error: stage of 'Ops' is used after it was released [-Wts-ownership]
// LATE: umma-cp.cu:48:{{[0-9]+}}: note: the stage was released here; another task may now overwrite it
// LATE: umma-cp.cu:51:{{[0-9]+}}: error: stage of 'Ops' is used after it was released [-Wts-ownership]
// RUN: %ts_device -fsyntax-only -DPEEK %s -Xclang -verify=peek
// ok-no-diagnostics
#include <ts/ts.h>
#include <ts/tensor_map.h>

struct Params {
  ts::tma::map<__nv_fp8_e4m3, 128, 128> a, b;
  int tiles, k_tiles;
  float *out;
};
struct [[ts::resource(ts::tma_umma, ts::stages(3), ts::swizzled, ts::tx_bytes(32768))]] Ops {
  __nv_fp8_e4m3 a[128 * 128];
  __nv_fp8_e4m3 b[128 * 128];
  uint8_t sa[512], sb[512]; // written elsewhere in a real kernel; here only the protocol matters
};
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(128))]] Acc {};
struct [[ts::resource(ts::task_owned, ts::tmem(32))]] Cols {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 128, int(t) * 128}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * 128, 0}, s.barrier());
      ops.commit(s);
    }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc,
                    ts::owned<Cols> cols) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
#ifdef LATE
      ops.release(s);
#endif
      ts::tcgen05::cp_32x128b_warpx4(cols.tmem(), ts::tcgen05::make_desc_sf(s->sa));
      ts::tcgen05::cp_32x128b_warpx4(cols.tmem() + 4, ts::tcgen05::make_desc_sf(s->sb));
#ifdef PEEK
      p.out[0] = float(s->sa[0]); // peek-error {{task 'mma' reads a stage of 'Ops' with its threads; the release commits for the MMAs only and does not wait for those reads}}
      // peek-note@21 {{use a ts::tma_umma stage through ts::tcgen05 MMAs only, or make 'Ops' a kind whose consumer is threads (ts::tma_async, ts::async_async)}}
#endif
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a), db = ts::tcgen05::make_desc_sw128(s->b);
      for (int kk = 0; kk < 4; ++kk)
        ts::tcgen05::mma_mxf8(a.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32),
                              ts::tcgen05::idesc_mxf8_e4m3(128, 128, unsigned(kk)), cols.tmem(),
                              cols.tmem() + 4, unsigned(kk), int(k) > 0 || kk > 0);
#ifndef LATE
      ops.release(s);
#endif
    }
    acc.commit(a);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.wait();
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), threadIdx.x / 32 % 4 * 32, 0));
    ts::tcgen05::wait_ld();
    p.out[threadIdx.x] = __uint_as_float(r[0]);
    acc.release(a);
  }
}

[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a))]]
__global__ void k(const __grid_constant__ Params p);
