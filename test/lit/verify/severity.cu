// libts reads -W flags for its own checks (clang 19 has no diagnostic groups
// for plugins, so clang itself warns about the unknown names unless
// -Wno-unknown-warning-option): -Wno-error=ts-credit downgrades the deadlock,
// -Wno-ts-credit silences it, and the same flags work as plugin arguments;
// -Werror=ts-padding promotes the padding warning.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-unknown-warning-option -Wno-error=ts-credit -Xclang -verify=warn %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-error=ts-credit -Xclang -verify=warn %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-unknown-warning-option -Wno-ts-credit -Wno-ts-padding -Xclang -verify=silent %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Wno-unknown-warning-option -Wno-ts-credit -Werror=ts-padding -Xclang -verify=promote %s
// silent-no-diagnostics
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; }; // expected-note {{'Buf': 0 empty, 0 full stages}} warn-note {{'Buf': 0 empty, 0 full stages}}

// The consumer releases only on the last of 4 iterations: with 2 stages the
// producer's third acquire never gets a stage.
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, 4)) {
    auto s = b.acquire(); // expected-error {{deadlock: task 'fill' blocks forever on acquire of 'Buf' (trip count 4) [-Wts-credit]}} expected-note {{needs a release from each consumer task}}
                          // warn-warning@-1 {{deadlock: task 'fill' blocks forever on acquire of 'Buf' (trip count 4) [-Wts-credit]}} warn-note@-1 {{needs a release from each consumer task}}
    s->v[0] = 1.f;
    b.commit(s);
  }
}
[[ts::task(ts::warps(4, 1))]]
__device__ void drain(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, 4)) {
    auto s = b.wait(); // expected-note {{task 'drain' is blocked here on wait of 'Buf'}} expected-note {{task 'drain' holds 2 stages of 'Buf' it waited for but never released}}
                       // warn-note@-1 {{task 'drain' is blocked here on wait of 'Buf'}} warn-note@-1 {{task 'drain' holds 2 stages of 'Buf' it waited for but never released}}
    p.dst[int(i)] = s->v[0];
    if (i.last())
      b.release(s); // expected-note {{this release runs only on the last iteration}} warn-note {{this release runs only on the last iteration}}
  }
}

// fill runs alone in warp group 0 with a budget: warps 1..3 are padded.
[[ts::kernel(fill, drain)]] __global__ void k(const Params p); // expected-warning {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Wts-padding]}} expected-note {{add a task covering these warps}}
// warn-warning@-1 {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Wts-padding]}} warn-note@-1 {{add a task covering these warps}}
// promote-error@-2 {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Werror=ts-padding]}} promote-note@-2 {{add a task covering these warps}}
