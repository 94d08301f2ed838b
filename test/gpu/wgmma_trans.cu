// GPU check of ts::wgmma::mma_bf16<TransA, TransB>: one warpgroup computes
// D = A B^T for A 64 x 64 and B N x 64 (bf16, four k-steps of 16) with A,
// B or both MN-major in shared memory (the layout a TMA box of K rows x 64
// MN elements writes with 128-byte swizzle, described by
// make_desc_mn_sw128), and compares every accumulator with the host's
// product (small integers: exact in bf16 and fp32).
//
//   nvcc -std=c++17 -arch=sm_90a -O3 -Iinclude test/gpu/wgmma_trans.cu -o wgmma_trans && ./wgmma_trans
#include <ts/wgmma.h>

#include <cuda_bf16.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int M = 64, K = 64, kMaxN = 256;

/// Byte offset of byte c of 128-byte row r, 128-byte swizzled: 16-byte
/// chunk j of row r sits at chunk j ^ (r % 8).
__host__ __device__ inline int swizzled(int r, int c) {
  return r * 128 + (((c / 16) ^ (r % 8)) * 16) + c % 16;
}

/// Where element (mn, k) of an operand lies, in bytes: K-major, rows of 64
/// k; or MN-major, blocks of 64 MN elements, each K rows of 128 bytes.
template <bool MnMajor> __host__ __device__ inline int offset(int mn, int k) {
  if (MnMajor)
    return (mn / 64) * K * 128 + swizzled(k, (mn % 64) * 2);
  return swizzled(mn, k * 2);
}

/// The descriptor of k-step kk (16 elements of K): 32 bytes along a
/// K-major row, or 16 rows (2048 bytes) down an MN-major block.
template <bool MnMajor> __device__ inline uint64_t desc(const void *tile, int kk) {
  if (MnMajor)
    return ts::wgmma::advance_k(ts::wgmma::make_desc_mn_sw128(tile, K * 128), kk * 16 * 128);
  return ts::wgmma::advance_k(ts::wgmma::make_desc_sw128(tile), kk * 32);
}

template <bool TA, bool TB, int N>
__global__ void product(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *out) {
  __shared__ __align__(1024) unsigned char sa[M * K * 2];
  __shared__ __align__(1024) unsigned char sb[kMaxN * K * 2];
  for (int i = threadIdx.x; i < M * K; i += blockDim.x)
    *reinterpret_cast<__nv_bfloat16 *>(sa + offset<TA>(i / K, i % K)) = a[i];
  for (int i = threadIdx.x; i < N * K; i += blockDim.x)
    *reinterpret_cast<__nv_bfloat16 *>(sb + offset<TB>(i / K, i % K)) = b[i];
  __syncthreads();
  float d[N / 2];
  ts::wgmma::fence();
  for (int kk = 0; kk < K / 16; ++kk)
    ts::wgmma::mma_bf16<TA, TB>(d, desc<TA>(sa, kk), desc<TB>(sb, kk), kk > 0);
  ts::wgmma::commit_group();
  ts::wgmma::wait_group<0>();
  ts::wgmma::fence_operand(d);
  // The accumulator layout of m64nNk16: rows r and r + 8, columns 8g + 2(l % 4) + {0, 1}.
  const int w = threadIdx.x / 32, l = threadIdx.x % 32, r = w * 16 + l / 4;
  for (int g = 0; g < N / 8; ++g)
    for (int e = 0; e < 4; ++e)
      out[(r + (e / 2) * 8) * N + 8 * g + 2 * (l % 4) + e % 2] = d[4 * g + e];
}

template <bool TA, bool TB, int N> int check(const char *name) {
  std::vector<__nv_bfloat16> a(M * K), b(N * K);
  unsigned x = 7;
  auto rnd = [&] { // small integers: every product and sum exact
    x = x * 1664525u + 1013904223u;
    return float(int(x >> 28) - 8);
  };
  for (auto &v : a)
    v = __float2bfloat16(rnd());
  for (auto &v : b)
    v = __float2bfloat16(rnd());
  __nv_bfloat16 *da, *db;
  float *dout;
  cudaMalloc(&da, a.size() * 2);
  cudaMalloc(&db, b.size() * 2);
  cudaMalloc(&dout, size_t(M) * N * 4);
  cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
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
        want += __bfloat162float(a[m * K + k]) * __bfloat162float(b[n * K + k]);
      if (got[m * N + n] != want && ++bad <= 3)
        std::printf("%s: D[%d][%d] = %g, want %g\n", name, m, n, got[m * N + n], want);
    }
  std::printf("%s: %s (%d mismatches)\n", name, bad ? "FAILED" : "ok", bad);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dout);
  return bad ? 1 : 0;
}

int main() {
  int fails = check<false, false, 64>("m64n64k16 A K-major, B K-major") +
              check<false, true, 128>("m64n128k16 A K-major, B MN-major") +
              check<true, false, 64>("m64n64k16 A MN-major, B K-major") +
              check<true, true, 256>("m64n256k16 A MN-major, B MN-major");
  return fails ? 1 : 0;
}
