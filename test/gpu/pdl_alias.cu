// GPU regression test for programmatic dependent launch and alias groups.
// A chain of launches ping-pongs two buffers: out[i] = in[i] + 1. With
// ts::grid_dependent the loader calls ts::pdl_wait() before it reads `in`
// (the previous launch's output) and lets the next launch start its
// prologue once its own loop is done; ts::launch sets programmatic stream
// serialization because the kernel calls PDL ops. After the loop the adder
// hands per-warp partial sums to an epilogue, which reuses the tile buffer
// (ts::alias<Tiles, Total>) for the block total a store task writes out:
// the Partial stage completes only when every adder thread is done with the
// tiles, which is what orders the reuse (the verifier checks it; reusing
// the tiles in the adder itself is a race it reports, and racecheck saw).
// Checks every element and every block sum exactly.
//
//   ./pdl_alias [tiles = 1024] [launches = 16]   (block sums stay below 2^24: exact)
#include <ts/ts.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kTile = 1024; // floats per stage; 128 threads x 8

struct Params {
  const float *in;
  float *out;
  float *block_sums; // one per block, overwritten by each launch
  int num_tiles;
};

struct [[ts::resource(ts::async_async, ts::stages(3))]] Tiles { float v[kTile]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Partial { float warp[4]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Total { float sum; };
struct [[ts::resource(ts::gmem)]] Out {};

// Loader: warps 0-3 copy a tile of `in` into a stage.
[[ts::task(ts::warps(0, 4))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  ts::pdl_wait(); // `in` is the previous launch's output
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    float r[kTile / 128];
    for (int k = 0; k < kTile / 128; ++k)
      r[k] = p.in[size_t(t) * kTile + threadIdx.x + 128 * k];
    auto s = tiles.acquire();
    for (int k = 0; k < kTile / 128; ++k)
      s->v[threadIdx.x + 128 * k] = r[k];
    tiles.commit(s);
  }
  ts::pdl_launch_dependents();
}

// Adder: warps 4-7 write in + 1, then one partial sum per warp.
[[ts::task(ts::warps(4, 4))]]
__device__ void add(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Partial> part,
                    ts::producer<Out>) {
  const int t = threadIdx.x - 128;
  float acc = 0;
  for (auto i : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
    for (int k = 0; k < kTile / 128; ++k) {
      float v = s->v[t + 128 * k] + 1.0f;
      p.out[size_t(i) * kTile + t + 128 * k] = v;
      acc += v;
    }
    tiles.release(s);
  }
  for (int o = 16; o > 0; o /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, o);
  auto w = part.acquire();
  if (t % 32 == 0)
    w->warp[t / 32] = acc;
  part.commit(w); // complete only once every adder thread is done with the tiles
}

// Epilogue: adds the partial sums into the tile buffer's bytes (reused:
// the Partial stage it waited for orders it after every tile read).
[[ts::task(ts::warps(8, 1))]]
__device__ void epilogue(const Params &p, ts::consumer<Partial> part, ts::producer<Total> total) {
  auto w = part.wait();
  float sum = w->warp[0] + w->warp[1] + w->warp[2] + w->warp[3];
  part.release(w);
  auto o = total.acquire();
  if (threadIdx.x % 32 == 0)
    o->sum = sum;
  total.commit(o);
}

// Store: one warp writes the block's total.
[[ts::task(ts::warps(9, 1))]]
__device__ void store(const Params &p, ts::consumer<Total> total, ts::producer<Out>) {
  auto o = total.wait();
  if (threadIdx.x % 32 == 0)
    p.block_sums[blockIdx.x] = o->sum;
  total.release(o);
}

[[ts::kernel(load, add, epilogue, store, ts::alias<Tiles, Total>, ts::grid_dependent<Tiles>)]]
__global__ void step(const Params p);

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t err_ = (x);                                                        \
    if (err_ != cudaSuccess) {                                                     \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,              \
                   cudaGetErrorString(err_));                                      \
      std::exit(2);                                                                \
    }                                                                              \
  } while (0)

int main(int argc, char **argv) {
  const int tiles = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int launches = argc > 2 ? std::atoi(argv[2]) : 16;
  if (tiles < 1 || launches < 1) {
    std::fprintf(stderr, "usage: %s [tiles >= 1] [launches >= 1]\n", argv[0]);
    return 2;
  }
  const size_t n = size_t(tiles) * kTile;
  float *buf[2], *sums = nullptr;
  CHECK(cudaMalloc(&buf[0], n * sizeof(float)));
  CHECK(cudaMalloc(&buf[1], n * sizeof(float)));
  std::vector<float> init(n);
  for (size_t i = 0; i < n; ++i)
    init[i] = float(i % 1000); // small integers: every sum below is exact
  CHECK(cudaMemcpy(buf[0], init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int grid = tiles < sms ? tiles : sms;
  CHECK(cudaMalloc(&sums, grid * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0, stream));
  for (int l = 0; l < launches; ++l) {
    Params p{buf[l % 2], buf[(l + 1) % 2], sums, tiles};
    CHECK(ts::launch<step>(dim3(grid), stream, p));
  }
  CHECK(cudaEventRecord(e1, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));

  std::vector<float> out(n), got(grid);
  CHECK(cudaMemcpy(out.data(), buf[launches % 2], n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(got.data(), sums, grid * sizeof(float), cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (out[i] != init[i] + float(launches) && bad++ < 5)
      std::fprintf(stderr, "element %zu: %g, expected %g\n", i, out[i], init[i] + launches);
  std::vector<double> want(grid, 0.0);
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < kTile; ++k)
      want[t % grid] += init[size_t(t) * kTile + k] + launches;
  size_t bad_sums = 0;
  for (int b = 0; b < grid; ++b)
    if (double(got[b]) != want[b] && bad_sums++ < 5)
      std::fprintf(stderr, "block %d: sum %.1f, expected %.1f\n", b, got[b], want[b]);
  std::printf("pdl_alias: %d tiles x %d launches, grid %d x %u threads, smem %u B, pdl %d: "
              "%.3f ms/launch: %s\n",
              tiles, launches, grid, ts::kernel_traits<step>::threads,
              ts::kernel_traits<step>::smem_bytes, int(ts::uses_pdl<ts::kernel_traits<step>>::value),
              ms / launches, bad || bad_sums ? "MISMATCH" : "ok");
  return bad || bad_sums ? 1 : 0;
}
