// The bugs issue 21 names for the attention example, planted in
// examples/attention_sm90.cu itself: each mutant hangs or races on the GPU
// and is a compile error here. Each mutation edits the first consumer task
// (mma0) or the producer; `not cmp` proves the edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/attention_sm90.cu
//
// A missing turn hand-over inside the k-loop: mma1 waits forever.
// RUN: sed '0,/^      turn.pass();/{/^      turn.pass();/d}' %src/examples/attention_sm90.cu > %t.pass.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.pass.cu
// RUN: not %ts_device -fsyntax-only %t.pass.cu 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: error: turn of 'Mma' taken by 'mma0' is not passed on in the same loop body: the next position waits forever [-Wts-turn]
// PASS: note: call pass() after the work the turn orders
// PASS: 1 error generated
//
// The first key block's hand-over missing: the ring's next take comes
// before a pass.
// RUN: sed '0,/^    turn.pass();/{/^    turn.pass();/d}' %src/examples/attention_sm90.cu > %t.firstpass.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.firstpass.cu
// RUN: not %ts_device -fsyntax-only %t.firstpass.cu 2>&1 | FileCheck %s --check-prefix=FIRSTPASS
// FIRSTPASS: error: turn of 'Mma' taken again before it was passed on [-Wts-turn]
// FIRSTPASS: note: it was taken here; pass it on in between
// FIRSTPASS: 1 error generated
//
// Q released right after the first QK^T is issued, while it may still read Q.
// RUN: sed -e '0,/q.release(sq);/{/q.release(sq);/d}' -e '0,/^    ts::wgmma::commit_group();/s|^    ts::wgmma::commit_group();|    ts::wgmma::commit_group();\n    q.release(sq);|' %src/examples/attention_sm90.cu > %t.q.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.q.cu
// RUN: not %ts_device -fsyntax-only %t.q.cu 2>&1 | FileCheck %s --check-prefix=Q
// Q: error: release of 'QTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// Q: note: the MMA reading the stage is issued here
// Q-NEXT: qk(s, qrows, sk->half[0]);
// Q: note: wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running
// Q: note: found with this inner ts::domain loop running 0 times in each iteration of the loop around it
// Q: 1 error generated
//
// Q released under i.last() in the k-loop, and under 'if (nb == 1)' for a
// tile with one key block: a condition libts cannot follow is refused.
// RUN: sed -e '0,/q.release(sq);/{/q.release(sq);/d}' -e '0,/^      ts::wgmma::commit_group();/s|^      ts::wgmma::commit_group();|      ts::wgmma::commit_group();\n      if (i.last()) q.release(sq);|' -e '0,/^    ts::wgmma::commit_group();/s|^    ts::wgmma::commit_group();|    ts::wgmma::commit_group();\n    if (nb == 1) q.release(sq);|' %src/examples/attention_sm90.cu > %t.qif.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.qif.cu
// RUN: not %ts_device -fsyntax-only %t.qif.cu 2>&1 | FileCheck %s --check-prefix=QIF
// QIF: error: pipeline operation 'release' is inside an 'if' other than one 'if (i.first())' / 'if (i.last())' directly in the domain loop, where libts cannot verify it
// QIF: 1 error generated
//
// K released before its QK^T retires: wait_group<2> leaves it pending.
// RUN: sed '0,/wait_group<1>(); \/\/ S done/s/wait_group<1>(); \/\/ S done/wait_group<2>(); \/\/ S done/' %src/examples/attention_sm90.cu > %t.k.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.k.cu
// RUN: not %ts_device -fsyntax-only %t.k.cu 2>&1 | FileCheck %s --check-prefix=K
// K: error: release of 'KTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// K: note: wait with ts::wgmma::wait_group<1>() or a smaller N before the release: 2 groups committed since the read may still be running
// K: note: found with this inner ts::domain loop running 1 time in each iteration of the loop around it
// K: 1 error generated
//
// The first key block's wait_group dropped: its K and the tile's Q (when
// the k-loop runs no time) go back while QK^T may read them.
// RUN: sed '0,/^    ts::wgmma::wait_group<0>();/{/^    ts::wgmma::wait_group<0>();/d}' %src/examples/attention_sm90.cu > %t.first.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.first.cu
// RUN: not %ts_device -fsyntax-only %t.first.cu 2>&1 | FileCheck %s --check-prefix=FIRST
// FIRST: error: release of 'KTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// FIRST: note: wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running
// FIRST: error: release of 'QTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// FIRST: note: found with this inner ts::domain loop running 0 times in each iteration of the loop around it
// FIRST: 2 errors generated
//
// V released before the wait_group<0> that retires its PV.
// RUN: sed '0,/PV done/{/PV done/{N;N;s/^\(.*\)\n\(.*\)\n\(.*\)$/\3\n\1\n\2/}}' %src/examples/attention_sm90.cu > %t.v.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.v.cu
// RUN: not %ts_device -fsyntax-only %t.v.cu 2>&1 | FileCheck %s --check-prefix=V
// V: error: release of 'VTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// V: note: the MMA reading the stage is issued here
// V-NEXT: pv(o, pr, sv->half[0], int(i) > 1);
// V: note: wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running
// V: 1 error generated
//
// The causal bound off by one in the producer (through a local): it loads
// one key block more than the consumers read.
// RUN: sed '0,/ts::domain(1, nb)/s/ts::domain(1, nb)/ts::domain(1, nb + 1)/' %src/examples/attention_sm90.cu > %t.bound.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.bound.cu
// RUN: not %ts_device -fsyntax-only %t.bound.cu 2>&1 | FileCheck %s --check-prefix=BOUND
// BOUND: error: the inner ts::domain loops of tasks 'load' and 'mma0' may run different trip counts [-Wts-domain]
// BOUND: note: task 'load' loops over (1, nb + 1, 1)
// BOUND: error: the inner ts::domain loops of tasks 'load' and 'mma1' may run different trip counts [-Wts-domain]
// BOUND: 2 errors generated
//
// One consumer's bound read from the next tile's count (the local its loop
// bound is): another tile's triangle.
// RUN: sed '0,/const int nb = n_blocks_of(p, tc);/!{0,/const int nb = n_blocks_of(p, tc);/s/n_blocks_of(p, tc)/n_blocks_of(p, tile_coords(p, int(t) + 1))/}' %src/examples/attention_sm90.cu > %t.tile.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.tile.cu
// RUN: not %ts_device -fsyntax-only %t.tile.cu 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: error: the inner ts::domain loops of tasks 'load' and 'mma0' may run different trip counts [-Wts-domain]
// TILE: note: task 'load' loops over (1, nb, 1)
// TILE: note: task 'mma0' loops over (1, nb, 1)
// TILE: note: give both inner loops the same bounds, or bounds apart by a constant (bounds read through local variables are compared by what those variables are computed from)
// TILE: 2 errors generated
//
// One consumer's k-loop not peeled (from 0): one key block more than the
// producer loads.
// RUN: sed '0,/ts::domain(1, nb)/!{0,/ts::domain(1, nb)/s/ts::domain(1, /ts::domain(0, /}' %src/examples/attention_sm90.cu > %t.peel.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.peel.cu
// RUN: not %ts_device -fsyntax-only %t.peel.cu 2>&1 | FileCheck %s --check-prefix=PEEL
// PEEL: error: the inner ts::domain loops of tasks 'load' and 'mma0' may run different trip counts [-Wts-domain]
// PEEL: note: task 'load' loops over (1, nb, 1)
// PEEL: note: task 'mma0' loops over (0, nb, 1)
// PEEL: 2 errors generated
