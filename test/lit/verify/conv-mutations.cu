// Bugs planted in examples/conv_sm90.cu (an implicit-GEMM convolution whose
// A tiles are im2col TMA loads). Each mutant hangs on the GPU and is a
// compile error here; `not cmp` proves the edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/conv_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: Operands  tma_async  stages 4  payload 49152 B  tx 49152 B  arrivals full 1 / empty 8
// OK: protocol: inner loop 1 to {{[0-9]+}} times
//
// An im2col box of 64 pixels: each stage gets 8 KiB less than it arms.
// RUN: sed -e 's|ts::tma::im2col_map<__nv_bfloat16, BM, BK> x;|ts::tma::im2col_map<__nv_bfloat16, BM / 2, BK> x;|' %src/examples/conv_sm90.cu > %t.box.cu
// RUN: not cmp -s %src/examples/conv_sm90.cu %t.box.cu
// RUN: not %ts_device -fsyntax-only %t.box.cu 2>&1 | FileCheck %s --check-prefix=BOX
// BOX: error: the branches of an if-else load different bytes or members into 'Operands': a path may deliver fewer bytes than the stage arms [-Wts-tma-bytes]
// BOX: note: acquire armed 49152 transaction bytes here, which every path to the commit must deliver
//
// The same on the swapped path (K <= 128): a filter box of 64 rows.
// RUN: sed -e 's|  ts::tma::map<__nv_bfloat16, BM, BK> w_narrow;|  ts::tma::map<__nv_bfloat16, BM / 2, BK> w_narrow;|' %src/examples/conv_sm90.cu > %t.narrow.cu
// RUN: not cmp -s %src/examples/conv_sm90.cu %t.narrow.cu
// RUN: not %ts_device -fsyntax-only %t.narrow.cu 2>&1 | FileCheck %s --check-prefix=BOX
//
// The filters of the last tap skipped: that stage never completes.
// RUN: sed -e 's|^        ts::tma::load(s->b, &p.w, {int(k) \* BK, nb \* BN}, s.barrier());|        if (tap < R * S - 1)\n          ts::tma::load(s->b, \&p.w, {int(k) * BK, nb * BN}, s.barrier());|' %src/examples/conv_sm90.cu > %t.skip.cu
// RUN: not cmp -s %src/examples/conv_sm90.cu %t.skip.cu
// RUN: not %ts_device -fsyntax-only %t.skip.cu 2>&1 | FileCheck %s --check-prefix=SKIP
// SKIP: error: the branches of an if-else load different bytes or members into 'Operands': a path may deliver fewer bytes than the stage arms [-Wts-tma-bytes]
//
// The stage handed back while the MMAs issued on it may still read it.
// RUN: sed -e '/^      ts::wgmma::wait_group<1>(); \/\/ the previous step/d' %src/examples/conv_sm90.cu > %t.early.cu
// RUN: not cmp -s %src/examples/conv_sm90.cu %t.early.cu
// RUN: not %ts_device -fsyntax-only %t.early.cu 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: release of 'Operands' hands back a stage that a wgmma may still be reading [-Wts-ownership]
