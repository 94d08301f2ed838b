// A stage's address kept in an array or a struct (a pointer, a ts::stage
// member, wgmma descriptors) is the stage: its uses after the release are
// errors, and a TMA store from it keeps the release waiting for the store's
// reads. A helper that may write the address into a local through an
// out-parameter is refused. Values copied out of a stage are not the stage.
// Found by an adversarial corpus (session 30): each was verified before.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %ts_device -fsyntax-only -DARRAY %s -Xclang -verify=array
// RUN: %ts_device -fsyntax-only -DSTRUCT %s -Xclang -verify=struct
// RUN: %ts_device -fsyntax-only -DHANDLE %s -Xclang -verify=handle
// RUN: %ts_device -fsyntax-only -DOUT_PARAM %s -Xclang -verify=out
// RUN: %ts_device -fsyntax-only -DDESCRIPTORS %s -Xclang -verify=desc
// ok-no-diagnostics
// array-note@* 0+ {{}} struct-note@* 0+ {{}} handle-note@* 0+ {{}}
#include <ts/ts.h>

struct Params {
  const float *src;
  int n;
  float *out;
  CUtensorMap c;
  ts::tma::map<__nv_bfloat16, 64, 64> a, b;
};
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[128]; };
struct [[ts::resource(ts::gmem)]] Sums {};
struct View { const float *p; };
struct Held { ts::stage<Chunk> st; };
__device__ void row_of(const ts::stage<Chunk> &s, const float *&out) { out = s->v; }

[[ts::task(ts::warps(4, 4))]]
__device__ void load(const Params &p, ts::producer<Chunk> chunks) {
  const int t = threadIdx.x - 128;
  for (auto i : ts::domain(0, p.n)) {
    auto s = chunks.acquire();
    s->v[t] = p.src[int(i) * 128 + t];
    chunks.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void sum(const Params &p, ts::consumer<Chunk> chunks, ts::producer<Sums>) {
  const int t = threadIdx.x;
  float acc = 0;
  for (auto i : ts::domain(0, p.n)) {
    auto s = chunks.wait();
#if defined(ARRAY)
    const float *rows[1] = {s->v};
    chunks.release(s);
    acc += rows[0][t]; // array-error {{stage of 'Chunk' is used after it was released}}
#elif defined(STRUCT)
    View v{s->v};
    chunks.release(s);
    acc += v.p[t]; // struct-error {{stage of 'Chunk' is used after it was released}}
#elif defined(HANDLE)
    Held h{s};
    chunks.release(s);
    acc += h.st->v[t]; // handle-error {{stage of 'Chunk' is used after it was released}}
#elif defined(OUT_PARAM)
    const float *row;
    row_of(s, row); // out-error {{cannot verify: this call may write an address in a stage to 'row', declared elsewhere}} out-note {{return the address from the helper}}
    chunks.release(s);
    acc += row[t];
#else
    const float copied[2] = {s->v[t], s->v[(t + 1) % 128]}; // values, not the stage
    const float *rows[1] = {s->v};
    acc += rows[0][t];
    chunks.release(s);
    acc += copied[0] + copied[1];
#endif
  }
  p.out[blockIdx.x * 128 + t] = acc;
}
[[ts::kernel(load, sum)]] __global__ void k(const __grid_constant__ Params p);

// A TMA store whose source is read from an array keeps the release waiting
// for the store's reads (the default mode, no release_mode argument).
// CHECK: ::rows_out(p, ::ts::detail::param_t<decltype(&::rows_out), 1>(ts_pipe_0, ts_cons_0));
struct [[ts::resource(ts::async_async, ts::stages(2))]] Rows { float v[32 * 32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void rows_in(const Params &p, ts::producer<Rows> r) {
  for (auto t : ts::domain(0, p.n)) {
    auto s = r.acquire();
    for (int j = 0; j < 32; ++j)
      s->v[j * 32 + threadIdx.x % 32] = p.src[int(t) * 1024 + j * 32 + threadIdx.x % 32];
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void rows_out(const Params &p, ts::consumer<Rows> r) {
  for (auto t : ts::domain(0, p.n)) {
    auto s = r.wait();
    float *const src[1] = {s->v};
    ts::tma::store(&p.c, {0, int(t) * 32}, src[0]);
    r.release(s);
  }
}
[[ts::kernel(rows_in, rows_out)]] __global__ void k_store(const __grid_constant__ Params p);

// wgmma descriptors kept in an array describe the stage: the release
// before the MMAs are waited for is an error.
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Ops {
  __nv_bfloat16 a[64 * 64];
  __nv_bfloat16 b[64 * 64];
};
[[ts::task(ts::warps(0, 1))]]
__device__ void ops_in(const Params &p, ts::producer<Ops> ops) {
  for (auto k : ts::domain(0, p.n)) {
    auto s = ops.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());
    ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());
    ops.commit(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Sums>) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.n)) {
    auto s = ops.wait();
    const uint64_t d[2] = {ts::wgmma::make_desc_sw128(s->a), ts::wgmma::make_desc_sw128(s->b)};
    ts::wgmma::fence();
    ts::wgmma::mma_bf16(acc, d[0], d[1], int(k) > 0); // desc-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
#if defined(DESCRIPTORS)
    ops.release(s); // desc-error {{release of 'Ops' hands back a stage that a wgmma may still be reading}} desc-note {{wait with ts::wgmma::wait_group<0>()}}
    ts::wgmma::wait_group<0>();
#else
    ts::wgmma::wait_group<0>();
    ops.release(s);
#endif
  }
  for (int i = 0; i < 32; ++i)
    p.out[(threadIdx.x % 128) * 32 + i] = acc[i];
}
[[ts::kernel(ops_in, mma)]] __global__ void k_mma(const __grid_constant__ Params p);
