// GPU regression test for ts::turns: two consumer warpgroups take turns
// (FA3's ping-pong) on the stages of one pipeline that a producer warp
// fills. While it holds the turn, a consumer appends its position to a
// per-CTA log; the log must alternate 0, 1, 0, 1, ... (the turn orders the
// warpgroups), and each consumer writes its half of every tile, checked
// exactly. A hang here is a turn never handed on. -DNO_TURNS drops the
// turn (the control: the log then need not alternate).
//
//   ./ping_pong [tiles = 4096] [ctas = 132]
#include <ts/ts.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kTile = 256; // floats per stage

struct Params {
  const float *in;
  float *out;    // out[t * kTile + i] = in[t * kTile + i] + 1
  int *log;      // per CTA: positions in the order they held the turn
  int *next;     // per CTA: the next free log entry (zeroed)
  int log_len;   // entries per CTA
  int num_tiles;
};

struct [[ts::resource(ts::async_async, ts::stages(2))]] Tiles { float v[kTile]; };
struct [[ts::resource(ts::turns)]] Mma {};

[[ts::task(ts::warps(0, 4))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.acquire();
    for (int i = threadIdx.x; i < kTile; i += 128)
      s->v[i] = p.in[size_t(t) * kTile + i];
    tiles.commit(s);
  }
}

/// The work a position does while it holds the turn: log itself at the
/// CTA's next free entry, then add one to its half of the tile.
__device__ __forceinline__ void do_half(const Params &p, const Tiles &s, int t, int pos) {
  if (threadIdx.x % 128 == 0)
    p.log[blockIdx.x * p.log_len + atomicAdd(&p.next[blockIdx.x], 1)] = pos;
  const int i = pos * (kTile / 2) + int(threadIdx.x % 128);
  p.out[size_t(t) * kTile + i] = s.v[i] + 1.f;
}

[[ts::task(ts::warps(4, 4))]]
__device__ void first(const Params &p, ts::consumer<Tiles> tiles
#if !defined(NO_TURNS)
                   , ts::turn<Mma, 0> turn
#endif
) {
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
#if !defined(NO_TURNS)
    turn.take();
#endif
    do_half(p, *s, int(t), 0);
    __threadfence(); // the log entry lands before the other takes the turn
#if !defined(NO_TURNS)
    turn.pass();
#endif
    tiles.release(s);
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void second(const Params &p, ts::consumer<Tiles> tiles
#if !defined(NO_TURNS)
                   , ts::turn<Mma, 1> turn
#endif
) {
  for (auto t : ts::domain(blockIdx.x, p.num_tiles, gridDim.x)) {
    auto s = tiles.wait();
#if !defined(NO_TURNS)
    turn.take();
#endif
    do_half(p, *s, int(t), 1);
    __threadfence();
#if !defined(NO_TURNS)
    turn.pass();
#endif
    tiles.release(s);
  }
}

[[ts::kernel(load, first, second)]] __global__ void ping_pong(const __grid_constant__ Params p);

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
  if (tiles < 1 || ctas < 1) {
    std::fprintf(stderr, "usage: %s [tiles >= 1] [ctas >= 1]\n", argv[0]);
    return 2;
  }
  const int per_cta = (tiles + ctas - 1) / ctas, log_len = 2 * per_cta;
  std::vector<float> h_in(size_t(tiles) * kTile), h_out(h_in.size());
  for (size_t i = 0; i < h_in.size(); ++i)
    h_in[i] = float(i % 4096);
  float *in = nullptr, *out = nullptr;
  int *log = nullptr, *next = nullptr;
  CHECK(cudaMalloc(&in, h_in.size() * sizeof(float)));
  CHECK(cudaMalloc(&out, h_in.size() * sizeof(float)));
  CHECK(cudaMalloc(&log, size_t(ctas) * log_len * sizeof(int)));
  CHECK(cudaMalloc(&next, size_t(ctas) * sizeof(int)));
  CHECK(cudaMemset(next, 0, size_t(ctas) * sizeof(int)));
  CHECK(cudaMemcpy(in, h_in.data(), h_in.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(log, 0xff, size_t(ctas) * log_len * sizeof(int)));
  Params p{in, out, log, next, log_len, tiles};
  CHECK(ts::launch<ping_pong>(dim3(ctas), 0, p));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out.data(), out, h_out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<int> h_log(size_t(ctas) * log_len);
  CHECK(cudaMemcpy(h_log.data(), log, h_log.size() * sizeof(int), cudaMemcpyDeviceToHost));
  size_t bad = 0, order = 0;
  for (size_t i = 0; i < h_in.size(); ++i)
    bad += h_out[i] != h_in[i] + 1.f;
  for (int c = 0; c < ctas; ++c) {
    const int mine = c < tiles ? (tiles - c + ctas - 1) / ctas : 0;
    for (int k = 0; k < 2 * mine; ++k)
      order += h_log[size_t(c) * log_len + k] != k % 2;
  }
  std::printf("ping_pong: %d tiles on %d CTAs: %zu wrong elements, %zu log entries out of turn: %s\n",
              tiles, ctas, bad, order, bad || order ? "FAILED" : "ok");
  return bad || order ? 1 : 0;
}
