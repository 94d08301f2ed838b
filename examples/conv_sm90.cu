// Hopper implicit-GEMM convolution written with libts: y = conv2d(x, w),
// 3 x 3 filter, stride 1, padding 1, bf16 in, fp32 accumulate, bf16 out,
// channels last: x is N x H x W x C, w is K x 3 x 3 x C (PyTorch's
// channels_last weight), y is N x H x W x K.
//
// The GEMM of examples/gemm_sm90.cu with M = N * H * W output pixels, N = K
// output channels and 9 * C as the reduction: a k-step is one filter tap
// (r, s) and 64 input channels. The producer loads the A tile, 128
// consecutive output pixels x 64 channels of the input shifted by the tap,
// with one im2col TMA load (`ts::tma::load_im2col`): the copy engine walks
// the pixels across rows and images and fills the padding with zeros, so no
// thread computes an address. The B tile is 256 output channels x 64 of the
// weights, a plain tiled load. The rest (two MMA warpgroups, the persistent
// static schedule, the TMA-store epilogue into y seen as NHW x K rows) is
// the GEMM's; the verifier checks the im2col box's bytes against the stage
// like any other load.
//
// With at most 128 filters half of a 256-wide filter tile would be
// padding, so the kernel swaps the operands' roles there: 128 filters take
// the MMA's M side (64 per warpgroup) and 256 pixels its N side, the same
// MMAs and stage bytes on tiles of 256 pixels x 128 filters, and the
// epilogue writes each chunk transposed (docs/benchmarks.md, session 25).
//
//   ./conv_sm90 [N H W C K = 32 56 56 128 256] [reps = 20]
// gpu-run-args: 32 56 56 128 256 20
// gpu-run-sanitize-args: 2 7 9 64 256 1
#include <ts/tensor_map.h>
#include <ts/ts.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace conv {

constexpr int BM = 128, BN = 256, BK = 64; // BK: 64 channels, one 128-byte swizzle row
constexpr int kGroupM = 16;                // rasterization: M-blocks per group
constexpr int kEpiCols = 64;               // epilogue chunk: 64 x 64 bf16
constexpr int R = 3, S = 3, kPad = 1;      // the filter

struct Params {
  ts::tma::im2col_map<__nv_bfloat16, BM, BK> x; // 128 pixels x 64 channels of a tap
  ts::tma::map<__nv_bfloat16, BN, BK> w;        // 256 filters x 64 of R * S * C
  // Swapped (K <= 128): 256 pixels on the MMA's N side, 128 filters on M.
  ts::tma::im2col_map<__nv_bfloat16, BN, BK> x_wide;
  ts::tma::map<__nv_bfloat16, BM, BK> w_narrow;
  ts::tma::map<__nv_bfloat16, 64, 64> y; // the epilogue's TMA stores
  int swapped;                           // K <= 128: tiles of 256 pixels x 128 filters
  int tile_pixels;                       // 128, or 256 swapped
  int tile_filters;                      // 256, or 128 swapped
  int height, width;                     // of the image (= of the output: stride 1, padding 1)
  int c_blocks;                          // C / 64
  int k_tiles;                           // 9 * C / 64
  int units_m;                           // ceil(N * H * W / tile_pixels)
  int units_n;                           // ceil(K / tile_filters)
  int units;                             // tiles
};

struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Operands {
  __nv_bfloat16 a[BM * BK]; // 16 KiB: 128 pixels (swapped: filters) x 64 channels
  __nv_bfloat16 b[BN * BK]; // 32 KiB: 256 filters (swapped: pixels) x 64 channels
};

/// The mma task's own epilogue buffers: two 64 x 64 chunks per warpgroup.
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Staging {
  __nv_bfloat16 chunk[2][2][64 * kEpiCols]; // [warpgroup][buffer], 32 KiB
};

/// Tiles this CTA runs: blockIdx.x, + gridDim.x, ... (a static scheduler).
__device__ __forceinline__ int my_units(const Params &p) {
  const int first = int(blockIdx.x), step = int(gridDim.x);
  return p.units > first ? (p.units - first + step - 1) / step : 0;
}

