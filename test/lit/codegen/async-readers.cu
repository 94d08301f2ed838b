// A consumer whose only reads of a stage are wgmma MMAs it awaited before
// the release arrives once per warp, with no fence (an async reader,
// plugin/plan/Plan.cpp). Declaring a pointer into the stage for those MMAs
// (an offset, a cast, an element's address) reads none of its bytes and
// keeps the task an async reader (frontend/AddressOnly.cpp); a load through
// such a pointer, or an address computed from a value loaded from the
// stage, makes it a thread reader: every thread arrives, after a fence.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
#include <ts/ts.h>

using Map = ts::tma::map<__nv_bfloat16, 64, 64>;
struct Params { Map a; int tiles; float *out; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 half[2][64 * 64];
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> q) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = q.acquire();
    ts::tma::load(s->half[0], &p.a, {0, int(t) * 64}, s.barrier());
    ts::tma::load(s->half[1], &p.a, {64, int(t) * 64}, s.barrier());
    q.commit(s);
  }
}

__device__ void mma(float (&acc)[32], const void *a) {
  const uint64_t d = ts::wgmma::make_desc_sw128(a);
  ts::wgmma::mma_bf16(acc, d, d, false);
}

// CHECK: init_barriers({{.*}}, 2u, 4u); // Tile.empty
// CHECK: ::offset(p, ::ts::detail::param_t<decltype(&::offset), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once_unfenced))
[[ts::task(ts::warps(4, 4))]]
__device__ void offset(const Params &p, ts::consumer<Tile> q) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = q.wait();
    const unsigned char *const rows = reinterpret_cast<const unsigned char *>(s->half[0]) + 32 * 128;
    const __nv_bfloat16 *const second = &s->half[1][0];
    ts::wgmma::fence();
    mma(acc, rows);
    mma(acc, second);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ts::wgmma::fence_operand(acc);
    q.release(s);
    p.out[threadIdx.x] = acc[0];
  }
}
[[ts::kernel(load, offset)]] __global__ void k_offset(const __grid_constant__ Params p);

// CHECK: init_barriers({{.*}}, 2u, 128u); // Tile.empty
// CHECK: ::loads(p, ::ts::detail::param_t<decltype(&::loads), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once))
[[ts::task(ts::warps(4, 4))]]
__device__ void loads(const Params &p, ts::consumer<Tile> q) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = q.wait();
    const __nv_bfloat16 *const rows = s->half[0] + 64;
    ts::wgmma::fence();
    mma(acc, rows);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ts::wgmma::fence_operand(acc);
    p.out[threadIdx.x] = acc[0] + float(rows[threadIdx.x]); // a thread read
    q.release(s);
  }
}
[[ts::kernel(load, loads)]] __global__ void k_loads(const __grid_constant__ Params p);

// CHECK: init_barriers({{.*}}, 2u, 128u); // Tile.empty
// CHECK: ::indexed(p, ::ts::detail::param_t<decltype(&::indexed), 1>(ts_pipe_0, ts_cons_0, ::ts::detail::release_mode::at_once))
[[ts::task(ts::warps(4, 4))]]
__device__ void indexed(const Params &p, ts::consumer<Tile> q) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = q.wait();
    const __nv_bfloat16 *const rows = &s->half[0][int(float(s->half[1][0])) * 64]; // a load
    ts::wgmma::fence();
    mma(acc, rows);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ts::wgmma::fence_operand(acc);
    q.release(s);
    p.out[threadIdx.x] = acc[0];
  }
}
[[ts::kernel(load, indexed)]] __global__ void k_indexed(const __grid_constant__ Params p);
