// Bugs planted in examples/gemm_streamk_sm90.cu (a stream-K GEMM whose
// tiles split across CTAs are summed by ts::stream_k::settle). Each mutant
// hangs (an owner waits for a partial sum nobody signals), races (partial
// sums read before the MMAs that write them are done) or stores a wrong
// tile on the GPU, and is a ts-fixup error here; `not cmp` proves the
// edit applied.
//
// The normal build runs these; the sanitized one leaves them out (CI
// time) and verifies the example itself in verify/examples-asan.cu.
// UNSUPPORTED: asan
//
// The example as it stands verifies with no findings, every count proven.
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_streamk_sm90.cu -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=OK
// OK: load  warps [8, 9)  regs 40  consumes -  produces Operands  domain(0, p.sk.segments(), 1) > domain(sg.k_begin, sg.k_end, 1).nonempty()
// OK: verification: PASSED (0 error(s), 0 warning(s))
// OK: protocol: inner loop 1 to 8 times, any count in each tile
//
// Only the owners settle: the other segments never signal, their owners
// wait forever.
// RUN: sed -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    if (sg.k_begin == 0 \&\& p.sk.settle(sg, acc)) {|' %src/examples/gemm_streamk_sm90.cu > %t.owner.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.owner.cu
// RUN: not %ts_device -fsyntax-only %t.owner.cu 2>&1 | FileCheck %s --check-prefix=OWNER
// OWNER: error: settle() of 'p.sk' in task 'mma' is inside a short-circuit '&&', so a segment may settle never or more than once [-Wts-fixup]
// OWNER: note: settle once per iteration of the task's loop 'for (auto i : ts::domain(0, P.segments()))', after the segment's k-loop, as a statement, an if's condition or a local's initializer
//
// Settled in the k-loop's last step: the same position, another shape.
// RUN: sed -e 's|      prev = s;|&\n      if (k.last()) {\n        if (p.sk.settle(sg, acc))\n          acc[0] += 0.f;\n      }|' %src/examples/gemm_streamk_sm90.cu > %t.inner.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.inner.cu
// RUN: not %ts_device -fsyntax-only %t.inner.cu 2>&1 | FileCheck %s --check-prefix=INNER
// INNER: error: settle() of 'p.sk' in task 'mma' is inside the inner ts::domain loop, so a segment may settle never or more than once [-Wts-fixup]
//
// The result ignored: every CTA holding a part of a tile stores it.
// RUN: sed -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    (void)p.sk.settle(sg, acc);\n    {|' %src/examples/gemm_streamk_sm90.cu > %t.discard.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.discard.cu
// RUN: not %ts_device -fsyntax-only %t.discard.cu 2>&1 | FileCheck %s --check-prefix=DISCARD
// DISCARD: error: the result of settle() is not used: the tile would be stored by every CTA holding a part of it [-Wts-fixup]
//
// No settle at all: split tiles are stored half summed.
// RUN: sed -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    {|' %src/examples/gemm_streamk_sm90.cu > %t.none.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.none.cu
// RUN: not %ts_device -fsyntax-only %t.none.cu 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: error: kernel 'gemm_streamk_kernel' runs the segments of 'p.sk' but no task settles them: a tile split across CTAs is never summed [-Wts-fixup]
//
// The next segment settled: its slot is signalled twice, this one never.
// RUN: sed -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    if (p.sk.settle(p.sk.at(int(i) + 1), acc)) {|' %src/examples/gemm_streamk_sm90.cu > %t.other.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.other.cu
// RUN: not %ts_device -fsyntax-only %t.other.cu 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: settle() is not given this iteration's segment [-Wts-fixup]
//
// The same through a copy changed before the call.
// RUN: sed -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    ts::segment next = sg;\n    next.tile += 1;\n    if (p.sk.settle(next, acc)) {|' %src/examples/gemm_streamk_sm90.cu > %t.copy.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.copy.cu
// RUN: not %ts_device -fsyntax-only %t.copy.cu 2>&1 | FileCheck %s --check-prefix=OTHER
//
// Settled before the last MMAs complete: the partial sum misses them.
// RUN: sed -e 's|    ts::wgmma::wait_group<0>(); // the segment.s last MMAs, then their stage|    const bool mine = p.sk.settle(sg, acc);\n&|' -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    if (mine) {|' %src/examples/gemm_streamk_sm90.cu > %t.early.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.early.cu
// RUN: not %ts_device -fsyntax-only %t.early.cu 2>&1 | FileCheck %s --check-prefix=EARLY
// EARLY: error: settle() reads the accumulators while MMAs committed before it may still write them [-Wts-fixup]
// EARLY: note: call ts::wgmma::wait_group<0>() after the segment's k-loop, before settle()
//
// A partition for one warpgroup: the second one's settle traps.
// RUN: sed -e 's|using Split = ts::stream_k<BN / 2, 2>;|using Split = ts::stream_k<BN / 2, 1>;|' %src/examples/gemm_streamk_sm90.cu > %t.wgs.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.wgs.cu
// RUN: not %ts_device -fsyntax-only %t.wgs.cu 2>&1 | FileCheck %s --check-prefix=WGS
// WGS: error: task 'mma' settles from warpgroup 1, but 'p.sk' holds partial sums for 1 warpgroup [-Wts-fixup]
//
// Settled in a helper the verifier cannot follow.
// RUN: sed -e 's|^\[\[ts::task(ts::warps(8, 1), ts::regs(40))\]\]|__device__ bool settled(const Params \&p, const ts::segment \&sg, float (\&acc)[BN / 2]) { return p.sk.settle(sg, acc); }\n\n&|' -e 's|    if (p.sk.settle(sg, acc)) { // this warpgroup holds the whole tile|    if (settled(p, sg, acc)) {|' %src/examples/gemm_streamk_sm90.cu > %t.helper.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.helper.cu
// RUN: not %ts_device -fsyntax-only %t.helper.cu 2>&1 | FileCheck %s --check-prefix=HELPER
// HELPER: error: 'settled' calls 'ts::stream_k<128, 2>::settle', which the verifier cannot follow into a function
//
// The MMA task loops over its own tiles, not the partition's segments.
// RUN: sed -e '/^__device__ void mma/,/^}/s|  for (auto i : ts::domain(0, p.sk.segments())) {|  for (auto i : ts::domain(0, p.sk.ctas())) {|' %src/examples/gemm_streamk_sm90.cu > %t.loop.cu
// RUN: not cmp -s %src/examples/gemm_streamk_sm90.cu %t.loop.cu
// RUN: not %ts_device -fsyntax-only %t.loop.cu 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: error: task 'mma' settles segments of 'p.sk' but its loop does not run that partition's segments [-Wts-fixup]
