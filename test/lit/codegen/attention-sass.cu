// The attention example and its hand-written twin in SASS: nvcc builds
// both, cuobjdump disassembles them, and bench/attention/overlap.py checks
// that each main loop overlaps the softmax with PV (no wgmma wait_group 0
// before the PV issue or between it and the exponentials; ptxas moves or
// inserts one when the k-loop branches between the two MMA groups or when
// P's registers die at the PV issue: include/ts/wgmma.h, keep_live), and
// that K goes back before or early in the softmax at head dim 128 (ptxas
// sank the arrival to its end when the lane test was computed outside the
// asm: include/ts/detail.h, arrive_lane0).
// bench/gemm/sass_diff.py then compares the two kernels: the twin is kept
// in step with the example down to its statement order, and both build to
// the same SASS up to register names, main loops and whole kernels, at
// both head dims. A build of the example without keep_live must fail the
// overlap check.
// REQUIRES: nvcc, cuobjdump
// RUN: %ts_device -fsyntax-only -Werror %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: %nvcc -O3 -DATTN_NO_MAIN -cubin %t.cu -o %t.cubin
// RUN: %cuobjdump -sass %t.cubin > %t.sass
// RUN: python3 %src/bench/attention/overlap.py %t.sass -k attention_kernel --label libts | FileCheck %s --check-prefix=LIBTS
// LIBTS: libts: _ZN4attn16attention_kernelENS_6ParamsE main loop
// LIBTS-NEXT: order: mma x8 @{{.*}}, pv x8 @{{.*}}, ex2 x66 @{{.*}}, wait0 x1 @
// LIBTS-NEXT: verdict: softmax overlaps PV
// LIBTS-NEXT: release after S: {{before the softmax|early}}
// RUN: %nvcc -O3 -DATTN_HAND_LIBRARY -cubin %src/test/gpu/handwritten/attention_sm90_hand.cu -o %t.hand.cubin
// RUN: %cuobjdump -sass %t.hand.cubin > %t.hand.sass
// RUN: python3 %src/bench/attention/overlap.py %t.hand.sass -k ILb1ELb1E --label hand | FileCheck %s --check-prefix=HAND
// HAND: verdict: softmax overlaps PV
// HAND-NEXT: release after S: {{before the softmax|early}}
// RUN: python3 %src/bench/gemm/sass_diff.py %t.hand.sass %t.sass -a ILb1ELb1E -b attention_kernel --label-a hand --label-b libts --whole | FileCheck %s --check-prefix=MIX
// MIX: opcode hand libts libts-hand
// MIX: FFMA 68 68
// MIX-NEXT: FMNMX 68 68
// MIX-NEXT: FMUL 66 66
// MIX-NEXT: MUFU 66 66
// MIX-NEXT: FADD 62 62
// MIX: HGMMA 16 16
// MIX: WARPGROUP 4 4
// MIX: == diff of the normalised main loops
// MIX-NEXT: (none)
// MIX: whole kernels identical up to register names
// MIX: verdict: main loops identical up to register names
// The control: without keep_live ptxas waits for PV before the softmax.
// RUN: sed 's|^      ts::wgmma::keep_live(pr);.*$||' %src/examples/attention_sm90.cu > %t.nokeep.cu
// RUN: not cmp -s %src/examples/attention_sm90.cu %t.nokeep.cu
// RUN: %ts_device -fsyntax-only %t.nokeep.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.nokeep.libts.cu
// RUN: %nvcc -O3 -DATTN_NO_MAIN -cubin %t.nokeep.libts.cu -o %t.nokeep.cubin
// RUN: %cuobjdump -sass %t.nokeep.cubin > %t.nokeep.sass
// RUN: python3 %src/bench/attention/overlap.py %t.nokeep.sass -k attention_kernel | FileCheck %s --check-prefix=NOKEEP
// NOKEEP: verdict: softmax waits for PV (a full wait between the PV issue and the softmax)
// Head dim 64 (QK^T in four k-steps, PV as m64n64k16) overlaps too.
// RUN: %ts_device -fsyntax-only -Werror -DATTN_HEAD_DIM=64 %src/examples/attention_sm90.cu -Xclang -plugin-arg-ts -Xclang -emit=%t.d64.cu
// RUN: %nvcc -O3 -DATTN_NO_MAIN -cubin %t.d64.cu -o %t.d64.cubin
// RUN: %cuobjdump -sass %t.d64.cubin > %t.d64.sass
// RUN: python3 %src/bench/attention/overlap.py %t.d64.sass -k attention_kernel --label d64 | FileCheck %s --check-prefix=D64
// D64: order: mma x4 @{{.*}}, pv x8 @{{.*}}, ex2 x66 @{{.*}}, wait0 x1 @
// D64-NEXT: verdict: softmax overlaps PV
// D64-NEXT: release after S: {{before the softmax|early}}
// RUN: %nvcc -O3 -DATTN_HAND_LIBRARY -DATTN_HEAD_DIM=64 -cubin %src/test/gpu/handwritten/attention_sm90_hand.cu -o %t.hand64.cubin
// RUN: %cuobjdump -sass %t.hand64.cubin > %t.hand64.sass
// RUN: python3 %src/bench/attention/overlap.py %t.hand64.sass -k ILb1ELb1E --label hand64 | FileCheck %s --check-prefix=D64
// RUN: python3 %src/bench/gemm/sass_diff.py %t.hand64.sass %t.d64.sass -a ILb1ELb1E -b attention_kernel --label-a hand --label-b libts --whole | FileCheck %s --check-prefix=MIX64
// MIX64: opcode hand libts libts-hand
// MIX64: FFMA 68 68
// MIX64-NEXT: FMNMX 68 68
// MIX64-NEXT: MUFU 66 66
// MIX64-NEXT: FADD 64 64
// MIX64: FMUL 34 34
// MIX64: HGMMA 12 12
// MIX64: == diff of the normalised main loops
// MIX64-NEXT: (none)
// MIX64: whole kernels identical up to register names
// MIX64: verdict: main loops identical up to register names
