// GPU regression test for ts::merge (the reference's FusedMerge group) on
// sm_90a: one ts::tma_async stage filled by two producer tasks of different
// kinds. A load task's leader arms the bytes of `a` and TMA loads a tile of
// A into it; a warpgroup writes `b` from B with its threads, each arriving
// on the same full barrier at its commit (the plan counts 1 + 128). A
// consumer warpgroup writes out = a + b. If the barrier completed on the
// bytes alone, or on the threads alone, the consumer would read a
// half-written stage: every element is checked exactly.
//
//   ./merge_add [tiles = 4096] [ctas = 132]
#include <ts/ts.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

constexpr int kRows = 32, kCols = 32; // one tile: 32 x 32 floats
constexpr int kWidth = 1024;          // A's row length in floats
using Box = ts::tma::map<float, kRows, kCols>;

struct Params {
  Box a;          // A [tiles / 32 * 32][1024]: tile t at rows (t / 32) * 32, cols (t % 32) * 32
  const float *b; // B: tile t at b + t * 1024, row-major
  float *out;     // out: like B
  int num_tiles;
};

struct [[ts::resource(ts::tma_async, ts::stages(3), ts::merge)]] Pair {
  float a[kRows][kCols]; // TMA
  float b[kRows][kCols]; // threads
};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(8, 1))]]
__device__ void load_a(const Params &p, ts::producer<Pair> pair) {
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = pair.acquire(); // arms the 4096 bytes of `a`
    ts::tma::load(s->a, &p.a, {(t % 32) * kCols, (t / 32) * kRows}, s.barrier());
    pair.commit(s);
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void fill_b(const Params &p, ts::producer<Pair> pair) {
  const int i = threadIdx.x % 128;
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = pair.acquire();
    const float *src = p.b + size_t(t) * kRows * kCols;
    for (int k = i; k < kRows * kCols; k += 128)
      s->b[k / kCols][k % kCols] = src[k];
    pair.commit(s); // each thread arrives
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void add(const Params &p, ts::consumer<Pair> pair, ts::producer<Out>) {
  const int i = threadIdx.x % 128;
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = pair.wait();
    float *dst = p.out + size_t(t) * kRows * kCols;
    for (int k = i; k < kRows * kCols; k += 128)
      dst[k] = s->a[k / kCols][k % kCols] + s->b[k / kCols][k % kCols];
    pair.release(s);
  }
}

[[ts::kernel(load_a, fill_b, add)]] __global__ void merge_add(const __grid_constant__ Params p);

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const int tiles = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int ctas = argc > 2 ? std::atoi(argv[2]) : 132;
  if (tiles < 32 || tiles % 32 != 0 || ctas < 1) {
    std::fprintf(stderr, "usage: %s [tiles: a multiple of 32] [ctas >= 1]\n", argv[0]);
    return 2;
  }
  const size_t count = size_t(tiles) * kRows * kCols, bytes = count * sizeof(float);
  const int rows = tiles / 32 * kRows;
  std::vector<float> h_a(count), h_b(count), h_out(count);
  for (size_t k = 0; k < count; ++k) { // small integers: sums are exact
    h_a[k] = float((uint32_t(k) * 2654435761u) >> 20);
    h_b[k] = float(k % 1000);
  }
  float *a = nullptr, *b = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemcpy(a, h_a.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, h_b.data(), bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0xff, bytes));

  Params p;
  std::memset(&p, 0, sizeof p);
  CHECK(ts::tensor_map::encode(&p.a, a, rows, kWidth));
  p.b = b;
  p.out = out;
  p.num_tiles = tiles;
  CHECK(ts::launch<merge_add>(dim3(ctas), 0, p));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), out, bytes, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (int t = 0; t < tiles; ++t)
    for (int k = 0; k < kRows * kCols; ++k) {
      const int r = (t / 32) * kRows + k / kCols, c = (t % 32) * kCols + k % kCols;
      const size_t o = size_t(t) * kRows * kCols + k;
      const float want = h_a[size_t(r) * kWidth + c] + h_b[o];
      if (h_out[o] != want && bad++ < 5)
        std::fprintf(stderr, "tile %d element %d: %g != %g\n", t, k, h_out[o], want);
    }
  std::printf("merge_add: %d tiles on %d CTAs: %s\n", tiles, ctas, bad ? "MISMATCH" : "ok");
  return bad ? 1 : 0;
}
