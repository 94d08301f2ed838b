// A consumer that hands stages to wgmma with the one-group lag compiles
// through the plugin (clang device PTX) and, emitted, through nvcc: the
// MMA, commit_group and wait_group 1 reach the PTX, and the stage of the
// previous iteration is released after the wait.
// REQUIRES: nvcc
// RUN: %ts_device -O2 -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %nvcc -O3 -ptx %t.cu -o - | FileCheck %s --check-prefix=PTX
// PTX: mbarrier.try_wait.parity
// PTX: wgmma.fence.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 1
// PTX: mbarrier.arrive
#include <ts/ts.h>

struct Params { CUtensorMap a; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 a[64 * 64];
};

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
  ts::wgmma::fence_operand(acc);
  for (int i = 0; i < 32; ++i)
    p.out[(threadIdx.x - 128) * 32 + i] = acc[i];
}
[[ts::kernel(load, mma)]] __global__ void lag(const __grid_constant__ Params p);
