// The bugs issue 21 names for the attention example, planted in
// examples/attention_sm90.cu itself: each mutant hangs or races on the GPU
// and is a compile error here. Each mutation edits the first consumer task
// (mma0) or the producer; `not cmp` proves the edit applied.
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
// The hand-over after the k-loop (the tile's last PV) missing.
// RUN: sed '0,/^    turn.pass();/{/^    turn.pass();/d}' %src/examples/attention_sm90.cu > %t.lastpass.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.lastpass.cu
// RUN: not %ts_device -fsyntax-only %t.lastpass.cu 2>&1 | FileCheck %s --check-prefix=LASTPASS
// LASTPASS: error: turn of 'Mma' taken by 'mma0' is not passed on in the same loop body: the next position waits forever [-Wts-turn]
// LASTPASS: 1 error generated
//
// Q released while the tile's last QK^T may still read it (before its
// wait_group).
// RUN: sed -e '0,/q.release(sq);/{/^      if (i.last())$/d;/q.release(sq);/d}' -e '0,/^      turn.pass();/s|^      turn.pass();|      if (i.last()) q.release(sq);\n      turn.pass();|' %src/examples/attention_sm90.cu > %t.q.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.q.cu
// RUN: not %ts_device -fsyntax-only %t.q.cu 2>&1 | FileCheck %s --check-prefix=Q
// Q: error: release of 'QTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// Q: note: the MMA reading the stage is issued here
// Q-NEXT: qk(s, qrows, sk->lo);
// Q: note: wait with ts::wgmma::wait_group<1>() or a smaller N before the release: 2 groups committed since the read may still be running
// Q: note: found with this inner ts::domain loop running 1 time in each iteration of the loop around it
// Q: 1 error generated
//
// K released before its QK^T retires: wait_group<2> leaves it pending.
// RUN: sed '0,/wait_group<1>(); \/\* S done/s/wait_group<1>(); \/\* S done/wait_group<2>(); \/* S done/' %src/examples/attention_sm90.cu > %t.k.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.k.cu
// RUN: not %ts_device -fsyntax-only %t.k.cu 2>&1 | FileCheck %s --check-prefix=K
// K: error: release of 'KTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// K: note: wait with ts::wgmma::wait_group<1>() or a smaller N before the release: 2 groups committed since the read may still be running
// K: error: release of 'QTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// K: 2 errors generated
//
// The empty second group of the first step dropped: wait_group<1> no longer
// means "QK^T done" there.
// RUN: sed '0,/commit_group(); \/\* empty/{/commit_group(); \/\* empty/d}' %src/examples/attention_sm90.cu > %t.empty.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.empty.cu
// RUN: not %ts_device -fsyntax-only %t.empty.cu 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: error: release of 'KTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// EMPTY: note: wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running
// EMPTY: 2 errors generated
//
// V released before the wait_group<0> that retires its PV.
// RUN: sed '0,/PV done/{/PV done/{N;N;N;s/^\(.*\n.*\)\n\(.*\n.*\)$/\2\n\1/}}' %src/examples/attention_sm90.cu > %t.v.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.v.cu
// RUN: not %ts_device -fsyntax-only %t.v.cu 2>&1 | FileCheck %s --check-prefix=V
// V: error: release of 'VTile' hands back a stage that a wgmma may still be reading [-Wts-ownership]
// V: note: the MMA reading the stage is issued here
// V-NEXT: pv(o, pr, sv->lo, int(i) > 1);
// V: note: wait with ts::wgmma::wait_group<0>() or a smaller N before the release: 1 group committed since the read may still be running
// V: 1 error generated
//
// The causal bound off by one in the producer (through a local): it loads
// one key block more than the consumers read.
// RUN: sed '0,/ts::domain(0, n_blocks_of(p, int(t)))/s/ts::domain(0, n_blocks_of(p, int(t)))/ts::domain(0, nb + 1)/' %src/examples/attention_sm90.cu > %t.bound.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.bound.cu
// RUN: not %ts_device -fsyntax-only %t.bound.cu 2>&1 | FileCheck %s --check-prefix=BOUND
// BOUND: error: the inner ts::domain loops of tasks 'load' and 'mma0' may run different trip counts [-Wts-domain]
// BOUND: note: task 'load' loops over (0, nb + 1, 1)
// BOUND: error: the inner ts::domain loops of tasks 'load' and 'mma1' may run different trip counts [-Wts-domain]
// BOUND: 2 errors generated
//
// One consumer's bound read from the next tile's count (its local and its
// loop both): another tile's triangle.
// RUN: sed '0,/ts::domain(0, n_blocks_of(p, int(t)))/!{0,/ts::domain(0, n_blocks_of(p, int(t)))/s/n_blocks_of(p, int(t))/n_blocks_of(p, int(t) + 1)/}' %src/examples/attention_sm90.cu > %t.tile.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.tile.cu
// RUN: not %ts_device -fsyntax-only %t.tile.cu 2>&1 | FileCheck %s --check-prefix=TILE
// TILE: error: the inner ts::domain loops of tasks 'load' and 'mma0' may run different trip counts [-Wts-domain]
// TILE: note: task 'load' loops over (0, n_blocks_of(p, int(t)), 1)
// TILE: 2 errors generated
