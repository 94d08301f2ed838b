// Hopper stream-K bf16 GEMM written with libts: C = A x B^T, bf16 in, fp32
// accumulate, bf16 out; A M x K and B N x K (both K-major), C M x N
// row-major.
//
// The GEMM of examples/gemm_sm90.cu (128 x 256 tiles, a 4-stage operand
// pipeline, two consumer warpgroups), but the work is split by k-steps, not
// by tiles: the k-steps of all tiles, tile after tile, are cut into one
// equal range per CTA of a persistent grid (ts::stream_k), so no CTA idles
// in a last, partial wave of tiles. A range cuts tiles into segments; a tile
// cut in several is summed across CTAs: the CTA holding its first k-step
// adds the partial sums the CTAs holding the rest wrote to a workspace, then
// stores the tile. ts::stream_k::settle does that exchange (who signals, who
// waits and for which tile follow from the partition) and the plugin checks
// that every segment of the accumulating task settles, once, after its
// k-loop (docs/verifier.md, "Stream-K fix-up"). The verifier proves the
// pipelines for every number of segments and every k-range in each.
//
// The workspace (a flag and a partial tile per CTA and warpgroup) must be
// zero before the first launch; each launch leaves it zero.
//
//   ./gemm_streamk_sm90 [M N K = 3072 4096 4096] [reps = 20]
// gpu-run-args: 3072 4096 4096 20
// gpu-run-sanitize-args: 256 512 448 1
#include <ts/tensor_map.h>
#include <ts/ts.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm_streamk {

constexpr int BM = 128, BN = 256, BK = 64; // BK: one 128-byte swizzle row of bf16
constexpr int kGroupM = 16;                // rasterization: M-blocks per group
constexpr int kEpiCols = 64;               // epilogue chunk: 64 x 64 bf16

/// The partition: accumulators of 128 floats per thread in warpgroups 0, 1.
using Split = ts::stream_k<BN / 2, 2>;

struct Params {
  ts::tma::map<__nv_bfloat16, BM, BK> a;
  ts::tma::map<__nv_bfloat16, BN, BK> b;
  ts::tma::map<__nv_bfloat16, 64, 64> c; // the epilogue's TMA stores
  Split sk;
  int units_m; // M / 128
  int units_n; // N / 256
};

struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Operands {
  __nv_bfloat16 a[BM * BK]; // 16 KiB
  __nv_bfloat16 b[BN * BK]; // 32 KiB
};

/// The mma task's own epilogue buffers: two 64 x 64 chunks per warpgroup.
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Staging {
  __nv_bfloat16 chunk[2][2][64 * kEpiCols]; // [warpgroup][buffer], 32 KiB
};

/// Where tile u lies: groups of kGroupM M-blocks, column by column inside a
/// group, so CTAs running together share A rows and B columns in L2.
__device__ __forceinline__ void tile_coords(const Params &p, int u, int &mb, int &nb) {
  const int per_group = kGroupM * p.units_n;
  const int first = (u / per_group) * kGroupM;
  const int h = min(kGroupM, p.units_m - first);
  const int r = u % per_group;
  mb = first + r % h;
  nb = r / h;
}