/// Where tile u lies: groups of kGroupM pixel blocks, column by column
/// inside a group, so CTAs running together share filters in L2.
__device__ __forceinline__ void tile_coords(const Params &p, int u, int &mb, int &nb) {
  const int per_group = kGroupM * p.units_n;
  const int first = (u / per_group) * kGroupM;
  const int h = min(kGroupM, p.units_m - first);
  const int r = u % per_group;
  mb = first + r % h;
  nb = r / h;
}

/// A warpgroup's 64 x 256 slice through its two buffers, as in
/// examples/gemm_sm90.cu; rows past the last pixel are dropped by the store.
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
      ts::tma::issue_store(&p.y, {nb * BN + j * kEpiCols, mb * BM + int(wg) * 64}, buf);
  }
}

/// The swapped tile's epilogue: the warpgroup holds 64 filters x 256
/// pixels, y wants pixels as rows, so each 64 x 64 chunk is written
/// transposed (a thread's two columns become two rows; the 128-byte swizzle
/// keeps the 2-byte writes of a warp on distinct banks).
__device__ __forceinline__ void store_slice_t(const Params &p, const float (&acc)[BN / 2], int mb,
                                              int nb, unsigned wg,
                                              __nv_bfloat16 (&bufs)[2][64 * kEpiCols]) {
  const unsigned warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const bool issuer = threadIdx.x % 128 == 0;
  const unsigned f = warp * 16 + lane / 4; // filters f and f + 8 of the chunk
#pragma unroll
  for (int j = 0; j < BN / kEpiCols; ++j) {
    unsigned char *const buf = reinterpret_cast<unsigned char *>(bufs[j & 1]);
    if (issuer) // the store from this buffer two chunks ago has read it
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
#pragma unroll
    for (int gg = 0; gg < kEpiCols / 8; ++gg) {
      const int g = j * (kEpiCols / 8) + gg;
#pragma unroll
      for (unsigned e = 0; e < 2; ++e) {
        const unsigned px = unsigned(gg) * 8 + (lane % 4) * 2 + e; // the pixel: a row of y
#pragma unroll
        for (unsigned h = 0; h < 2; ++h) {
          const unsigned fi = f + 8 * h;
          const unsigned off = (((fi >> 3) ^ (px & 7u)) << 4) + (fi & 7u) * 2;
          *reinterpret_cast<__nv_bfloat16 *>(buf + px * 128 + off) =
              __float2bfloat16_rn(acc[4 * g + 2 * h + e]);
        }
      }
    }
    ts::tma::store_fence(); // visible to the TMA unit
    ts::sync_warpgroup();
    if (issuer)
      ts::tma::issue_store(&p.y, {nb * BM + int(wg) * 64, mb * BN + j * kEpiCols}, buf);
  }
}

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  for (auto t : ts::domain(0, my_units(p))) {
    int mb, nb;
    tile_coords(p, int(blockIdx.x) + int(t) * int(gridDim.x), mb, nb);
    // The tile's first output pixel: image n, row h, column w.
    const int m0 = mb * p.tile_pixels, hw = p.height * p.width;
    const int n = m0 / hw, h = m0 % hw / p.width, w = m0 % p.width;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) { // C > 0: the host checks
      const int tap = int(k) / p.c_blocks, c0 = (int(k) % p.c_blocks) * BK;
      const uint16_t at[2] = {uint16_t(tap % S), uint16_t(tap / S)};
      auto s = ops.acquire();
      if (p.swapped) { // filters on the MMA's M side, pixels on N
        ts::tma::load(s->a, &p.w_narrow, {int(k) * BK, nb * BM}, s.barrier());
        ts::tma::load_im2col(s->b, &p.x_wide, {c0, w - kPad, h - kPad, n}, at, s.barrier());
      } else {
        ts::tma::load_im2col(s->a, &p.x, {c0, w - kPad, h - kPad, n}, at, s.barrier());
        ts::tma::load(s->b, &p.w, {int(k) * BK, nb * BN}, s.barrier());
      }
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::owned<Staging> out) {
  const unsigned wg = ts::warpgroup_index();
  float acc[BN / 2];
  for (auto t : ts::domain(0, my_units(p))) {
    ts::stage<Operands> prev; // the stage the MMAs of the previous k-step read
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a + wg * 64 * BK); // this WG's pixels
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
                            ts::wgmma::advance_k(db, kk * 32), int(k) > 0 || kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<1>(); // the previous step's MMAs are done reading
      if (!k.first())
        ops.release(prev);
      prev = s;
    }
    ts::wgmma::wait_group<0>(); // the tile's last MMAs, then their stage
    ts::wgmma::fence_operand(acc);
    ops.release(prev);
    int mb, nb;
    tile_coords(p, int(blockIdx.x) + int(t) * int(gridDim.x), mb, nb);
    if (p.swapped)
      store_slice_t(p, acc, mb, nb, wg, out->chunk[wg]);
    else
      store_slice(p, acc, mb, nb, wg, out->chunk[wg]);
  }
}

