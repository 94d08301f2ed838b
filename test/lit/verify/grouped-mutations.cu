// Bugs planted in examples/gemm_grouped_sm90.cu (a k-loop whose count is
// the tile's group's, different from tile to tile). Each mutant hangs or
// races on the GPU and is a compile error here; `not cmp` proves the edit
// applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings, every count proven.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_grouped_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: protocol: inner loop 1 to 8 times, any count in each tile
//
// The MMA warpgroups take the count of the tile one round later: where the
// groups' K differ, the tasks run different k-steps and one side hangs.
// RUN: sed -e '/^__device__ void mma/,/^}/s|const Tile t = tile_of(p, int(u));|const Tile t = tile_of(p, int(u) + int(gridDim.x));|' %src/examples/gemm_grouped_sm90.cu > %t.next.cu
// RUN: not cmp -s %src/examples/gemm_grouped_sm90.cu %t.next.cu
// RUN: not %ts_device -fsyntax-only %t.next.cu 2>&1 | FileCheck %s --check-prefix=NEXT
// NEXT: error: the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts [-Wts-domain]
// NEXT: note: task 'load' loops over (0, p.k_tiles[t.g], 1)
// NEXT: note: task 'mma' loops over (0, p.k_tiles[t.g], 1)
//
// The producer loads the first group's K for every tile.
// RUN: sed -e '/^__device__ void load/,/^}/s|ts::domain(0, p.k_tiles\[t.g\])|ts::domain(0, p.k_tiles[0])|' %src/examples/gemm_grouped_sm90.cu > %t.first.cu
// RUN: not cmp -s %src/examples/gemm_grouped_sm90.cu %t.first.cu
// RUN: not %ts_device -fsyntax-only %t.first.cu 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: error: the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts [-Wts-domain]
// FIRST: note: task 'load' loops over (0, p.k_tiles[0], 1)
//
// The tile's group changed after it is computed, in the MMA task only.
// RUN: sed -e '/^__device__ void mma/,/^}/s|const Tile t = tile_of(p, int(u));|Tile t = tile_of(p, int(u));\n    t.g = min(t.g + 1, p.groups - 1);|' %src/examples/gemm_grouped_sm90.cu > %t.moved.cu
// RUN: not cmp -s %src/examples/gemm_grouped_sm90.cu %t.moved.cu
// RUN: not %ts_device -fsyntax-only %t.moved.cu 2>&1 | FileCheck %s --check-prefix=MOVED
// MOVED: error: the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts [-Wts-domain]
// MOVED: note: 't' may change here after its declaration, so a bound that reads it matches no other task's; compute it once, in a const local
//
// The stage handed back while the MMAs issued on it may still read it.
// RUN: sed -e '/^      ts::wgmma::wait_group<1>(); \/\/ the previous step/d' %src/examples/gemm_grouped_sm90.cu > %t.early.cu
// RUN: not cmp -s %src/examples/gemm_grouped_sm90.cu %t.early.cu
// RUN: not %ts_device -fsyntax-only %t.early.cu 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: release of 'Operands' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// EARLY: note: the MMA reading the stage is issued here
