// GPU check of ts::wgmma::mma_fp8: one warpgroup computes D = A B^T for A
// 64 x 128 and B N x 128 (FP8, K-major, 128-byte swizzled in shared memory,
// four k-steps of 32) for N = 64 and 256 and mixed e4m3 / e5m2 operands,
// and compares every accumulator with the host's fp32 product.
//
//   nvcc -std=c++17 -arch=sm_90a -O3 -Iinclude test/gpu/wgmma_fp8.cu -o wgmma_fp8 && ./wgmma_fp8
#include <ts/wgmma.h>

#include <cuda_fp8.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int M = 64, K = 128, kMaxN = 256;

/// Byte offset of element (r, k) of a K-major tile of 128-byte rows, 128-byte
/// swizzled: 16-byte chunk c of row r at c ^ (r % 8).
__host__ __device__ inline int swizzled(int r, int k) {
  return r * 128 + (((k / 16) ^ (r % 8)) * 16) + k % 16;
}

template <class TA, class TB, int N>
__global__ void product(const unsigned char *a, const unsigned char *b, float *out) {
  __shared__ __align__(1024) unsigned char sa[M * K];
  __shared__ __align__(1024) unsigned char sb[kMaxN * K];
  for (int i = threadIdx.x; i < M * K; i += blockDim.x)
    sa[swizzled(i / K, i % K)] = a[i];
  for (int i = threadIdx.x; i < N * K; i += blockDim.x)
    sb[swizzled(i / K, i % K)] = b[i];
  __syncthreads();
  float d[N / 2];
  const uint64_t da = ts::wgmma::make_desc_sw128(sa), db = ts::wgmma::make_desc_sw128(sb);
  ts::wgmma::fence();
  for (int kk = 0; kk < K / 32; ++kk)
    ts::wgmma::mma_fp8<TA, TB>(d, ts::wgmma::advance_k(da, kk * 32),
                               ts::wgmma::advance_k(db, kk * 32), kk > 0);
  ts::wgmma::commit_group();
  ts::wgmma::wait_group<0>();
  ts::wgmma::fence_operand(d);
  // The accumulator layout of m64nNk: rows r and r + 8, columns 8g + 2(l % 4) + {0, 1}.
  const int w = threadIdx.x / 32, l = threadIdx.x % 32, r = w * 16 + l / 4;
  for (int g = 0; g < N / 8; ++g)
    for (int e = 0; e < 4; ++e)
      out[(r + (e / 2) * 8) * N + 8 * g + 2 * (l % 4) + e % 2] = d[4 * g + e];
}

template <class T> float decode(unsigned char v);
template <> float decode<ts::wgmma::e4m3>(unsigned char v) {
  __nv_fp8_e4m3 x;
  x.__x = v;
  return float(x);
}
template <> float decode<ts::wgmma::e5m2>(unsigned char v) {
  __nv_fp8_e5m2 x;
  x.__x = v;
  return float(x);
}
template <class T> unsigned char encode(float f);
template <> unsigned char encode<ts::wgmma::e4m3>(float f) { return __nv_fp8_e4m3(f).__x; }
template <> unsigned char encode<ts::wgmma::e5m2>(float f) { return __nv_fp8_e5m2(f).__x; }

template <class TA, class TB, int N> int check(const char *name) {
  std::vector<unsigned char> a(M * K), b(N * K);
  unsigned x = 7;
  auto rnd = [&] { // small values, exact in both formats
    x = x * 1664525u + 1013904223u;
    return float(int(x >> 28) - 8) / 4.f;
  };
  for (auto &v : a)
    v = encode<TA>(rnd());
  for (auto &v : b)
    v = encode<TB>(rnd());
  unsigned char *da, *db;
  float *dout;
  cudaMalloc(&da, a.size());
  cudaMalloc(&db, b.size());
  cudaMalloc(&dout, size_t(M) * N * 4);
  cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice);
  product<TA, TB, N><<<1, 128>>>(da, db, dout);
  std::vector<float> got(size_t(M) * N);
  if (cudaMemcpy(got.data(), dout, got.size() * 4, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("%s: kernel failed: %s\n", name, cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  int bad = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float want = 0.f;
      for (int k = 0; k < K; ++k)
        want += decode<TA>(a[m * K + k]) * decode<TB>(b[n * K + k]);
      if (std::fabs(got[m * N + n] - want) > 1e-3f && ++bad <= 3)
        std::printf("%s: D[%d][%d] = %g, want %g\n", name, m, n, got[m * N + n], want);
    }
  std::printf("%s: %s (%d mismatches)\n", name, bad ? "FAILED" : "ok", bad);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
  return bad ? 1 : 0;
}

int main() {
  using ts::wgmma::e4m3;
  using ts::wgmma::e5m2;
  int fails = check<e4m3, e4m3, 64>("m64n64k32 e4m3 x e4m3") +
              check<e4m3, e5m2, 256>("m64n256k32 e4m3 x e5m2") +
              check<e5m2, e4m3, 128>("m64n128k32 e5m2 x e4m3") +
              check<e5m2, e5m2, 64>("m64n64k32 e5m2 x e5m2");
  return fails ? 1 : 0;
}
