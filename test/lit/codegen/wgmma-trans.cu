// ts::wgmma::mma_bf16<TransA, TransB>: the shared-memory bf16 MMA with
// either operand MN-major (the transpose immediates of wgmma), K-major by
// default, as clang and nvcc compile it for sm_90a.
// RUN: %ts_device -O3 -S %s -o - | FileCheck %s
// RUN: %if nvcc %{ %nvcc -ptx %s -o - | FileCheck %s %}
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;
// CHECK-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1, 0;
#include <ts/wgmma.h>

__global__ void trans(const unsigned char *in, float *out, bool acc) {
  __shared__ __align__(1024) unsigned char tile[64 * 128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const uint64_t k = ts::wgmma::make_desc_sw128(tile);
  const uint64_t mn = ts::wgmma::make_desc_mn_sw128(tile, 8192);
  float a64[32] = {}, a128[64] = {}, a256[128] = {};
  ts::wgmma::fence();
  ts::wgmma::mma_bf16(a64, k, k, acc);
  ts::wgmma::mma_bf16<false, true>(a128, k, mn, acc);
  ts::wgmma::mma_bf16<true, false>(a256, mn, k, acc);
  ts::wgmma::commit_group();
  ts::wgmma::wait_group<0>();
  float s = 0.f;
  for (float v : a64)
    s += v;
  for (float v : a128)
    s += v;
  for (float v : a256)
    s += v;
  out[threadIdx.x] = s;
}
