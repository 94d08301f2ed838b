// Calls the verifier's walks cannot see into are refused, not trusted: a
// call through a function pointer, and helpers nested deeper than the 8
// levels the walks follow (found by an adversarial corpus, session 30: both
// hid a release before the wgmma reading the stage was waited for). MMAs
// issued inside a lambda the task calls count where the lambda is called.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok
// RUN: %ts_device -fsyntax-only -DLAMBDA_EARLY %s -Xclang -verify=lambda
// RUN: %ts_device -fsyntax-only -DPOINTER %s -Xclang -verify=pointer
// RUN: %ts_device -fsyntax-only -DDEEP %s -Xclang -verify=deep
// ok-no-diagnostics
#include <ts/ts.h>

struct Params { ts::tma::map<__nv_bfloat16, 64, 64> a, b; float *out; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Ops {
  __nv_bfloat16 a[64 * 64];
  __nv_bfloat16 b[64 * 64];
};
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Ops> ops) {
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = ops.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());
    ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());
    ops.commit(s);
  }
}

// h7 -> ... -> h0 -> the MMA: eight levels of helpers, which the walks
// still see; h8 is one too many.
__device__ __forceinline__ void h0(float (&acc)[32], uint64_t a, uint64_t b, bool c) {
  ts::wgmma::mma_bf16(acc, a, b, c);
}
#define LEVEL(N, M)                                                                      \
  __device__ __forceinline__ void h##N(float (&acc)[32], uint64_t a, uint64_t b, bool c) { \
    h##M(acc, a, b, c);                                                                    \
  }
LEVEL(1, 0)
LEVEL(2, 1)
LEVEL(3, 2)
LEVEL(4, 3)
LEVEL(5, 4)
LEVEL(6, 5)
LEVEL(7, 6)
LEVEL(8, 7)

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Out>) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = ops.wait();
    const uint64_t d0 = ts::wgmma::make_desc_sw128(s->a), d1 = ts::wgmma::make_desc_sw128(s->b);
    ts::wgmma::fence();
#if defined(LAMBDA_EARLY)
    auto issue = [&acc](uint64_t x, uint64_t y, bool c) { ts::wgmma::mma_bf16(acc, x, y, c); };
    issue(d0, d1, int(k) > 0); // lambda-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    ops.release(s); // lambda-error {{release of 'Ops' hands back a stage that a wgmma may still be reading}} lambda-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release}}
    ts::wgmma::wait_group<0>();
#elif defined(POINTER)
    void (*fn)(float(&)[32], uint64_t, uint64_t, bool) = h0;
    fn(acc, d0, d1, int(k) > 0); // pointer-error {{task 'mma' calls a function through a pointer, which the verifier cannot follow}} pointer-note {{call the function by name}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ops.release(s);
#elif defined(DEEP)
    h8(acc, d0, d1, int(k) > 0); // deep-error {{task 'mma' reaches helper functions nested more than 8 calls deep here, which the verifier does not follow}} deep-note {{call fewer levels of helpers from the task}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ops.release(s);
#else
    auto issue = [&acc](uint64_t x, uint64_t y, bool c) { ts::wgmma::mma_bf16(acc, x, y, c); };
    issue(d0, d1, int(k) > 0);
    h7(acc, d0, d1, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    ops.release(s);
#endif
  }
  for (int i = 0; i < 32; ++i)
    p.out[(threadIdx.x - 128) * 32 + i] = acc[i];
}

[[ts::kernel(load, mma)]] __global__ void k(const __grid_constant__ Params p);
