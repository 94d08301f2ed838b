// The libts GEMM (examples/gemm_sm90.cu) through the plugin, one CTA and a
// 2-CTA cluster: verified with
// no findings (-Werror), its report shows the derived barrier counts, the
// lag and the task-owned epilogue buffers in the layout; the device PTX has
// the TMA loads, the parity waits, the wgmma group discipline and the
// epilogue's warpgroup barriers and TMA stores, and the emitted file
// compiles with nvcc (with and without main, as the benchmark links it).
// RUN: %ts_device -Werror -O3 -S %src/examples/gemm_sm90.cu -o %t.ptx -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.cu | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
// The k-loops are ts::domain(...).nonempty(): an empty one traps.
// RUN: FileCheck %s --check-prefix=TRAP --input-file=%t.ptx
// TRAP: trap;
// REPORT: == libts kernel 'gemm_kernel': 12 warps, 384 threads, 230448 B dynamic shared memory
// REPORT: load  warps [8, 9)  regs 40  consumes -  produces Operands  domain(0, my_units(p), 1) > domain(0, p.k_tiles, 1).nonempty()
// REPORT: mma  warps [0, 8)  regs 232  consumes Operands  produces -  owns Staging  domain(0, my_units(p), 1) > domain(0, p.k_tiles, 1).nonempty()
// REPORT: (padding)  warps [9, 12)  regs 40
// REPORT: Operands  tma_async  stages 4  payload 49152 B  tx 49152 B  arrivals full 1 / empty 8  multicast: a one-CTA cluster, loads stay local
// REPORT: Staging  task_owned  32768 B, private to its task
// REPORT: Operands   release     L  #0.1
// REPORT: Operands        tma_async         4     49152   1024         0    196608
// REPORT-NEXT: Staging         task_owned        1     32768   1024    196608    229376
// REPORT: data 229376 B + barriers 64 B = 229440 B (launch size 230448 B) / capacity 232448 B
// REPORT: verification: PASSED (0 error(s), 0 warning(s))
// REPORT: protocol: inner loop 1 to 8 times (bounded: docs/verifier.md, "Nested domains"); outer loop, at each: every trip count
// PTX: .entry _ZN4gemm11gemm_kernelENS_6ParamsE(
// PTX: setmaxnreg.inc.sync.aligned.u32 232
// PTX: mbarrier.try_wait.parity
// PTX: wgmma.fence.sync.aligned
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned 1
// PTX: mbarrier.arrive
// PTX: cp.async.bulk.wait_group.read 1
// PTX: bar.sync
// PTX: fence.proxy.async.shared::cta
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// PTX: cp.async.bulk.commit_group
// PTX: setmaxnreg.dec.sync.aligned.u32 40
// PTX: mbarrier.arrive.expect_tx
// PTX-COUNT-2: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// The 2-CTA cluster build: derived arrival counts (8 consumer warps x 2
// CTAs), the multicast form of the B load, hand-backs to both CTAs (relaxed:
// the consumers read only through awaited MMAs), cluster-wide syncs.
// RUN: %ts_device -Werror -O3 -S -DGEMM_CLUSTER=2 %src/examples/gemm_sm90.cu -o %t.c2.ptx -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.c2.cu | FileCheck %s --check-prefix=C2
// RUN: FileCheck %s --check-prefix=C2PTX --input-file=%t.c2.ptx
// C2: == libts kernel 'gemm_kernel': 12 warps, 384 threads, 230448 B dynamic shared memory, baseline 168 registers/thread, clusters of 2 CTAs (2x1x1; everything below is per CTA)
// C2: Operands  tma_async  stages 4  payload 49152 B  tx 49152 B  arrivals full 1 / empty 16  multicast: stages filled by all 2 CTAs, released by every consumer warp to each
// C2: verification: PASSED (0 error(s), 0 warning(s))
// C2PTX: .entry _ZN4gemm11gemm_kernelENS_6ParamsE(
// C2PTX: %cluster_nctarank
// C2PTX: barrier.cluster.arrive.release
// C2PTX: barrier.cluster.wait.acquire
// Clang 19 writes PTX 8.5, which has no relaxed arrival: the release form
// (nvcc builds keep the relaxed one: codegen/twins.cu).
// C2PTX: mbarrier.arrive.release.cluster.shared::cluster.b64
// C2PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// C2PTX: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// C2PTX: barrier.cluster.arrive.release
// The mutation "multicast without the peer's arrival": without ts::multicast
// the consumers would hand stages back to their own CTA only.
// RUN: sed 's/ts::swizzled, ts::multicast)/ts::swizzled)/' %src/examples/gemm_sm90.cu > %t.nomc.cu
// RUN: not %ts_device -fsyntax-only -DGEMM_CLUSTER=2 -I %src/examples %t.nomc.cu 2>&1 | FileCheck %s --check-prefix=NOMC
// NOMC: error: TMA multicast into 'Operands', which is not ts::multicast
// NOMC: note: its consumers hand a stage back to their own CTA only
// REQUIRES: nvcc
// RUN: %nvcc -O3 -c %t.cu -o %t.o
// RUN: %nvcc -O3 -DGEMM_NO_MAIN -c %t.cu -o %t.nomain.o
// RUN: %nvcc -O3 -c %t.c2.cu -o %t.c2.o