[[ts::kernel(load, mma)]]
__global__ void conv_kernel(const __grid_constant__ Params p);

} // namespace conv

/// Launches y = conv2d(x, w), 3 x 3, stride 1, padding 1, channels last.
/// C must be a positive multiple of 64, K of 8, N, H, W positive, the
/// pointers 16-byte aligned; anything else is refused with a message.
extern "C" int conv_sm90_libts(const void *x, const void *w, void *y, int N, int H, int W, int C,
                               int K, cudaStream_t s) {
  using namespace conv;
  if (N <= 0 || H <= 0 || W <= 0 || C <= 0 || K <= 0 || C % BK || K % 8) {
    std::fprintf(stderr,
                 "conv_sm90_libts: unsupported shape N=%d H=%d W=%d C=%d K=%d: C must be a "
                 "positive multiple of %d, K of 8\n",
                 N, H, W, C, K, BK);
    return int(cudaErrorInvalidValue);
  }
  Params p;
  const uint64_t c = uint64_t(C), rows = uint64_t(N) * H * W;
  cudaError_t e =
      ts::tensor_map::encode_im2col(&p.x, x, {uint64_t(N), uint64_t(H), uint64_t(W), c},
                                    {uint64_t(H) * W * c * 2, uint64_t(W) * c * 2, c * 2},
                                    {-kPad, -kPad}, {-kPad, -kPad}, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e == cudaSuccess)
    e = ts::tensor_map::encode_im2col(&p.x_wide, x, {uint64_t(N), uint64_t(H), uint64_t(W), c},
                                      {uint64_t(H) * W * c * 2, uint64_t(W) * c * 2, c * 2},
                                      {-kPad, -kPad}, {-kPad, -kPad}, CU_TENSOR_MAP_SWIZZLE_128B);
  if (e == cudaSuccess) // the weights as K rows of R * S * C
    e = ts::tensor_map::kmajor_bf16_sw128(&p.w, w, uint64_t(K), uint64_t(R) * S * c);
  if (e == cudaSuccess)
    e = ts::tensor_map::kmajor_bf16_sw128(&p.w_narrow, w, uint64_t(K), uint64_t(R) * S * c);
  if (e == cudaSuccess) // y as N * H * W rows of K: 64 x 64 boxes, swizzled like the buffers
    e = ts::tensor_map::kmajor_bf16_sw128(&p.y, y, rows, uint64_t(K));
  if (e != cudaSuccess)
    return int(e);
  p.height = H;
  p.width = W;
  p.c_blocks = C / BK;
  p.k_tiles = R * S * C / BK;
  p.swapped = K <= BM;
  p.tile_pixels = p.swapped ? BN : BM;
  p.tile_filters = p.swapped ? BM : BN;
  p.units_m = int((rows + p.tile_pixels - 1) / p.tile_pixels);
  p.units_n = (K + p.tile_filters - 1) / p.tile_filters;
  p.units = p.units_m * p.units_n;
  int ctas = 0; // persistent: as many CTAs as run at once
  if ((e = ts::resident_ctas<conv_kernel>(ctas)) != cudaSuccess)
    return int(e);
  return int(ts::launch<conv_kernel>(dim3(std::min(ctas, p.units)), s, p));
}

#ifndef CONV_NO_MAIN

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t err_ = (x);                                                                        \
    if (err_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_));   \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

