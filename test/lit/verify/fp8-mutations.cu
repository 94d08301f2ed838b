// Bugs planted in examples/gemm_fp8_sm90.cu (FP8 MMAs whose partial sums
// are promoted with per-block scales read from the stage). Each mutant hangs
// or races on the GPU and is a compile error here; `not cmp` proves the
// edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings, every count proven.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_fp8_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: Operands  tma_async  stages 4  payload 41728 B  tx 41728 B  arrivals full 1 / empty 384
// OK: protocol: inner loop 1 to 7 times
//
// The stage handed back while its MMAs may still read it (no wait).
// RUN: sed -e '/^__device__ void mma/,/^}/{/^      ts::wgmma::wait_group<0>();$/d}' %src/examples/gemm_fp8_sm90.cu > %t.nowait.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.nowait.cu
// RUN: not %ts_device -fsyntax-only %t.nowait.cu 2>&1 | FileCheck %s --check-prefix=NOWAIT
// NOWAIT: error: release of 'Operands' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// NOWAIT: note: the MMA reading the stage is issued here
//
// The A scales read after the release: the producer may be refilling them.
// RUN: sed -e '/^      const float s0 = s->sa\[r\]/{h;d;}' -e '/^      ops.release(s);$/G' %src/examples/gemm_fp8_sm90.cu > %t.late.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.late.cu
// RUN: not %ts_device -fsyntax-only %t.late.cu 2>&1 | FileCheck %s --check-prefix=LATE
// LATE: error: stage of 'Operands' is used after it was released [-Wts-ownership]
// LATE: note: the stage was released here; another task may now overwrite it
//
// The same through a pointer taken before the release.
// RUN: sed -e 's|^      const float s0 = s->sa\[r\] \* scale_b, s1 = s->sa\[r + 8\] \* scale_b;|      const float *scales = s->sa;|' -e '/^      ops.release(s);$/a\      const float s0 = scales[r] * scale_b, s1 = scales[r + 8] * scale_b;' %src/examples/gemm_fp8_sm90.cu > %t.alias.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.alias.cu
// RUN: not %ts_device -fsyntax-only %t.alias.cu 2>&1 | FileCheck %s --check-prefix=LATE
//
// The scales never loaded: the stage's barrier waits for 768 bytes forever.
// RUN: sed -e '/^      ts::tma::load(s->sa, &p.sa/d' %src/examples/gemm_fp8_sm90.cu > %t.noscale.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.noscale.cu
// RUN: not %ts_device -fsyntax-only %t.noscale.cu 2>&1 | FileCheck %s --check-prefix=NOSCALE
// NOSCALE: error: stage of 'Operands' is committed without a TMA load into 'sa' [-Wts-tma-bytes]
// NOSCALE: note: acquire armed 41728 transaction bytes here, the whole payload; no load on every path to the commit writes the 768 bytes of 'sa', so consumers of the stage wait forever
//
// A scale box of a third of the tile's rows: 512 bytes short per stage.
// RUN: sed -e 's|  ts::tma::map<float, 1, BM> sa;|  ts::tma::map<float, 1, BM / 3> sa;|' %src/examples/gemm_fp8_sm90.cu > %t.box.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.box.cu
// RUN: not %ts_device -fsyntax-only %t.box.cu 2>&1 | FileCheck %s --check-prefix=BOX
// BOX: error: TMA loads into 'Operands' deliver 41216 bytes per stage, but its acquire arms 41728 [-Wts-tma-bytes]
//
// The MMA warpgroups skip the first k-block: one stage per tile is never
// taken, and the producer runs ahead until it hangs.
// RUN: sed -e '/^__device__ void mma/,/^}/s|ts::domain(0, p.k_tiles).nonempty()|ts::domain(1, p.k_tiles).nonempty()|' %src/examples/gemm_fp8_sm90.cu > %t.skip.cu
// RUN: not cmp -s %src/examples/gemm_fp8_sm90.cu %t.skip.cu
// RUN: not %ts_device -fsyntax-only %t.skip.cu 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: error: the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts [-Wts-domain]
// SKIP: note: task 'mma' loops over (1, p.k_tiles, 1)
