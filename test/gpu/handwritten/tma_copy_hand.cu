#define __LIBTS_GENERATED__ 1
#line 1 "examples/tma_copy.cu"
// TMA copy: one producer warp streams 64x128-float tiles of a row-major
// matrix into a 4-stage shared-memory pipeline with TMA; four consumer warps
// copy each tile to registers, release the stage and store it to global
// memory with 16-byte stores. Checks the result exactly, then times it
// against cudaMemcpy (device to device) of the same bytes.
//
//   clang++ -fplugin=libts.so -plugin-arg-ts -emit=tma_copy.gen.cu ...   (or see docs/gpu-run.md)
//   ./tma_copy [MiB = 256] [reps = 8]
#include <ts/ts.h>

#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kTileRows = 64;  // box rows
constexpr int kTileCols = 128; // box columns: 512 B, the widest unswizzled box row we use
constexpr int kCols = 4096;    // matrix width in floats (16 KiB rows)

struct Params {
  CUtensorMap src; // input matrix [rows][kCols], box kTileCols x kTileRows
  float *dst;      // output matrix, same shape
  int tiles_x;     // tiles per row of tiles
  int num_tiles;
};

// 32 KiB per stage; TMA writes the box row-major, exactly this layout.
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles {
  float v[kTileRows][kTileCols];
};
struct [[ts::resource(ts::gmem)]] Out {};

// Producer: one warp; lane 0 arms the stage and issues its TMA load.
[[ts::task(ts::warps(4, 1), ts::regs(40))]]
__device__ __forceinline__ void load(const Params &p, ts::producer<Tiles> tiles) {
  ts::tma::prefetch_descriptor(&p.src);
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.acquire(); // empty stage; arms its transaction bytes
    ts::tma::load(s->v, &p.src, {(i % p.tiles_x) * kTileCols, (i / p.tiles_x) * kTileRows},
                     s.barrier());
    tiles.commit(s); // the bytes complete the stage
  }
}

// Consumers: four warps (threads 0-127), 16 float4 per thread per tile.
[[ts::task(ts::warps(0, 4), ts::regs(232))]]
__device__ __forceinline__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  constexpr int kVecs = kTileRows * kTileCols / 4 / 128;
  const int t = threadIdx.x;
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
    float4 r[kVecs];
#pragma unroll
    for (int k = 0; k < kVecs; ++k) { // consecutive threads, consecutive 16 B: no bank conflicts
      const int idx = t + 128 * k;
      r[k] = reinterpret_cast<const float4 *>(s->v[idx / 32])[idx % 32];
    }
    tiles.release(s); // the tile is in registers: let TMA refill the stage now
    float *dst = p.dst + size_t(i / p.tiles_x) * kTileRows * kCols + (i % p.tiles_x) * kTileCols;
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const int idx = t + 128 * k;
      reinterpret_cast<float4 *>(dst + size_t(idx / 32) * kCols)[idx % 32] = r[k];
    }
  }
}

[[ts::kernel(load, store)]] __global__ void tma_copy(const __grid_constant__ Params p); namespace ts { template <> struct kernel_traits<&::tma_copy> { static constexpr unsigned smem_bytes = 131248; static constexpr unsigned threads = 256; }; }

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

// cuTensorMapEncodeTiled through the runtime's driver entry point: no -lcuda.
static CUtensorMap make_map(float *base, int rows) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &q));
  if (q != cudaDriverEntryPointSuccess || !fn) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
    std::exit(2);
  }
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(kCols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(kCols) * sizeof(float)};
  const cuuint32_t box[2] = {kTileCols, kTileRows};
  const cuuint32_t estrides[2] = {1, 1};
  CUresult r = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn)(
      &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, estrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
      CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled failed: %d\n", int(r));
    std::exit(2);
  }
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
#line 1 "<libts generated: examples/tma_copy.cu>"
__global__ void __launch_bounds__(256, 1) tma_copy(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char ts_smem_raw[];
  unsigned char *const ts_smem = ::ts::detail::align_base<128>(ts_smem_raw);
  const unsigned ts_warp = ::ts::detail::warp_index();
  ::uint64_t *const ts_bar = reinterpret_cast<::uint64_t *>(ts_smem + 131072);
  if (threadIdx.x == 0) {
    ::ts::detail::init_barriers(ts_bar + 0, 4, 1);    // Tiles: full x 4, 1 arrival
    ::ts::detail::init_barriers(ts_bar + 4, 4, 128);  // Tiles: empty x 4, 128 arrivals
    ::ts::detail::fence_barrier_init();
  }
  __syncthreads();
  const ::ts::detail::pipe ts_pipe_0{ts_smem + 0, 32768u, 4u, ts_bar + 0, ts_bar + 4,
                                     32768u, ::ts::pipeline_kind::tma_async};
  if (ts_warp < 4u) {                                           // consumer warp group
    ::ts::detail::setmaxnreg_dec<232>();
    ::ts::detail::cursor ts_cur_0{0u, 0u};                      // consumer: parity 0
    store(p, ::ts::consumer<::Tiles>(ts_pipe_0, ts_cur_0), ::ts::producer<::Out>());
  } else if (ts_warp < 8u) {                                    // producer warp group
    ::ts::detail::setmaxnreg_dec<40>();                         // warps 5-7: padding
    if (ts_warp == 4u) {
      ::ts::detail::cursor ts_cur_1{0u, 1u};                    // producer: parity 1
      load(p, ::ts::producer<::Tiles>(ts_pipe_0, ts_cur_1, true));
      ::ts::detail::producer_drain(ts_pipe_0, ts_cur_1);
    }
  }
}
