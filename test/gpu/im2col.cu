// GPU check of ts::tma::load_im2col and ts::tensor_map::encode_im2col: one
// CTA loads im2col boxes of an NHWC tensor (a 3 x 3 filter, padding 1,
// stride 1) for every filter tap and compares each with the same patch
// computed on the host (zero outside the image). Plain CUDA around the two
// libts calls: no schedule, one thread issues and waits.
//
//   nvcc -std=c++17 -arch=sm_90a -O3 -Iinclude test/gpu/im2col.cu -o im2col && ./im2col
#include <ts/tensor_map.h>
#include <ts/tma.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int N = 2, H = 7, W = 9, C = 64; // the image, channels last
constexpr int kPixels = 32;                // output pixels per box
using Map = ts::tma::im2col_map<__nv_bfloat16, kPixels, C>;

__global__ void boxes(const __grid_constant__ Map map, int first_pixel, __nv_bfloat16 *out) {
  __shared__ alignas(128) __nv_bfloat16 box[kPixels * C];
  __shared__ uint64_t bar;
  if (threadIdx.x != 0)
    return;
  ts::detail::init_barriers(&bar, 1, 1);
  ts::detail::fence_barrier_init();
  // Output pixel q = first_pixel: image n, row h, column w (row-major).
  const int n = first_pixel / (H * W), h = first_pixel / W % H, w = first_pixel % W;
  unsigned phase = 0;
  for (int tap = 0; tap < 9; ++tap) {
    ts::detail::arrive_expect_tx(&bar, unsigned(Map::box_bytes));
    ts::tma::load_im2col(box, &map, {0, w - 1, h - 1, n},
                         {uint16_t(tap % 3), uint16_t(tap / 3)}, ts::tma_barrier(&bar, true));
    ts::detail::wait_parity(&bar, phase);
    phase ^= 1;
    for (int i = 0; i < kPixels * C; ++i)
      out[tap * kPixels * C + i] = box[i];
  }
}

int main() {
  std::vector<__nv_bfloat16> x(size_t(N) * H * W * C);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = __float2bfloat16(float(int(i % 251) - 125));
  __nv_bfloat16 *dx, *dout;
  const size_t out_elems = size_t(9) * kPixels * C;
  if (cudaMalloc(&dx, x.size() * 2) || cudaMalloc(&dout, out_elems * 2) ||
      cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice)) {
    std::printf("im2col: CUDA setup failed\n");
    return 2;
  }
  Map map;
  const cudaError_t e = ts::tensor_map::encode_im2col(
      &map, dx, {N, H, W, C}, {uint64_t(H) * W * C * 2, uint64_t(W) * C * 2, uint64_t(C) * 2},
      {-1, -1}, {-1, -1});
  if (e != cudaSuccess) {
    std::printf("im2col: encode_im2col: %s\n", cudaGetErrorString(e));
    return 2;
  }
  int bad = 0;
  for (int first : {0, 5, 40, N * H * W - kPixels}) {
    boxes<<<1, 32>>>(map, first, dout);
    std::vector<__nv_bfloat16> got(out_elems);
    if (cudaMemcpy(got.data(), dout, out_elems * 2, cudaMemcpyDeviceToHost)) {
      std::printf("im2col: kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 2;
    }
    for (int tap = 0; tap < 9; ++tap)
      for (int q = 0; q < kPixels; ++q) {
        const int p = first + q, n = p / (H * W), h = p / W % H + tap / 3 - 1,
                  w = p % W + tap % 3 - 1;
        for (int c = 0; c < C; ++c) {
          const bool in = h >= 0 && h < H && w >= 0 && w < W;
          const float want =
              in ? __bfloat162float(x[((size_t(n) * H + h) * W + w) * C + c]) : 0.f;
          const float have = __bfloat162float(got[(size_t(tap) * kPixels + q) * C + c]);
          if (want != have && ++bad <= 5)
            std::printf("mismatch: first pixel %d, tap %d, pixel %d, channel %d: %g, want %g\n",
                        first, tap, q, c, have, want);
        }
      }
  }
  std::printf("im2col: %s (%d mismatches)\n", bad ? "FAILED" : "ok", bad);
  return bad ? 1 : 0;
}
