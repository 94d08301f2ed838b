// A CUDA compile runs the plugin in the device job and again in the host job
// that embeds the device binary: the second stays quiet about warnings the
// first already printed (errors would have stopped the build there).
// RUN: %ts_device -fsyntax-only -Wno-unknown-warning-option -Wts-padding %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: touch %t.fatbin
// RUN: %host_syntax -fplugin=%plugin -fsyntax-only -Wno-unknown-warning-option -Wts-padding -Xclang -fcuda-include-gpubinary -Xclang %t.fatbin %s 2>&1 | FileCheck %s --check-prefix=HOST --allow-empty
// RUN: %host_syntax -fplugin=%plugin -fsyntax-only -Wno-unknown-warning-option -Wts-padding %s 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: warning: warps [1, 4) of warp group 0 have no task; padded with an idle task at setmaxnreg 40 [-Wts-padding]
// HOST-NOT: warning
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::gmem)]] Out {};
[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void fill(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(threadIdx.x, p.n, 32))
    p.out[int(i)] = 1.0f;
}
[[ts::kernel(fill)]] __global__ void k(const Params p);
