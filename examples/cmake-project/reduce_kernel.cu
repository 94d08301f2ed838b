// A small variant of examples/reduce.cu: four producer warps copy chunks of
// a float array into a 4-stage shared-memory pipeline, four consumer warps
// sum them. libts_add_kernels() runs it through the plugin; nvcc compiles
// the rewritten file. The host function below launches it.
#include <ts/ts.h>

#include <cstdio>

#include "reduce.h"
#include "reduce_config.h"

struct Params {
  const float *src;
  long long n;        // floats in src
  int num_chunks;     // ceil(n / kChunk); the last one is zero-padded
  double *block_sums; // one per block, zeroed before the launch
};

struct [[ts::resource(ts::async_async, ts::stages(kStages))]] Chunk {
  float4 v[kChunk / 4];
};
struct [[ts::resource(ts::gmem)]] Sums {};

// Producers: warps 4-7.
[[ts::task(ts::warps(4, 4))]]
__device__ void load_chunks(const Params &p, ts::producer<Chunk> chunks) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(blockIdx.x, p.num_chunks, gridDim.x)) {
    const long long base = (long long)i * kChunk;
    auto s = chunks.acquire();
    for (int k = 0; k < kVecs; ++k) {
      const long long e = base + 4ll * (t + 128 * k);
      s->v[t + 128 * k] =
          make_float4(e < p.n ? p.src[e] : 0.f, e + 1 < p.n ? p.src[e + 1] : 0.f,
                      e + 2 < p.n ? p.src[e + 2] : 0.f, e + 3 < p.n ? p.src[e + 3] : 0.f);
    }
    chunks.commit(s);
  }
}

// Consumers: warps 0-3.
[[ts::task(ts::warps(0, 4))]]
__device__ void sum_chunks(const Params &p, ts::consumer<Chunk> chunks, ts::producer<Sums>) {
  const int t = threadIdx.x;
  double acc = 0.0;
  for (auto i : ts::domain(blockIdx.x, p.num_chunks, gridDim.x)) {
    auto s = chunks.wait();
    float part = 0.f;
    for (int k = 0; k < kVecs; ++k) {
      const float4 v = s->v[t + 128 * k];
      part += (v.x + v.y) + (v.z + v.w);
    }
    chunks.release(s);
    acc += part;
  }
  for (int off = 16; off > 0; off /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, off);
  if (t % 32 == 0)
    atomicAdd(&p.block_sums[blockIdx.x], acc);
}

[[ts::kernel(load_chunks, sum_chunks)]] __global__ void reduce_sum(const __grid_constant__ Params p);

bool reduce_on_gpu(const float *host, long long n, double *sum) {
#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t err_ = (x);                                                       \
    if (err_ != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(err_));             \
      return false;                                                               \
    }                                                                             \
  } while (0)
  using traits = ts::kernel_traits<reduce_sum>;
  Params p;
  p.n = n;
  p.num_chunks = int((n + kChunk - 1) / kChunk);
  const int blocks = p.num_chunks < 132 ? p.num_chunks : 132;
  float *src = nullptr;
  CHECK(cudaMalloc(&src, n * sizeof(float)));
  CHECK(cudaMemcpy(src, host, n * sizeof(float), cudaMemcpyHostToDevice));
  p.src = src;
  CHECK(cudaMalloc(&p.block_sums, blocks * sizeof(double)));
  CHECK(cudaMemset(p.block_sums, 0, blocks * sizeof(double)));
  CHECK(cudaFuncSetAttribute(reduce_sum, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(traits::smem_bytes)));
  CHECK(ts::launch<reduce_sum>(dim3(blocks), nullptr, p));
  double *sums = new double[blocks];
  CHECK(cudaMemcpy(sums, p.block_sums, blocks * sizeof(double), cudaMemcpyDeviceToHost));
  *sum = 0.0;
  for (int b = 0; b < blocks; ++b)
    *sum += sums[b];
  delete[] sums;
  CHECK(cudaFree(src));
  CHECK(cudaFree(p.block_sums));
  return true;
#undef CHECK
}
