// ts::wgmma::mma_fp8: m64nNk32 FP8 wgmma for N = 64, 128, 256 (the
// accumulator array's size selects it) and every pair of e4m3 / e5m2
// operands, as clang and nvcc compile it for sm_90a.
// RUN: %ts_device -O3 -S %s -o - | FileCheck %s
// RUN: %if nvcc %{ %nvcc -ptx %s -o - | FileCheck %s %}
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3 {%f{{[0-9]+}}, {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {%f{{[0-9]+}},
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e4m3 {%f{{[0-9]+}},
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2 {%f{{[0-9]+}},
#include <ts/wgmma.h>

__global__ void fp8(const unsigned char *in, float *out, bool acc) {
  __shared__ __align__(1024) unsigned char tile[64 * 128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const uint64_t d = ts::wgmma::make_desc_sw128(tile);
  float a64[32] = {}, a128[64] = {}, a256[128] = {}, b64[32] = {};
  ts::wgmma::fence();
  ts::wgmma::mma_fp8(a64, d, d, acc);
  ts::wgmma::mma_fp8<ts::wgmma::e4m3, ts::wgmma::e5m2>(a128, d, d, acc);
  ts::wgmma::mma_fp8<ts::wgmma::e5m2, ts::wgmma::e4m3>(a256, d, d, acc);
  ts::wgmma::mma_fp8<ts::wgmma::e5m2, ts::wgmma::e5m2>(b64, d, d, acc);
  ts::wgmma::commit_group();
  ts::wgmma::wait_group<0>();
  float s = 0.f;
  for (float v : a64)
    s += v;
  for (float v : a128)
    s += v;
  for (float v : a256)
    s += v;
  for (float v : b64)
    s += v;
  out[threadIdx.x] = s;
}
