// Blackwell MXFP8 GEMM written with libts (sm_100a; compile-verified only:
// no Blackwell GPU has run it): C = (A scaled) x (B scaled)^T with A (M x K)
// and B (N x K) e4m3, K-major, and one UE8M0 scale (2^(e - 127)) per 32
// consecutive K of every row of A and of B, given row-major as SA[M][K/32]
// and SB[N][K/32]; fp32 accumulation in tensor memory, bf16 C (M x N).
//
// - `load` (warp 0): TMA loads of 128-byte swizzled A and B tiles (128 x 128
//   e4m3 each) into a ts::tma_umma stage; its leader arms their bytes.
// - `scales` (warp 2): fills the same stage's scale members with its
//   threads, reordering the k-step's 128 x 4 scales of A and of B from their
//   row-major arrays into the layout tcgen05.cp reads (row r's four bytes at
//   16 (r % 32) + 4 (r / 32)), so users need no pre-swizzled scales. Two
//   producer kinds fill one stage: the resource is ts::merge (the
//   reference's FusedMerge group), so the stage completes when the loads'
//   bytes and the 32 threads' arrivals are in.
// - `mma` (warp 1): per k-step copies the stage's scales into its own 32
//   columns of tensor memory (tcgen05.cp, in order with its MMAs), issues
//   four m128n128k32 block-scaled MMAs (kind::mxf8f6f4, scale byte kk for
//   the K block kk), and hands the stage back by tcgen05.commit, which also
//   covers the copies' reads.
// - `epilogue` (warps 4-7): per tile, tcgen05.ld of its rows, bf16, stored.
// - Static persistent tile loop: CTA b takes tiles b, b + grid, ...
//
// The tensor-memory layout of the scales (4 columns per 128 rows, one byte
// per K block) is what tcgen05.cp .32x128b.warpx4 makes of that 512-byte
// block (docs/blackwell-facts.md, section 11); nothing here has run.
//
// Build (clang 19 does not know sm_100a; nvcc compiles the rewrite):
//   libts-nvcc -gencode=arch=compute_100a,code=sm_100a -O3 -I include examples/gemm_mxf8_sm100.cu
//   ./gemm_mxf8_sm100 [M N K = 4096 4096 4096]
// libts-target: sm_100a
// gpu-run: skip (sm_100a: no Blackwell GPU here; compile-verified only)
#include <ts/ts.h>
#include <ts/tensor_map.h>

#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm_mxf8 {

constexpr int BM = 128, BN = 128, BK = 128; // BK: one 128-byte swizzle row of e4m3
constexpr int kSfVec = 32;                  // K elements per scale
constexpr int kSfPerStep = BK / kSfVec;     // 4 K blocks per k-step
constexpr int kChunk = 8;                   // epilogue: columns per tcgen05.ld

struct Params {
  ts::tma::map<__nv_fp8_e4m3, BM, BK> a;
  ts::tma::map<__nv_fp8_e4m3, BN, BK> b;
  const uint8_t *sa, *sb; // UE8M0, row-major [M][K/32] and [N][K/32]
  __nv_bfloat16 *c;
  int n;       // columns of C
  int k_tiles; // K / 128
  int units_m; // M / 128
  int units;   // tiles
};

/// One k-step: A's and B's tiles (TMA) and their scales (the scale warp).
struct [[ts::resource(ts::tma_umma, ts::stages(5), ts::swizzled, ts::merge)]] Operands {
  __nv_fp8_e4m3 a[BM * BK];        // 16 KiB
  __nv_fp8_e4m3 b[BN * BK];        // 16 KiB
  uint8_t sa[BM * kSfPerStep];     // 512 B in the tcgen05.cp layout
  uint8_t sb[BN * kSfPerStep];     // 512 B
};

/// The accumulator of one 128 x 128 tile.
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(BN))]] Accum {};

/// The MMA warp's scale columns: A's at +0..3, B's at +4..7.
struct [[ts::resource(ts::task_owned, ts::tmem(32))]] ScaleCols {};