/// A warpgroup's 64 x 256 slice through its two buffers, as in
/// examples/gemm_sm90.cu: each 64 x 64 chunk converted to bf16, written
/// 128-byte swizzled and stored by TMA while the next one is filled.
__device__ __forceinline__ void store_slice(const Params &p, const float (&acc)[BN / 2], int mb,
                                            int nb, unsigned wg,
                                            __nv_bfloat16 (&bufs)[2][64 * kEpiCols]) {
  const unsigned warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const bool issuer = threadIdx.x % 128 == 0;
  const unsigned r = warp * 16 + lane / 4; // rows r and r + 8 of the chunk
#pragma unroll
  for (int j = 0; j < BN / kEpiCols; ++j) {
    unsigned char *const buf = reinterpret_cast<unsigned char *>(bufs[j & 1]);
    if (issuer) // the store from this buffer two chunks ago has read it
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
#pragma unroll
    for (int gg = 0; gg < kEpiCols / 8; ++gg) {
      const int g = j * (kEpiCols / 8) + gg;
      const unsigned off = ((unsigned(gg) ^ (r & 7u)) << 4) + (lane % 4) * 4;
      *reinterpret_cast<__nv_bfloat162 *>(buf + r * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 0], acc[4 * g + 1]);
      *reinterpret_cast<__nv_bfloat162 *>(buf + (r + 8) * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 2], acc[4 * g + 3]);
    }
    ts::tma::store_fence(); // visible to the TMA unit
    ts::sync_warpgroup();
    if (issuer)
      ts::tma::issue_store(&p.c, {nb * BN + j * kEpiCols, mb * BM + int(wg) * 64}, buf);
  }
}

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  for (auto i : ts::domain(0, p.sk.segments())) {
    const ts::segment sg = p.sk.at(int(i));
    int mb, nb;
    tile_coords(p, sg.tile, mb, nb);
    for (auto k : ts::domain(sg.k_begin, sg.k_end).nonempty()) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * BK, mb * BM}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * BK, nb * BN}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::owned<Staging> out) {
  const unsigned wg = ts::warpgroup_index();
  float acc[BN / 2];
  for (auto i : ts::domain(0, p.sk.segments())) {
    const ts::segment sg = p.sk.at(int(i));
    ts::stage<Operands> prev; // the stage the MMAs of the previous k-step read
    for (auto k : ts::domain(sg.k_begin, sg.k_end).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a + wg * 64 * BK); // this WG's rows
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
                            ts::wgmma::advance_k(db, kk * 32), !k.first() || kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<1>(); // the previous step's MMAs are done reading
      if (!k.first())
        ops.release(prev);
      prev = s;
    }
    ts::wgmma::wait_group<0>(); // the segment's last MMAs, then their stage
    ts::wgmma::fence_operand(acc);
    ops.release(prev);
    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile
      int mb, nb;
      tile_coords(p, sg.tile, mb, nb);
      store_slice(p, acc, mb, nb, wg, out->chunk[wg]);
    }
  }
}

[[ts::kernel(load, mma)]]
__global__ void gemm_streamk_kernel(const __grid_constant__ Params p);

} // namespace gemm_streamk

namespace {

bool supported(int M, int N, int K) {
  using namespace gemm_streamk;
  if (M > 0 && N > 0 && K > 0 && M % BM == 0 && N % BN == 0 && K % BK == 0)
    return true;
  std::fprintf(stderr,
               "gemm_streamk_sm90: unsupported shape M=%d N=%d K=%d: M must be a positive "
               "multiple of %d, N of %d, K of %d\n",
               M, N, K, BM, BN, BK);
  return false;
}

cudaError_t plan(int M, int N, int K, gemm_streamk::Split &sk) {
  using namespace gemm_streamk;
  return Split::plan<gemm_streamk_kernel>((M / BM) * (N / BN), K / BK, sk);
}

} // namespace

/// Bytes of workspace gemm_streamk_sm90_libts needs for this shape on the
/// current device.
extern "C" cudaError_t gemm_streamk_sm90_workspace(int M, int N, int K, size_t *bytes) {
  gemm_streamk::Split sk;
  if (!supported(M, N, K) || !bytes)
    return cudaErrorInvalidValue;
  cudaError_t e = plan(M, N, K, sk);
  *bytes = e == cudaSuccess ? sk.workspace_bytes() : 0;
  return e;
}

/// Launches C = A x B^T split by k-steps over the resident grid. M % 128,
/// N % 256 and K % 64 must be 0; `workspace` holds
/// gemm_streamk_sm90_workspace bytes, zero before the first launch (each
/// launch leaves it zero). Anything else is refused with a message.
extern "C" cudaError_t gemm_streamk_sm90_libts(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                                               __nv_bfloat16 *C, int M, int N, int K,
                                               void *workspace, cudaStream_t s) {
  using namespace gemm_streamk;
  if (!supported(M, N, K) || !workspace)
    return cudaErrorInvalidValue;
  Params p;
  cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&p.a, A, M, K);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.b, B, N, K);
  if (e == cudaSuccess) // C as rows of N: 64 x 64 boxes, swizzled like the buffers
    e = ts::tensor_map::kmajor_bf16_sw128(&p.c, C, M, N);
  if (e == cudaSuccess)
    e = plan(M, N, K, p.sk);
  if (e != cudaSuccess)
    return e;
  p.sk.attach(workspace);
  p.units_m = M / BM;
  p.units_n = N / BN;
  return ts::launch<gemm_streamk_kernel>(dim3(p.sk.ctas()), s, p);
}

