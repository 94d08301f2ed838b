#define __LIBTS_GENERATED__ 1
#line 1 "examples/reduce.cu"
// Reduction over an async_async pipeline: four producer warps load 16 KiB
// chunks of a float array (plain loads, into registers first so the loads
// overlap the wait for an empty stage) and store them into shared memory;
// four consumer warps sum each chunk, release it, and at the end add their
// warp sums to this block's slot. The host adds the block sums and checks
// them exactly against a double-precision reference (the data is chosen so
// that every rounding is exact).
//
//   ./reduce [MiB = 256] [reps = 10]
#include <ts/ts.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kChunk = 4096;                   // floats per stage
constexpr int kVecs = kChunk / 4 / 128;        // float4 per thread per chunk (128 threads)

struct Params {
  const float *src;
  long long n;        // floats in src
  int num_chunks;     // ceil(n / kChunk); the last one is zero-padded
  double *block_sums; // one per block, zeroed before the launch
};

struct [[ts::resource(ts::async_async, ts::stages(4))]] Chunk {
  float4 v[kChunk / 4];
};
struct [[ts::resource(ts::gmem)]] Sums {};

// Producers: warps 4-7 (threads 128-255).
[[ts::task(ts::warps(4, 4))]]
__device__ __forceinline__ void load_chunks(const Params &p, ts::producer<Chunk> chunks) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.num_chunks, gridDim.x)) {
    const long long base = (long long)i * kChunk;
    float4 r[kVecs];
    if (base + kChunk <= p.n) { // full chunk: 16-byte loads
      const float4 *src = reinterpret_cast<const float4 *>(p.src + base);
#pragma unroll
      for (int k = 0; k < kVecs; ++k)
        r[k] = src[t + 128 * k];
    } else { // the tail chunk: zero past the end
#pragma unroll
      for (int k = 0; k < kVecs; ++k) {
        const long long e = base + 4ll * (t + 128 * k);
        r[k] = make_float4(e < p.n ? p.src[e] : 0.f, e + 1 < p.n ? p.src[e + 1] : 0.f,
                           e + 2 < p.n ? p.src[e + 2] : 0.f, e + 3 < p.n ? p.src[e + 3] : 0.f);
      }
    }
    auto s = chunks.acquire();
#pragma unroll
    for (int k = 0; k < kVecs; ++k)
      s->v[t + 128 * k] = r[k];
    chunks.commit(s); // every producer thread arrives on the full barrier
  }
}