/// Byte of row r's scale for K block kb in a 128-row block (tcgen05.cp
/// .32x128b.warpx4 source).
__device__ __forceinline__ int sf_offset(int r, int kb) {
  return 16 * (r % 32) + 4 * (r / 32) + kb;
}

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  for (auto t : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    const int mb = int(t) % p.units_m, nb = int(t) / p.units_m;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // K > 0: the host checks
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, mb * BM}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * BK, nb * BN}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(2, 1))]]
__device__ void scales(const Params &p, ts::producer<Operands> ops) {
  const int lane = int(threadIdx.x % 32), k_blocks = p.k_tiles * kSfPerStep;
  for (auto t : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    const int mb = int(t) % p.units_m, nb = int(t) / p.units_m;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire();
      for (int i = lane; i < BM * kSfPerStep; i += 32) {
        const int r = i / kSfPerStep, kb = i % kSfPerStep;
        const size_t col = size_t(k) * kSfPerStep + size_t(kb);
        s->sa[sf_offset(r, kb)] = p.sa[size_t(mb * BM + r) * size_t(k_blocks) + col];
        s->sb[sf_offset(r, kb)] = p.sb[size_t(nb * BN + r) * size_t(k_blocks) + col];
      }
      ops.commit(s); // a proxy fence, then every thread arrives
    }
  }
}

[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::producer<Accum> accum,
                    ts::owned<ScaleCols> cols) {
  const uint32_t sfa = cols.tmem(), sfb = cols.tmem() + 4;
  for (auto t : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    (void)t;
    auto acc = accum.acquire(); // the epilogue has read this stage's last tile
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      ts::tcgen05::cp_32x128b_warpx4(sfa, ts::tcgen05::make_desc_sf(s->sa));
      ts::tcgen05::cp_32x128b_warpx4(sfb, ts::tcgen05::make_desc_sf(s->sb));
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
#pragma unroll
      for (int kk = 0; kk < kSfPerStep; ++kk)
        ts::tcgen05::mma_mxf8(acc.tmem(), ts::tcgen05::advance_k(da, kk * 32),
                              ts::tcgen05::advance_k(db, kk * 32),
                              ts::tcgen05::idesc_mxf8_e4m3(BM, BN, unsigned(kk)), sfa, sfb,
                              unsigned(kk), int(k) > 0 || kk > 0);
      ops.release(s); // tcgen05.commit: once the copies and MMAs have read it
    }
    accum.commit(acc);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue(const Params &p, ts::consumer<Accum> accum) {
  const unsigned lane_base = (threadIdx.x / 32 % 4) * 32; // this warp's TMEM lanes
  for (auto t : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    const int mb = int(t) % p.units_m, nb = int(t) / p.units_m;
    auto acc = accum.wait();
    const int row = mb * BM + int(lane_base + threadIdx.x % 32);
    __nv_bfloat16 *const out = p.c + size_t(row) * p.n + size_t(nb) * BN;
    for (int j = 0; j < BN / kChunk; j += 4) {
      uint32_t r[4][kChunk];
#pragma unroll
      for (int q = 0; q < 4; ++q)
        ts::tcgen05::ld_32x32b_x8(r[q],
                                  ts::tcgen05::address(acc.tmem(), lane_base, (j + q) * kChunk));
      ts::tcgen05::wait_ld();
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        __nv_bfloat162 v[kChunk / 2];
#pragma unroll
        for (int e = 0; e < kChunk / 2; ++e)
          v[e] = __floats2bfloat162_rn(__uint_as_float(r[q][2 * e]),
                                       __uint_as_float(r[q][2 * e + 1]));
        *reinterpret_cast<uint4 *>(out + (j + q) * kChunk) = *reinterpret_cast<const uint4 *>(v);
      }
    }
    accum.release(acc); // after its loads: the MMAs may refill the stage
  }
}

[[ts::kernel(load, scales, mma, epilogue, ts::target(ts::sm_100a))]]
__global__ void gemm_mxf8_kernel(const __grid_constant__ Params p);

} // namespace gemm_mxf8

/// Launches C = (A scaled) x (B scaled)^T. M, N and K must be positive
/// multiples of 128; anything else is refused with a message.
cudaError_t gemm_mxf8_sm100_libts(const void *A, const void *B, const uint8_t *SA,
                                  const uint8_t *SB, __nv_bfloat16 *C, int M, int N, int K,
                                  int sms, cudaStream_t s) {
  using namespace gemm_mxf8;
  if (M <= 0 || N <= 0 || K <= 0 || M % BM || N % BN || K % BK || sms <= 0) {
    std::fprintf(stderr,
                 "gemm_mxf8_sm100_libts: unsupported shape M=%d N=%d K=%d (SMs %d): M, N "
                 "and K must be positive multiples of 128\n",
                 M, N, K, sms);
    return cudaErrorInvalidValue;
  }
  Params p;
  cudaError_t e = ts::tensor_map::encode(&p.a, A, M, K, 0, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e == cudaSuccess)
    e = ts::tensor_map::encode(&p.b, B, N, K, 0, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e != cudaSuccess)
    return e;
  p.sa = SA;
  p.sb = SB;
  p.c = C;
  p.n = N;
  p.k_tiles = K / BK;
  p.units_m = M / BM;
  p.units = p.units_m * (N / BN);
  return ts::launch<gemm_mxf8_kernel>(dim3(std::min(sms, p.units)), s, p);
}