#ifndef GEMM_NO_MAIN

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t err_ = (x);                                                                        \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_));   \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

/// fp32 reference of C[r][c] on the device, one thread per element.
__global__ void reference(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                          int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += __bfloat162float(A[size_t(r) * K + k]) * __bfloat162float(B[size_t(c) * K + k]);
  C[size_t(r) * N + c] = acc;
}

int main(int argc, char **argv) {
  const int M = argc > 3 ? std::atoi(argv[1]) : 3072;
  const int N = argc > 3 ? std::atoi(argv[2]) : 4096;
  const int K = argc > 3 ? std::atoi(argv[3]) : 4096;
  const int reps = argc > 4 ? std::atoi(argv[4]) : 20;
  if (reps < 1) {
    std::fprintf(stderr, "usage: %s [M N K] [reps >= 1]\n", argv[0]);
    return 2;
  }
  size_t ws_bytes = 0;
  CHECK(gemm_streamk_sm90_workspace(M, N, K, &ws_bytes));
  std::vector<__nv_bfloat16> ha(size_t(M) * K), hb(size_t(N) * K);
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&ha, &hb})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  __nv_bfloat16 *A, *B, *C;
  float *R;
  void *ws;
  CHECK(cudaMalloc(&A, ha.size() * 2));
  CHECK(cudaMalloc(&B, hb.size() * 2));
  CHECK(cudaMalloc(&C, size_t(M) * N * 2));
  CHECK(cudaMalloc(&R, size_t(M) * N * 4));
  CHECK(cudaMalloc(&ws, ws_bytes));
  CHECK(cudaMemset(ws, 0, ws_bytes));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));

  { // cudaLaunchKernel: clang 19 has no <<<>>> with the CUDA 13 SDK
    const __nv_bfloat16 *a = A, *b = B;
    int m = M, n = N, k = K;
    void *args[] = {&a, &b, &R, &m, &n, &k};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference), dim3((N + 255) / 256, M),
                           dim3(256), args, 0, 0));
  }
  std::vector<float> hr(size_t(M) * N);
  CHECK(cudaMemcpy(hr.data(), R, hr.size() * 4, cudaMemcpyDeviceToHost));
  // Three launches, each checked: the flags must come back to zero.
  gemm_streamk::Split sk;
  CHECK(plan(M, N, K, sk));
  std::vector<int> flags(size_t(sk.ctas()) * 2);
  bool ok = true;
  for (int round = 0; round < 3 && ok; ++round) {
    CHECK(cudaMemset(C, 0, size_t(M) * N * 2));
    CHECK(gemm_streamk_sm90_libts(A, B, C, M, N, K, ws, 0));
    std::vector<__nv_bfloat16> hc(size_t(M) * N);
    CHECK(cudaMemcpy(hc.data(), C, hc.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(flags.data(), ws, flags.size() * sizeof(int), cudaMemcpyDeviceToHost));
    double max_err = 0, max_ref = 0;
    for (size_t e = 0; e < hc.size(); ++e) {
      max_err = std::max(max_err, double(std::fabs(__bfloat162float(hc[e]) - hr[e])));
      max_ref = std::max(max_ref, double(std::fabs(hr[e])));
    }
    const double rel = max_err / std::max(max_ref, 1e-30);
    const bool clear = std::all_of(flags.begin(), flags.end(), [](int f) { return f == 0; });
    ok = rel <= 1e-2 && clear;
    std::printf("gemm_streamk_sm90: %d x %d x %d, %d CTAs, launch %d, smem %u B, %u threads: max "
                "|C - ref| / max |ref| = %.2e, flags %s: %s\n",
                M, N, K, sk.ctas(), round,
                ts::kernel_traits<gemm_streamk::gemm_streamk_kernel>::smem_bytes,
                ts::kernel_traits<gemm_streamk::gemm_streamk_kernel>::threads, rel,
                clear ? "clear" : "SET", ok ? "ok" : "MISMATCH");
  }
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(gemm_streamk_sm90_libts(A, B, C, M, N, K, ws, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("gemm_streamk_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              2.0 * M * N * K / (med * 1e-3) / 1e12);
  for (void *ptr : {(void *)A, (void *)B, (void *)C, (void *)R, ws})
    CHECK(cudaFree(ptr));
  return 0;
}

#endif