// Consumers: warps 0-3 (threads 0-127).
[[ts::task(ts::warps(0, 4))]]
__device__ __forceinline__ void sum_chunks(const Params &p, ts::consumer<Chunk> chunks, ts::producer<Sums>) {
  const int t = threadIdx.x;
  double acc = 0.0; // float per chunk, double across chunks
  for (auto i : ts::domain(blockIdx.x, p.num_chunks, gridDim.x)) {
    auto s = chunks.wait();
    float part = 0.f;
#pragma unroll
    for (int k = 0; k < kVecs; ++k) {
      const float4 v = s->v[t + 128 * k];
      part += (v.x + v.y) + (v.z + v.w);
    }
    chunks.release(s);
    acc += part;
  }
  // Tail: warp sum, one atomic per warp into this block's slot.
  for (int off = 16; off > 0; off /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (t % 32 == 0)
    atomicAdd(&p.block_sums[blockIdx.x], acc);
}

[[ts::kernel(load_chunks, sum_chunks)]] __global__ void reduce_sum(const __grid_constant__ Params p); namespace ts { template <> struct kernel_traits<&::reduce_sum> { static constexpr unsigned smem_bytes = 65712; static constexpr unsigned threads = 256; }; }

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const long long mib = argc > 1 ? std::atoll(argv[1]) : 256;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  if (mib < 1 || reps < 1) {
    std::fprintf(stderr, "usage: %s [MiB >= 1] [reps >= 1]\n", argv[0]);
    return 2;
  }
  const long long n = mib * (1 << 20) / 4 + 1234; // not a multiple of kChunk: exercises the tail

  std::vector<float> h(n);
  double ref = 0.0, ref_abs = 0.0;
  for (long long k = 0; k < n; ++k) {
    // Multiples of 1/256 in [-0.25, 0.75): every partial sum is exact in
    // float and the total exact in double, so the check can be exact.
    h[k] = float((uint32_t(k) * 2654435761u) >> 24) / 256.f - 0.25f;
    ref += h[k];
    ref_abs += std::fabs(h[k]);
  }

  Params p;
  p.n = n;
  p.num_chunks = int((n + kChunk - 1) / kChunk);
  float *src = nullptr;
  CHECK(cudaMalloc(&src, n * sizeof(float)));
  CHECK(cudaMemcpy(src, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  p.src = src;

  // As many co-resident blocks as fit (shared memory allows several per SM).
  using traits = ts::kernel_traits<reduce_sum>;
  int sms = 0, per_sm = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaFuncSetAttribute(reduce_sum, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(traits::smem_bytes)));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_sum, int(traits::threads),
                                                      traits::smem_bytes));
  int blocks = sms * (per_sm > 0 ? per_sm : 1);
  if (blocks > p.num_chunks)
    blocks = p.num_chunks;
  CHECK(cudaMalloc(&p.block_sums, blocks * sizeof(double)));

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaMemsetAsync(p.block_sums, 0, blocks * sizeof(double), stream));
  CHECK(ts::launch<reduce_sum>(dim3(blocks), stream, p));
  std::vector<double> sums(blocks);
  CHECK(cudaMemcpyAsync(sums.data(), p.block_sums, blocks * sizeof(double),
                        cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  double got = 0.0;
  for (double s : sums)
    got += s;
  const bool ok = got == ref;
  std::printf("reduce: n = %lld, %d blocks (%d/SM) x %u threads, smem %u B: sum %.4f ref %.4f "
              "(sum |x| %.1f): %s\n",
              n, blocks, per_sm, traits::threads, traits::smem_bytes, got, ref, ref_abs,
              ok ? "exact" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0, stream));
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaMemsetAsync(p.block_sums, 0, blocks * sizeof(double), stream));
    CHECK(ts::launch<reduce_sum>(dim3(blocks), stream, p));
  }
  CHECK(cudaEventRecord(e1, stream));
  CHECK(cudaEventSynchronize(e1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::printf("reduce: %d x %.1f MiB: %.3f ms/rep, %.1f GB/s read\n", reps,
              n * 4.0 / (1 << 20), ms / reps, n * 4.0 * reps / 1e9 / (ms / 1e3));

  CHECK(cudaFree(src));
  CHECK(cudaFree(p.block_sums));
  return 0;
}
#line 1 "<libts generated: examples/reduce.cu>"
__global__ void __launch_bounds__(256, 1) reduce_sum(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char ts_smem_raw[];
  unsigned char *const ts_smem = ::ts::detail::align_base<128>(ts_smem_raw);
  const unsigned ts_warp = ::ts::detail::warp_index();
  ::uint64_t *const ts_bar = reinterpret_cast<::uint64_t *>(ts_smem + 65536);
  if (threadIdx.x == 0) {
    ::ts::detail::init_barriers(ts_bar + 0, 4, 128);  // Chunk: full x 4, 128 arrivals
    ::ts::detail::init_barriers(ts_bar + 4, 4, 128);  // Chunk: empty x 4, 128 arrivals
    ::ts::detail::fence_barrier_init();
  }
  __syncthreads();
  const ::ts::detail::pipe ts_pipe_0{ts_smem + 0, 16384u, 4u, ts_bar + 0, ts_bar + 4,
                                     16384u, ::ts::pipeline_kind::async_async};
  if (ts_warp >= 0u && ts_warp < 4u) {
    ::ts::detail::cursor ts_cur_0{0u, 0u};                      // consumer: parity 0
    sum_chunks(p, ::ts::consumer<::Chunk>(ts_pipe_0, ts_cur_0), ::ts::producer<::Sums>());
  } else if (ts_warp >= 4u && ts_warp < 8u) {
    ::ts::detail::cursor ts_cur_1{0u, 1u};                      // producer: parity 1
    load_chunks(p, ::ts::producer<::Chunk>(ts_pipe_0, ts_cur_1, ts_warp == 4u));
    ::ts::detail::producer_drain(ts_pipe_0, ts_cur_1);
  }
}
