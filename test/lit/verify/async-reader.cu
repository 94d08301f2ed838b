// [[ts::async_reader]] marks a user's own MMA function (raw wgmma PTX, here
// FP8, which ts::wgmma does not wrap): a call to it on a stage is checked
// as a ts::wgmma MMA is, the stage read until a wait_group sees the group
// complete, instead of refused as hidden asynchronous PTX or trusted.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DNOT_A_FUNCTION -Xclang -verify=expected,var %s
// RUN: %ts_device -fsyntax-only -DMISUSE -Xclang -verify=misuse %s
// RUN: %ts_device -fsyntax-only -DHIDDEN -Xclang -verify=hidden %s
// (Syntax errors stop the verification of every kernel: each case apart.)
#include <ts/ts.h>

struct Params { CUtensorMap a; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  unsigned char a[64 * 128];
};

/// D (64 x 8, fp32) += A (64 x 32, e4m3) B^T (8 x 32, e4m3), both from
/// shared memory through descriptors (sm_90a only, as ts::wgmma's).
[[ts::async_reader]] __device__ __forceinline__ void mma_fp8(float (&d)[4], uint64_t da,
                                                             uint64_t db) {
#if LIBTS_HAS_WGMMA
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 "
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(da), "l"(db));
#endif
}

/// The same PTX without the attribute.
__device__ __forceinline__ void mma_fp8_plain(float (&d)[4], uint64_t da, uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 " // hidden-note {{or mark your own MMA function [[ts::async_reader]]}}
               "{%0, %1, %2, %3}, %4, %5, 1, 1, 1;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "l"(da), "l"(db));
}

#define LOAD_TILES(t)                                                     \
  for (auto k : ts::domain(0, p.k_tiles)) {                               \
    auto s = t.acquire();                                                 \
    ts::tma::load(s->a, &p.a, {int(k) * 128, 0}, s.barrier());           \
    t.commit(s);                                                          \
  }

// (a) The usual lag, through the user's MMA: verified for every trip count.
[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<Tile> tiles) {
  float acc[4] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence();
    mma_fp8(acc, d, d);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>();
    if (!k.first())
      tiles.release_oldest();
    if (k.last()) {
      ts::wgmma::wait_group<0>();
      tiles.release(s);
    }
  }
}
[[ts::kernel(load, mma)]] __global__ void lag(const __grid_constant__ Params p);

// (b) Released while the user's MMA may still read the stage.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_b(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void early(const Params &p, ts::consumer<Tile> tiles) {
  float acc[4] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    mma_fp8(acc, d, d); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<1>(); // expected-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running}}
    tiles.release(s); // expected-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}}
  }
}
[[ts::kernel(load_b, early)]] __global__ void early_release(const __grid_constant__ Params p);

// (c) The same PTX in a function without the attribute: refused.
#ifdef HIDDEN
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }

[[ts::task(ts::warps(4, 4))]]
__device__ void hidden(const Params &p, ts::consumer<Tile> tiles) {
  float acc[4] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    mma_fp8_plain(acc, d, d); // hidden-error {{cannot verify: inline assembly issues asynchronous PTX (wgmma, cp.async or tcgen05) in a statement that uses a stage}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    tiles.release(s);
  }
}
[[ts::kernel(load_c, hidden)]] __global__ void hidden_ptx(const __grid_constant__ Params p);
#endif

// (d) Misuse of the attribute.
#ifdef MISUSE
[[ts::async_reader(1)]] __device__ void with_arg(); // misuse-error {{[[ts::async_reader]] takes no arguments}} misuse-note {{write [[ts::async_reader]] alone}}
#ifdef NOT_A_FUNCTION // clang refuses it; the kernels are still verified
[[ts::async_reader]] int not_a_function; // var-error {{'ts::async_reader' attribute only applies to functions}}
#endif
[[ts::task(ts::warps(0, 1)), ts::async_reader]]
__device__ void task_reader(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) } // misuse-error@-1 {{'task_reader' is a [[ts::task]] and cannot be a [[ts::async_reader]]}} misuse-note@-1 {{mark the function the task calls to issue its MMAs}}
#endif
