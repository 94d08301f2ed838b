// A kernel parameter that holds a TMA descriptor must be __grid_constant__:
// TMA reads the descriptor through its address, and without the attribute
// that is the address of a local copy (on the H200 the TMA unit faults).
// The attribute is found as written, through macros.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>
struct Params { CUtensorMap src; float *dst; int n; };
struct Maps { CUtensorMap maps[2]; int n; };
struct Nested : Params {};
struct Plain { float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tile { float v[32][32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> t) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, i * 32}, s.barrier());
    t.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use(const Params &p, ts::consumer<Tile> t) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    p.dst[int(i)] = s->v[0][0];
    t.release(s);
  }
}
[[ts::kernel(load, use)]] __global__ void copy(const Params p); // expected-error {{kernel parameter 'p' holds a TMA descriptor ('p.src') but is not __grid_constant__}} expected-note {{declare it 'const __grid_constant__ Params p': TMA reads the descriptor through its address}}
[[ts::kernel(load, use)]] __global__ void copy_ok(const __grid_constant__ Params p);
#define GRID_CONST __grid_constant__
[[ts::kernel(load, use)]] __global__ void copy_macro(const GRID_CONST Params p);

[[ts::task(ts::warps(0, 1))]] __device__ void none(const Maps &m) {}
[[ts::kernel(none)]] __global__ void arrays(const Maps m); // expected-error {{kernel parameter 'm' holds a TMA descriptor ('m.maps[]') but is not __grid_constant__}} expected-note {{declare it}}
[[ts::task(ts::warps(0, 1))]] __device__ void base(const Nested &p) {}
[[ts::kernel(base)]] __global__ void inherited(const Nested p); // expected-error {{kernel parameter 'p' holds a TMA descriptor ('p.src')}} expected-note {{declare it}}
[[ts::task(ts::warps(0, 1))]] __device__ void bare(const CUtensorMap &map) {}
[[ts::kernel(bare)]] __global__ void direct(const CUtensorMap map); // expected-error {{kernel parameter 'map' holds a TMA descriptor ('map') but is not __grid_constant__}} expected-note {{declare it}}
[[ts::task(ts::warps(0, 1))]] __device__ void plain(const Plain &p) {}
[[ts::kernel(plain)]] __global__ void no_map(const Plain p);
