// TMA copy: one producer warp streams 64x128-float tiles of a row-major
// matrix into a 4-stage shared-memory pipeline with TMA; four consumer warps
// copy each tile to registers, release the stage and store it to global
// memory with 16-byte stores. Checks the result exactly, then times it
// against cudaMemcpy (device to device) of the same bytes.
//
//   libts-nvcc -std=c++17 -arch=sm_90a -O3 tma_copy.cu -o tma_copy   (or see docs/gpu-run.md)
//   ./tma_copy [MiB = 256] [reps = 8]
#include <ts/ts.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kTileRows = 64;  // box rows
constexpr int kTileCols = 128; // box columns: 512 B, the widest unswizzled box row we use
constexpr int kCols = 4096;    // matrix width in floats (16 KiB rows)
using Box = ts::tma::map<float, kTileRows, kTileCols>; // one tile per load

struct Params {
  Box src;     // input matrix [rows][kCols]
  Box dst_map; // the output for TMA stores (-DTMA_STORE=1)
  float *dst;      // output matrix, same shape
  int tiles_x;     // tiles per row of tiles
  int num_tiles;
};

// Shape knobs (-D...) for tuning runs; the defaults are the measured example.
#ifndef TMA_STAGES
#define TMA_STAGES 4
#endif
#ifndef TMA_STORE
#define TMA_STORE 0 // 1: consumers store stages with TMA instead of registers
#endif
#ifndef TMA_CONSUMER_WARPS
#define TMA_CONSUMER_WARPS (TMA_STORE ? 1 : 4)
#endif
constexpr int kConsumerThreads = 32 * TMA_CONSUMER_WARPS;

// 32 KiB per stage; TMA writes the box row-major, exactly this layout.
struct [[ts::resource(ts::tma_async, ts::stages(TMA_STAGES))]] Tiles {
  float v[kTileRows][kTileCols];
};
struct [[ts::resource(ts::gmem)]] Out {};

// Producer: one warp; lane 0 arms the stage and issues its TMA load. With
// -DTMA_PRODUCER_WARPS=2 (a GPU regression test) every warp of a wider task
// calls load_2d and still only the thread that armed the bytes issues it.
#ifndef TMA_PRODUCER_WARPS
#define TMA_PRODUCER_WARPS 1
#endif
#if TMA_STORE // two light warps: no register budgets
[[ts::task(ts::warps(TMA_CONSUMER_WARPS, TMA_PRODUCER_WARPS))]]
#else
[[ts::task(ts::warps(TMA_CONSUMER_WARPS, TMA_PRODUCER_WARPS), ts::regs(40))]]
#endif
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  ts::tma::prefetch_descriptor(&p.src);
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.acquire(); // empty stage; arms its transaction bytes
    ts::tma::load(s->v, &p.src, {(i % p.tiles_x) * kTileCols, (i / p.tiles_x) * kTileRows},
                     s.barrier());
    tiles.commit(s); // the bytes complete the stage
  }
}

#if TMA_STORE
// Consumer (-DTMA_STORE=1, one warp): TMA stores each stage straight back to
// global memory; release() waits until the store has read the stage.
[[ts::task(ts::warps(0, TMA_CONSUMER_WARPS))]]
__device__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
    if (threadIdx.x < 32)
      ts::tma::store(&p.dst_map, {(i % p.tiles_x) * kTileCols, (i / p.tiles_x) * kTileRows},
                        s->v);
    tiles.release(s);
  }
}
#else
// Consumers: four warps (threads 0-127), 16 float4 per thread per tile.
[[ts::task(ts::warps(0, TMA_CONSUMER_WARPS), ts::regs(232))]]
__device__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  constexpr int kVecs = kTileRows * kTileCols / 4 / kConsumerThreads;
  const int t = threadIdx.x;
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
    float4 r[kVecs];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) { // consecutive threads, consecutive 16 B: no bank conflicts
      const int idx = t + kConsumerThreads * k;
      r[k] = reinterpret_cast<const float4 *>(s->v[idx / 32])[idx % 32];
    }
    tiles.release(s); // the tile is in registers: let TMA refill the stage now
    float *dst = p.dst + size_t(i / p.tiles_x) * kTileRows * kCols + (i % p.tiles_x) * kTileCols;
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int idx = t + kConsumerThreads * k;
      reinterpret_cast<float4 *>(dst + size_t(idx / 32) * kCols)[idx % 32] = r[k];
    }
  }
}
#endif

