// Bugs planted in examples/gemm_dynamic_sm90.cu (a tile loop fed by the
// producer warp's atomic counter through the tile queue 'Next'). Each
// mutant hangs or races on the GPU and is a compile error here; `not cmp`
// proves the edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings, for every number of
// tiles a CTA gets.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_dynamic_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: mma {{.*}}consumes Next, Operands  produces -  owns Staging  tiles(next) > domain(0, p.k_tiles, 1).nonempty()
// OK: Next  async_async  stages 2  payload 4 B  arrivals full 32 / empty 256
// OK: protocol: inner loop 1 to {{[0-9]+}} times (bounded{{.*}}); outer loop, at each: every trip count
//
// The MMA warpgroups run the static schedule: their tiles are not the
// ones the producer loads, and the queue fills up.
// RUN: sed -e '/^__device__ void mma/,/^}/s|for (int u : ts::tiles(next)) {|for (auto u : ts::domain(blockIdx.x, p.units, gridDim.x)) {|' %src/examples/gemm_dynamic_sm90.cu > %t.static.cu
// RUN: not cmp -s %src/examples/gemm_dynamic_sm90.cu %t.static.cu
// RUN: not %ts_device -fsyntax-only %t.static.cu 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: error: task 'mma' consumes 'Next' but never waits for a stage [-Wts-roles]
//
// The MMA warpgroups skip a tile by taking a second one from the queue.
// RUN: sed -e 's|^    store_slice(p, acc, mb, nb, wg, out->chunk\[wg\]);|    store_slice(p, acc, mb, nb, wg, out->chunk[wg]);\n    auto skip = next.wait();\n    next.release(skip);|' %src/examples/gemm_dynamic_sm90.cu > %t.extra.cu
// RUN: not cmp -s %src/examples/gemm_dynamic_sm90.cu %t.extra.cu
// RUN: not %ts_device -fsyntax-only %t.extra.cu 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: error: task 'mma' uses tile queue 'Next' outside its ts::tiles loop [-Wts-domain]
//
// A two-warp scheduler: each warp's lane 0 would fetch a tile.
// RUN: sed -e 's|^\[\[ts::task(ts::warps(8, 1), ts::regs(40))\]\]|[[ts::task(ts::warps(8, 2), ts::regs(40))]]|' %src/examples/gemm_dynamic_sm90.cu > %t.wide.cu
// RUN: not cmp -s %src/examples/gemm_dynamic_sm90.cu %t.wide.cu
// RUN: not %ts_device -fsyntax-only %t.wide.cu 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: error: scheduling task 'load' of tile queue 'Next' has 2 warps [-Wts-domain]
//
// The tile's last stage handed back while its MMAs may still read it.
// RUN: sed -e "s|^    ts::wgmma::wait_group<0>(); // the tile's last MMAs, then their stage|    // (no wait)|" %src/examples/gemm_dynamic_sm90.cu > %t.nowait.cu
// RUN: not cmp -s %src/examples/gemm_dynamic_sm90.cu %t.nowait.cu
// RUN: not %ts_device -fsyntax-only %t.nowait.cu 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: release of 'Operands' hands back a stage that a wgmma may still be reading [-Wts-ownership]
