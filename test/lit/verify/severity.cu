// libts reads -W flags for its own checks (clang 19 has no diagnostic groups
// for plugins, so clang itself warns about the unknown names unless
// -Wno-unknown-warning-option): -Wno-error=ts-credit downgrades the deadlock,
// -Wno-ts-credit silences it, and the same flags work as plugin arguments;
// -Werror=ts-padding promotes the padding warning; ts-padding is off unless
// -Wts-padding (or -Werror=ts-padding) turns it on.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Xclang -plugin-arg-ts -Xclang -Wts-padding -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Xclang -plugin-arg-ts -Xclang -Wts-padding -Wno-unknown-warning-option -Wno-error=ts-credit -Xclang -verify=warn %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Xclang -plugin-arg-ts -Xclang -Wts-padding -Xclang -plugin-arg-ts -Xclang -Wno-error=ts-credit -Xclang -verify=warn %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Wno-unknown-warning-option -Wno-ts-credit -Xclang -verify=silent %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -plugin-arg-ts -Xclang -Wno-ts-register-pressure -Wno-unknown-warning-option -Wno-ts-credit -Werror=ts-padding -Xclang -verify=promote %s
// silent-no-diagnostics
#include <ts/ts.h>

struct Params { float *dst; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; }; // expected-note {{'Buf': 2 empty, 0 full stages}} warn-note {{'Buf': 2 empty, 0 full stages}}

// The consumer takes two stages per iteration, the producer fills one: after
// the producer's 4 commits the consumer's fifth wait never gets a stage.
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void fill(const Params &p, ts::producer<Buf> b) { // expected-note {{task 'fill' has finished after committing 4 stages}} warn-note {{task 'fill' has finished after committing 4 stages}}
  for (auto i : ts::domain(0, 4)) {
    auto s = b.acquire(); // expected-note {{trace 11/16: task 'fill' acquire of 'Buf' (iteration 3)}} warn-note {{trace 11/16: task 'fill' acquire of 'Buf' (iteration 3)}}
    s->v[0] = 1.f;
    b.commit(s); // expected-note {{trace 13/16: task 'fill' commit of 'Buf' (iteration 3)}} warn-note {{trace 13/16: task 'fill' commit of 'Buf' (iteration 3)}}
  }
}
[[ts::task(ts::warps(4, 1))]]
__device__ void drain(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, 4)) {
    auto s = b.wait(); // expected-error {{deadlock: task 'drain' blocks forever on wait of 'Buf' (trip count 4) [-Wts-credit]}} expected-note {{every wait on 'Buf' needs a commit from each producer task}} expected-note {{trace 12/16: task 'drain' wait of 'Buf' (iteration 1)}} warn-note {{trace 12/16: task 'drain' wait of 'Buf' (iteration 1)}}
                       // warn-warning@-1 {{deadlock: task 'drain' blocks forever on wait of 'Buf' (trip count 4) [-Wts-credit]}} warn-note@-1 {{every wait on 'Buf' needs a commit from each producer task}}
    p.dst[int(i)] = s->v[0];
    b.release(s); // expected-note {{trace 14/16: task 'drain' release of 'Buf' (iteration 1)}} warn-note {{trace 14/16: task 'drain' release of 'Buf' (iteration 1)}}
    auto t = b.wait(); // expected-note {{trace 15/16: task 'drain' wait of 'Buf' (iteration 1)}} warn-note {{trace 15/16: task 'drain' wait of 'Buf' (iteration 1)}}
    p.dst[int(i) + 4] = t->v[0];
    b.release(t); // expected-note {{trace 16/16: task 'drain' release of 'Buf' (iteration 1)}} warn-note {{trace 16/16: task 'drain' release of 'Buf' (iteration 1)}}
  }
}

// fill runs alone in warp group 0 with a budget: warps 1..3 are padded.
[[ts::kernel(fill, drain)]] __global__ void k(const Params p); // expected-warning {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Wts-padding]}} expected-note {{add a task covering these warps}}
// warn-warning@-1 {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Wts-padding]}} warn-note@-1 {{add a task covering these warps}}
// promote-error@-2 {{warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Werror=ts-padding]}} promote-note@-2 {{add a task covering these warps}}