[[ts::kernel(load, store)]] __global__ void tma_copy(const __grid_constant__ Params p);

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

// The map of a row-major rows x kCols float matrix, one tile per load: the
// box comes from the type (ts/tensor_map.h: no -lcuda needed).
static Box make_map(float *base, int rows) {
  Box map;
  CHECK(ts::tensor_map::encode(&map, base, rows, kCols));
  return map;
}

int main(int argc, char **argv) {
  const long long mib = argc > 1 ? std::atoll(argv[1]) : 256;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 8;
  const int rows = int(mib * (1 << 20) / (kCols * sizeof(float))); // 64 rows per MiB
  if (mib < 1 || reps < 1 || rows % kTileRows != 0) {
    std::fprintf(stderr, "usage: %s [MiB >= 1] [reps >= 1]\n", argv[0]);
    return 2;
  }
  const size_t count = size_t(rows) * kCols, bytes = count * sizeof(float);

  std::vector<float> h_src(count), h_dst(count);
  for (size_t k = 0; k < count; ++k) // distinct small integers: exact in float
    h_src[k] = float((uint32_t(k) * 2654435761u) >> 8);
  float *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, bytes));
  CHECK(cudaMalloc(&dst, bytes));
  CHECK(cudaMemcpy(src, h_src.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dst, 0xff, bytes)); // NaNs wherever nothing is written

  Params p;
  std::memset(&p, 0, sizeof p);
  p.src = make_map(src, rows);
  p.dst_map = make_map(dst, rows);
  p.dst = dst;
  p.tiles_x = kCols / kTileCols;
  p.num_tiles = p.tiles_x * (rows / kTileRows);

  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const dim3 grid(p.num_tiles < sms ? p.num_tiles : sms); // persistent: one CTA per SM
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));

  CHECK(ts::launch<tma_copy>(grid, stream, p));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(h_dst.data(), dst, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t k = 0; k < count; ++k)
    if (std::memcmp(&h_src[k], &h_dst[k], sizeof(float)) != 0 && bad++ < 5)
      std::fprintf(stderr, "mismatch at %zu: %g != %g\n", k, h_dst[k], h_src[k]);
  std::printf("tma_copy: %lld MiB, grid %u x %u threads, smem %u B: %s\n", mib, grid.x,
              ts::kernel_traits<tma_copy>::threads, ts::kernel_traits<tma_copy>::smem_bytes,
              bad ? "MISMATCH" : "ok");
  if (bad) {
    std::fprintf(stderr, "tma_copy: %zu mismatches\n", bad);
    return 1;
  }

  // Timing: both copies move the same bytes, `reps` times, in one stream.
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  float ms_ts = 0, ms_memcpy = 0;
  CHECK(ts::launch<tma_copy>(grid, stream, p)); // warm-up
  CHECK(cudaEventRecord(e0, stream));
  for (int r = 0; r < reps; ++r)
    CHECK(ts::launch<tma_copy>(grid, stream, p));
  CHECK(cudaEventRecord(e1, stream));
  CHECK(cudaEventSynchronize(e1));
  CHECK(cudaEventElapsedTime(&ms_ts, e0, e1));
  CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream)); // warm-up
  CHECK(cudaEventRecord(e0, stream));
  for (int r = 0; r < reps; ++r)
    CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
  CHECK(cudaEventRecord(e1, stream));
  CHECK(cudaEventSynchronize(e1));
  CHECK(cudaEventElapsedTime(&ms_memcpy, e0, e1));

  // GB/s of bytes copied (each byte is read once and written once).
  const double gb = double(bytes) * reps / 1e9;
  const double bw_ts = gb / (ms_ts / 1e3), bw_memcpy = gb / (ms_memcpy / 1e3);
  std::printf("tma_copy: %d x %lld MiB: %.3f ms/rep, %.1f GB/s (read+write %.1f GB/s)\n", reps,
              mib, ms_ts / reps, bw_ts, 2 * bw_ts);
  std::printf("cudaMemcpy D2D: %d x %lld MiB: %.3f ms/rep, %.1f GB/s (read+write %.1f GB/s)\n",
              reps, mib, ms_memcpy / reps, bw_memcpy, 2 * bw_memcpy);
  std::printf("ratio tma_copy / cudaMemcpy: %.3f\n", bw_ts / bw_memcpy);

  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  return 0;
}
