// Bugs planted in examples/gemm_residual_sm90.cu (two k-loops per tile: the
// main loop, then the residual epilogue loop). Each mutant hangs or races
// on the GPU and is a compile error here; `not cmp` proves the edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings, both loops proven.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_residual_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: protocol: inner loops 1 to 10 times, 4 times (constant) (each pair its own count)
//
// The residual stage handed back before the epilogue reads it and stores
// from it: the producer may overwrite it.
// RUN: sed -e '/^      res.release(s); \/\/ after the store/d' -e 's|^      add_and_store(p, acc, int(j), mb, nb, wg, s->v);|      res.release(s);\n      add_and_store(p, acc, int(j), mb, nb, wg, s->v);|' %src/examples/gemm_residual_sm90.cu > %t.early.cu
// RUN: not cmp -s %src/examples/gemm_residual_sm90.cu %t.early.cu
// RUN: not %ts_device -fsyntax-only %t.early.cu 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: stage of 'Residual' is used after it was released [-Wts-ownership]
// EARLY: note: found with this inner ts::domain loop running 4 times in each iteration of the loop around it
// EARLY: note: and this one running 1 time
//
// The residual loads issued before the operand loads: the third subtile
// waits for a stage the MMAs only free after the operands they wait for.
// RUN: awk '/^    for \(auto k : ts::domain\(0, p.k_tiles\).nonempty\(\)\) \{ \/\/ K > 0/ && !m { m = 1; hold = 1 } hold { buf = buf $0 "\n"; if ($0 ~ /^    }$/) hold = 0; next } m == 1 && /^      res.commit\(s\);/ { print; getline; print; printf "%%s", buf; m = 2; next } { print }' %src/examples/gemm_residual_sm90.cu > %t.first.cu
// RUN: not cmp -s %src/examples/gemm_residual_sm90.cu %t.first.cu
// RUN: not %ts_device -fsyntax-only %t.first.cu 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: error: deadlock: task 'load' blocks forever on acquire of 'Residual' (trip count 1) [-Wts-credit]
// FIRST: note: task 'mma' is blocked here on wait of 'Operands'
// FIRST: note: found with this inner ts::domain loop running 4 times in each iteration of the loop around it
//
// The epilogue loop of the MMA warpgroups one subtile short: the producer
// fills a fourth stage per tile that nobody takes.
// RUN: sed -e '/^#pragma unroll \/\/ constant subtile/{n;s|ts::domain(0, kSubtiles)|ts::domain(0, kSubtiles - 1)|}' %src/examples/gemm_residual_sm90.cu > %t.short.cu
// RUN: not cmp -s %src/examples/gemm_residual_sm90.cu %t.short.cu
// RUN: not %ts_device -fsyntax-only %t.short.cu 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts [-Wts-domain]
// SHORT: note: task 'load' loops over (0, kSubtiles, 1)
// SHORT: note: task 'mma' loops over (0, kSubtiles - 1, 1)
//
// The residual stage never handed back: the producer waits forever.
// RUN: sed -e '/^      res.release(s); \/\/ after the store/d' %src/examples/gemm_residual_sm90.cu > %t.keep.cu
// RUN: not cmp -s %src/examples/gemm_residual_sm90.cu %t.keep.cu
// RUN: not %ts_device -fsyntax-only %t.keep.cu 2>&1 | FileCheck %s --check-prefix=KEEP
// KEEP: error: stage of 'Residual' waited for in the loop is not released in the same iteration [-Wts-bracketing]