#ifndef GEMM_NO_MAIN

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

/// fp32 reference of C[r][c] on the device, one thread per element.
__global__ void reference(const __nv_fp8_e4m3 *A, const __nv_fp8_e4m3 *B, const uint8_t *SA,
                          const uint8_t *SB, float *C, int M, int N, int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = 0.f;
  for (int kb = 0; kb < K / 32; ++kb) {
    float part = 0.f;
    for (int k = kb * 32; k < kb * 32 + 32; ++k)
      part += float(A[size_t(r) * K + k]) * float(B[size_t(c) * K + k]);
    acc += part * exp2f(float(SA[size_t(r) * (K / 32) + kb]) - 127.f) *
           exp2f(float(SB[size_t(c) * (K / 32) + kb]) - 127.f);
  }
  C[size_t(r) * N + c] = acc;
}

int main(int argc, char **argv) {
  const int M = argc > 3 ? std::atoi(argv[1]) : 4096;
  const int N = argc > 3 ? std::atoi(argv[2]) : 4096;
  const int K = argc > 3 ? std::atoi(argv[3]) : 4096;
  if (M <= 0 || N <= 0 || K <= 0 || M % 128 || N % 128 || K % 128) {
    std::fprintf(stderr, "usage: %s [M N K: multiples of 128]\n", argv[0]);
    return 2;
  }
  std::vector<__nv_fp8_e4m3> ha(size_t(M) * K), hb(size_t(N) * K);
  std::vector<uint8_t> hsa(size_t(M) * (K / 32)), hsb(size_t(N) * (K / 32));
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto &v : ha)
    v = __nv_fp8_e4m3(rnd() * 4.f);
  for (auto &v : hb)
    v = __nv_fp8_e4m3(rnd() * 4.f);
  for (auto &v : hsa) // 2^-3 .. 2^3
    v = uint8_t(124 + int((rnd() + 1.f) * 3.5f));
  for (auto &v : hsb)
    v = uint8_t(124 + int((rnd() + 1.f) * 3.5f));
  __nv_fp8_e4m3 *A, *B;
  uint8_t *SA, *SB;
  __nv_bfloat16 *C;
  float *R;
  CHECK(cudaMalloc(&A, ha.size()));
  CHECK(cudaMalloc(&B, hb.size()));
  CHECK(cudaMalloc(&SA, hsa.size()));
  CHECK(cudaMalloc(&SB, hsb.size()));
  CHECK(cudaMalloc(&C, size_t(M) * N * 2));
  CHECK(cudaMalloc(&R, size_t(M) * N * 4));
  CHECK(cudaMemcpy(A, ha.data(), ha.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(SA, hsa.data(), hsa.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(SB, hsb.data(), hsb.size(), cudaMemcpyHostToDevice));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(gemm_mxf8_sm100_libts(A, B, SA, SB, C, M, N, K, sms, 0));
  {
    const __nv_fp8_e4m3 *a = A, *b = B;
    const uint8_t *sa = SA, *sb = SB;
    int m = M, n = N, k = K;
    void *args[] = {&a, &b, &sa, &sb, &R, &m, &n, &k};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference), dim3((N + 255) / 256, M),
                           dim3(256), args, 0, 0));
  }
  std::vector<__nv_bfloat16> hc(size_t(M) * N);
  std::vector<float> hr(size_t(M) * N);
  CHECK(cudaMemcpy(hc.data(), C, hc.size() * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), R, hr.size() * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, max_ref = 0;
  for (size_t e = 0; e < hc.size(); ++e) {
    max_err = std::max(max_err, double(std::fabs(__bfloat162float(hc[e]) - hr[e])));
    max_ref = std::max(max_ref, double(std::fabs(hr[e])));
  }
  const double rel = max_err / std::max(max_ref, 1e-30);
  const bool ok = rel <= 1e-2;
  std::printf("gemm_mxf8_sm100: %d x %d x %d: max |C - ref| / max |ref| = %.2e: %s\n", M, N, K,
              rel, ok ? "ok" : "MISMATCH");
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(SA));
  CHECK(cudaFree(SB));
  CHECK(cudaFree(C));
  CHECK(cudaFree(R));
  return ok ? 0 : 1;
}

#endif
