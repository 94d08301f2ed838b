// A ring of two consumer warpgroups (ts::turns): the plan gives each
// position a named barrier after id 0 and the ones ts::sync_warpgroup uses
// (three warp groups here: ids 1-3), counting both warpgroups' threads;
// take() syncs on the task's own barrier, pass() arrives on the next one's,
// and the last position gives position 0 its first turn before it runs.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: FileCheck %s --check-prefix=REWRITE --input-file=%t.cu
// RUN: %ts_device -O2 -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %ts_cubin -O0 -c %s -o %t.o
// RUN: %if nvcc %{ %nvcc -O3 -ptx %t.cu -o - | FileCheck %s --check-prefix=PTX %}
// RUN: %if nvcc %{ %nvcc -G -c %t.cu -o %t.g.o %}
#include <ts/ts.h>

struct Params { ts::tma::map<float, 32, 32> src; float *dst; int tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; };
struct [[ts::resource(ts::turns)]] Mma {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<A> a) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.acquire();
    ts::tma::load(s->v, &p.src, {0, int(t) * 32}, s.barrier());
    a.commit(s);
  }
}


[[ts::task(ts::warps(4, 4))]]
__device__ void mma0(const Params &p, ts::consumer<A> a, ts::turn<Mma, 0> turn) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.wait();
    turn.take();
    float x = s->v[0][threadIdx.x % 32];
    turn.pass();
    a.release(s);
    p.dst[int(t) * 64 + threadIdx.x % 32] = x;
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void mma1(const Params &p, ts::consumer<A> a, ts::turn<Mma, 1> turn) {
  for (auto t : ts::domain(blockIdx.x, p.tiles, gridDim.x)) {
    auto s = a.wait();
    turn.take();
    float x = s->v[1][threadIdx.x % 32];
    turn.pass();
    a.release(s);
    p.dst[int(t) * 64 + 32 + threadIdx.x % 32] = x;
  }
}
[[ts::kernel(load, mma0, mma1)]] __global__ void k(const __grid_constant__ Params p);

// REWRITE: ::mma0(p, {{.*}}, ::ts::detail::param_t<decltype(&::mma0), 2>(4u, 256u, 5u, 256u));
// REWRITE: ::ts::detail::first_turn(4u, 256u);
// REWRITE-NEXT: ::mma1(p, {{.*}}, ::ts::detail::param_t<decltype(&::mma1), 2>(5u, 256u, 4u, 256u));
// PTX-DAG: bar.sync {{%r[0-9]+}}, {{%r[0-9]+}};
// PTX-DAG: bar.arrive {{%r[0-9]+}}, {{%r[0-9]+}};
