// The canonical split, 1 producer + 2 consumer warp groups at 24/240, fits
// the register file; a producer of one warp gets its warp group padded with
// an idle task at the same budget, reported as a ts-padding warning when -Wts-padding asks (off by default).
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-unknown-warning-option -Wts-padding -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-unknown-warning-option -Wno-ts-padding -Xclang -verify=clean %s
// clean-no-diagnostics
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles { float v[32][32]; };

[[ts::task(ts::warps(0, 4), ts::regs(24))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(4, 8), ts::regs(240))]]
__device__ void math(const Params &p, ts::consumer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i) * 256 + threadIdx.x] = s->v[threadIdx.x / 32 % 32][threadIdx.x % 32];
    tiles.release(s);
  }
}

[[ts::kernel(load, math)]] __global__ void gemm(const __grid_constant__ Params p);

// One producer warp: warps 1..3 of its group are padded at setmaxnreg 24.
[[ts::task(ts::warps(0, 1), ts::regs(24))]]
__device__ void load1(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(4, 8), ts::regs(240))]]
__device__ void math1(const Params &p, ts::consumer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i) * 256 + threadIdx.x] = s->v[threadIdx.x / 32 % 32][threadIdx.x % 32];
    tiles.release(s);
  }
}

[[ts::kernel(load1, math1)]] __global__ void gemm1(const __grid_constant__ Params p); // expected-warning {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 24 [-Wts-padding]}} expected-note {{add a task covering these warps to silence this}}
