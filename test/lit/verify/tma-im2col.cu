// im2col TMA loads (issue 22: an implicit-GEMM convolution's A operand):
// ts::tma::load_im2col delivers its ts::tma::im2col_map's box, Pixels x
// Channels elements, which the verifier checks against the stage's bytes
// as it does a tiled load's box.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DWRONG_RANK -Xclang -verify=rank %s
#include <ts/ts.h>

struct Params {
  ts::tma::im2col_map<__nv_bfloat16, 128, 64> x; // 128 output pixels x 64 channels
  ts::tma::im2col_map<__nv_bfloat16, 64, 64> half;
  int tiles, taps, c_blocks;
};
struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Act {
  __nv_bfloat16 a[128 * 64]; // 16 KiB: one box of x
};

// Filter taps (r, s) of a 3 x 3 filter, then channel blocks: each load
// moves the tap's window of 128 consecutive output pixels (NHWC).
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Act> act) {
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.taps * p.c_blocks)) {
      const int tap = int(k) / p.c_blocks, cb = int(k) % p.c_blocks;
      auto s = act.acquire();
#ifdef WRONG_RANK // a 4-D load takes two offsets (w, h)
      ts::tma::load_im2col(s->a, &p.x, {cb * 64, 0, 0, int(t)}, {uint16_t(tap)}, s.barrier()); // rank-error@ts/tma.h:* {{an im2col load takes one offset per spatial dimension (rank - 2)}} rank-note@ts/tma.h:* {{expression evaluates to '1 == 2'}} rank-note {{in instantiation of}}
#else
      ts::tma::load_im2col(s->a, &p.x, {cb * 64, 0, 0, int(t)},
                           {uint16_t(tap % 3), uint16_t(tap / 3)}, s.barrier());
#endif
      act.commit(s);
    }
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void use(const Params &p, ts::consumer<Act> act) {
  float acc = 0.f;
  for (auto t : ts::domain(0, p.tiles)) {
    for (auto k : ts::domain(0, p.taps * p.c_blocks)) {
      auto s = act.wait();
      acc += __bfloat162float(s->a[threadIdx.x % 128]);
      act.release(s);
    }
  }
}
[[ts::kernel(load, use)]] __global__ void conv_a(const __grid_constant__ Params p);

// A box of half the stage: the consumer would wait for bytes never sent.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Half { // expected-note {{a load delivers its ts::tma::map's box}}
  __nv_bfloat16 a[128 * 64];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void load_half(const Params &p, ts::producer<Half> h) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = h.acquire(); // expected-note {{acquire armed 16384 transaction bytes here}}
    ts::tma::load_im2col(s->a, &p.half, {0, 0, 0, int(t)}, {0, 0}, s.barrier()); // expected-error {{TMA loads into 'Half' deliver 8192 bytes per stage, but its acquire arms 16384 [-Wts-tma-bytes]}}
    h.commit(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void use_half(const Params &p, ts::consumer<Half> h) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = h.wait();
    h.release(s);
  }
}
[[ts::kernel(load_half, use_half)]] __global__ void conv_half(const __grid_constant__ Params p);
