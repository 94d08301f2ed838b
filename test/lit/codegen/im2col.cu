// ts::tma::load_im2col issues cp.async.bulk.tensor in im2col mode (PTX ISA
// 8.0), rank and offsets as written, completing on the stage's full
// barrier; through clang (device PTX) and through nvcc from the rewrite.
// RUN: %ts_device -O3 -S %s -o - | FileCheck %s
// RUN: %ts_device -O3 -S %s -o /dev/null -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %if nvcc %{ %nvcc -ptx %t.cu -o - | FileCheck %s %}
// CHECK: cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}], {%rs{{[0-9]+}}, %rs{{[0-9]+}}};
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}], {%rs{{[0-9]+}}};
#include <ts/ts.h>

struct Params {
  ts::tma::im2col_map<__nv_bfloat16, 128, 64> x; // NHWC
  ts::tma::im2col_map<__nv_bfloat16, 64, 64> y;  // NWC
  int tiles, taps;
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Act {
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[64 * 64];
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Act> act) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.taps)) {
      auto s = act.acquire();
      ts::tma::load_im2col(s->a, &p.x, {0, int(t), 0, 0}, {uint16_t(int(k) % 3), uint16_t(int(k) / 3)},
                           s.barrier());
      ts::tma::load_im2col(s->b, &p.y, {0, int(t), 0}, {uint16_t(k)}, s.barrier());
      act.commit(s);
    }
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void use(const Params &p, ts::consumer<Act> act, float *out) {
  float acc = 0.f;
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.taps)) {
      auto s = act.wait();
      acc += __bfloat162float(s->a[threadIdx.x % 128]) + __bfloat162float(s->b[threadIdx.x % 64]);
      act.release(s);
    }
  }
  out[threadIdx.x] = acc;
}
[[ts::kernel(load, use)]] __global__ void conv(const __grid_constant__ Params p, float *out);
