// examples/gemm_mxf8_sm100.cu (Blackwell MXFP8, a ts::merge stage): verified
// with no findings, rewritten, and built by nvcc 13 for sm_100a at -O3 and
// -G. The report shows the merged stage: the loader arms A's and B's bytes,
// the scale warp's 32 threads arrive beside it. The PTX holds per k-step
// the two scale copies into tensor memory and four block-scaled MMAs, whose
// instruction descriptors select scale byte 0..3 (idesc_mxf8_e4m3(128,
// 128, kk): 0x08A00000, 0x28A00010, 0x48A00020, 0x68A00030). No Blackwell
// GPU runs it here.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only -Werror %src/examples/gemm_mxf8_sm100.cu -Xclang -plugin-arg-ts -Xclang -report -Xclang -plugin-arg-ts -Xclang -emit=%t.cu | FileCheck %s --check-prefix=REPORT
// REPORT: Operands  tma_umma  stages 5  payload 33792 B  tx 32768 B (armed by 'load') (filled by the threads of 'scales')  arrivals full 33 / empty 1
// REPORT: ScaleCols  task_owned  32 columns of tensor memory, private to its task
// REPORT: verification: PASSED
// RUN: %sm100_nvcc -O3 -c %t.cu -o %t.o
// RUN: %sm100_nvcc -G -cubin %t.cu -o %t.g.cubin
// RUN: %sm100_nvcc -O3 -ptx %t.cu -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry _ZN9gemm_mxf816gemm_mxf8_kernelENS_6ParamsE(
// CHECK: tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [{{.*}}], 512;
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// The scale blocks' descriptors: no swizzle, 128 bytes between 8-row
// groups, version 1 ((8 << 32) | (1 << 46) = 70403103916032).
// CHECK: or.b64 {{.*}}, 70403103916032;
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK: or.b64 {{.*}}, 70403103916032;
// CHECK: tcgen05.cp.cta_group::1.32x128b.warpx4 [%r{{[0-9]+}}], %rd{{[0-9]+}};
// CHECK-COUNT-4: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X [%r{{[0-9]+}}], %rd{{[0-9]+}}, %rd{{[0-9]+}}, %r{{[0-9]+}}, [%r{{[0-9]+}}], [%r{{[0-9]+}}], {{[A-Za-z_]+}};
// CHECK: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64
// CHECK: tcgen05.dealloc.cta_group::1.sync.aligned.b32 {{.*}}, 512;
// The scale warp fences its writes to the async proxy before arriving.
// RUN: grep -c "fence.proxy.async.shared::cta" %t.ptx
// RUN: grep -c 144703488 %t.ptx
// RUN: grep -c 681574416 %t.ptx
// RUN: grep -c 1218445344 %t.ptx
// RUN: grep -c 1755316272 %t.ptx
