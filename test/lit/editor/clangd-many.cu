// Editors: clangd with libts preloaded, three kernel files open at once
// (clangd's default worker count builds them in parallel), then two edited:
// every file gets exactly its own diagnostics, before and after the edits,
// within the stated time.
// REQUIRES: clangd
// RUN: rm -rf %t && mkdir -p %t && cp %S/Inputs/good.cu %S/Inputs/norelease.cu %S/Inputs/deadlock.cu %t/
// RUN: cp %t/good.cu %t/fixed.cu && cp %t/norelease.cu %t/broken.cu
// RUN: printf -- '-xcuda\n-std=c++17\n--cuda-device-only\n--cuda-gpu-arch=sm_90a\n--cuda-path=/usr/local/cuda\n-nocudalib\n-Wno-unknown-cuda-version\n-isystem\n/usr/local/cuda/include/cccl\n-I%src/tools/shim\n-I%src/include\n' > %t/compile_flags.txt
// RUN: env LD_PRELOAD=%preload_plugin python3 %S/lsp.py %clangd %t 120 good.cu norelease.cu deadlock.cu --edit norelease.cu fixed.cu --edit good.cu broken.cu > %t/log
// RUN: FileCheck %s --input-file=%t/log
// CHECK:      good.cu v1: clean
// CHECK-NEXT: norelease.cu v1: 15:16 error Stage of 'Chunk' waited for in the loop is not released in the same iteration [-Wts-bracketing]
// CHECK-NEXT: deadlock.cu v1: 15:16 error Deadlock: task 'consume' blocks forever on wait of 'Chunk' (trip counts produce 8, consume 9) [-Wts-credit]
// CHECK-NEXT: norelease.cu v2: clean
// CHECK-NEXT: good.cu v2: 15:16 error Stage of 'Chunk' waited for in the loop is not released in the same iteration [-Wts-bracketing]
// CHECK-NEXT: all diagnostics within 120 s