/// fp32 reference of y[n][h][w][k] on the device, one thread per element.
__global__ void reference(const __nv_bfloat16 *x, const __nv_bfloat16 *w, float *y, int N, int H,
                          int W, int C, int K) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= size_t(N) * H * W * K)
    return;
  const int k = int(i % K), ow = int(i / K % W), oh = int(i / K / W % H), n = int(i / K / W / H);
  float acc = 0.f;
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s) {
      const int ih = oh + r - 1, iw = ow + s - 1;
      if (ih < 0 || ih >= H || iw < 0 || iw >= W)
        continue;
      for (int c = 0; c < C; ++c)
        acc += __bfloat162float(x[((size_t(n) * H + ih) * W + iw) * C + c]) *
               __bfloat162float(w[((size_t(k) * 3 + r) * 3 + s) * C + c]);
    }
  y[i] = acc;
}

int main(int argc, char **argv) {
  const bool shape = argc > 5;
  const int N = shape ? std::atoi(argv[1]) : 32, H = shape ? std::atoi(argv[2]) : 56,
            W = shape ? std::atoi(argv[3]) : 56, C = shape ? std::atoi(argv[4]) : 128,
            K = shape ? std::atoi(argv[5]) : 256;
  const int reps = argc > 6 ? std::atoi(argv[6]) : 20;
  if (reps < 1) {
    std::fprintf(stderr, "usage: %s [N H W C K] [reps >= 1]\n", argv[0]);
    return 2;
  }
  const size_t nx = size_t(N) * H * W * C, nw = size_t(K) * 9 * C, ny = size_t(N) * H * W * K;
  std::vector<__nv_bfloat16> hx(nx), hw(nw);
  uint32_t seed = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1 << 23) - 1.f;
  };
  for (auto *v : {&hx, &hw})
    for (auto &e : *v)
      e = __float2bfloat16(rnd());
  __nv_bfloat16 *x, *w, *y;
  float *ref;
  CHECK(cudaMalloc(&x, nx * 2));
  CHECK(cudaMalloc(&w, nw * 2));
  CHECK(cudaMalloc(&y, ny * 2));
  CHECK(cudaMalloc(&ref, ny * 4));
  CHECK(cudaMemcpy(x, hx.data(), nx * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), nw * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(y, 0, ny * 2));
  CHECK(cudaError_t(conv_sm90_libts(x, w, y, N, H, W, C, K, 0)));
  { // cudaLaunchKernel: clang 19 has no <<<>>> with the CUDA 13 SDK
    const __nv_bfloat16 *a = x, *b = w;
    int n = N, h = H, wd = W, c = C, k = K;
    void *args[] = {&a, &b, &ref, &n, &h, &wd, &c, &k};
    CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference),
                           dim3(unsigned((ny + 255) / 256)), dim3(256), args, 0, 0));
  }
  std::vector<__nv_bfloat16> hy(ny);
  std::vector<float> hr(ny);
  CHECK(cudaMemcpy(hy.data(), y, ny * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), ref, ny * 4, cudaMemcpyDeviceToHost));
  double max_err = 0, max_ref = 0;
  for (size_t e = 0; e < ny; ++e) {
    max_err = std::max(max_err, double(std::fabs(__bfloat162float(hy[e]) - hr[e])));
    max_ref = std::max(max_ref, double(std::fabs(hr[e])));
  }
  const double rel = max_err / std::max(max_ref, 1e-30);
  const bool ok = rel <= 1e-2;
  std::printf("conv_sm90: N %d H %d W %d C %d K %d, smem %u B, %u threads: max |y - ref| / max "
              "|ref| = %.2e: %s\n",
              N, H, W, C, K, ts::kernel_traits<conv::conv_kernel>::smem_bytes,
              ts::kernel_traits<conv::conv_kernel>::threads, rel, ok ? "ok" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(cudaError_t(conv_sm90_libts(x, w, y, N, H, W, C, K, 0)));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("conv_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              2.0 * double(ny) * 9 * C / (med * 1e-3) / 1e12);
  for (void *ptr : {(void *)x, (void *)w, (void *)y, (void *)ref})
    CHECK(cudaFree(ptr));
  return 0;
}

#endif
