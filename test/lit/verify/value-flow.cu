// Stage addresses the verifier follows to every use, and the flows it
// refuses because it cannot: an MMA issued in a helper (or a helper's
// helper) reads its stage asynchronously like one in the task body; a
// descriptor or shared address computed from a stage is the stage; an
// address assigned to a variable declared elsewhere, and inline assembly
// issuing asynchronous PTX on a stage, are "cannot verify" errors.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify=hidden -DHIDDEN %s
#include <ts/ts.h>

struct Params { CUtensorMap a; int k_tiles; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 a[64 * 64];
};

#define LOAD_TILES(t)                                                     \
  for (auto k : ts::domain(0, p.k_tiles)) {                               \
    auto s = t.acquire();                                                 \
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());            \
    t.commit(s);                                                          \
  }

__device__ void mma_step(float (&acc)[32], const __nv_bfloat16 *a) {
  const uint64_t d = ts::wgmma::make_desc_sw128(a);
  ts::wgmma::mma_bf16(acc, d, d, true);
}
__device__ void two_steps(float (&acc)[32], const __nv_bfloat16 *a) {
  mma_step(acc, a);
  mma_step(acc, a + 16);
}

// (a) The helper's MMA still reads the stage when it is released.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_a(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }
[[ts::task(ts::warps(4, 4))]]
__device__ void via_helper(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    two_steps(acc, s->a); // expected-note {{the MMA reading the stage is issued here}}
    ts::wgmma::commit_group();
    tiles.release(s); // expected-error {{release of 'Tile' hands back a stage that a wgmma may still be reading}} expected-note {{wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running}}
    ts::wgmma::wait_group<0>();
  }
}
[[ts::kernel(load_a, via_helper)]] __global__ void helper_early(const __grid_constant__ Params p);

// (b) The same helper, waited for before the release: verified.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_b(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }
[[ts::task(ts::warps(4, 4))]]
__device__ void via_helper_ok(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    two_steps(acc, s->a);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    tiles.release(s);
  }
}
[[ts::kernel(load_b, via_helper_ok)]] __global__ void helper_ok(const __grid_constant__ Params p);

// (c) Descriptor arithmetic and a shared-memory address: used after the
// release, they still name the stage.
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }
[[ts::task(ts::warps(4, 4))]]
__device__ void arithmetic(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    const uint64_t d2 = (d | 1) + 2;
    const uint32_t smem = uint32_t(__cvta_generic_to_shared(s->a));
    tiles.release(s); // expected-note 2 {{the stage was released here; another task may now overwrite it}}
    ts::wgmma::mma_bf16(acc, d2, d2, true); // expected-error {{stage of 'Tile' is used after it was released}} expected-note {{move the use before the release}}
    acc[0] += float(smem); // expected-error {{stage of 'Tile' is used after it was released}} expected-note {{move the use before the release}}
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
  }
}
[[ts::kernel(load_c, arithmetic)]] __global__ void descriptor_math(const __grid_constant__ Params p);

#ifdef HIDDEN
// (d) Flows the verifier does not follow are refused (a file of their own:
// a syntax error stops the protocol checks of every kernel).
[[ts::task(ts::warps(0, 1))]]
__device__ void load_d(const Params &p, ts::producer<Tile> t) { LOAD_TILES(t) }
[[ts::task(ts::warps(4, 4))]]
__device__ void hidden(const Params &p, ts::consumer<Tile> tiles) {
  float acc[32] = {};
  uint64_t d = 0;
  const __nv_bfloat16 *base = nullptr;
  for (auto k : ts::domain(0, p.k_tiles)) {
    auto s = tiles.wait();
    d = ts::wgmma::make_desc_sw128(s->a); // hidden-error {{cannot verify: an address in a stage is assigned to 'd', declared elsewhere}} hidden-note {{declare the variable where it is initialised}}
    base = s->a + 64; // hidden-error {{cannot verify: an address in a stage is assigned to 'base', declared elsewhere}} hidden-note {{declare the variable where it is initialised}}
    const uint32_t a = uint32_t(__cvta_generic_to_shared(s->a));
    asm volatile("wgmma.fence.sync.aligned; // %0" ::"r"(a)); // hidden-error {{cannot verify: inline assembly issues asynchronous PTX (wgmma, cp.async or tcgen05) in a statement that uses a stage}} hidden-note {{the verifier cannot see which stage it reads or writes, nor when; use ts::wgmma and ts::tma calls, which it follows}}
    tiles.release(s);
    ts::wgmma::mma_bf16(acc, d, d, true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
  }
}
[[ts::kernel(load_d, hidden)]] __global__ void not_followed(const __grid_constant__ Params p);
#endif
