// Editors: clangd never loads -fplugin, but with libts preloaded it registers
// the attributes and reports libts diagnostics (no rewrite happens there).
// REQUIRES: clangd
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/bad.cu
// RUN: printf -- '-xcuda\n-std=c++17\n--cuda-device-only\n--cuda-gpu-arch=sm_90a\n--cuda-path=/usr/local/cuda\n-nocudalib\n-Wno-unknown-cuda-version\n-isystem\n/usr/local/cuda/include/cccl\n-I%src/tools/shim\n-I%src/include\n' > %t/compile_flags.txt
// RUN: cd %t && not env LD_PRELOAD=%preload_plugin %clangd --check=bad.cu > %t/log 2>&1
// RUN: FileCheck %s --input-file=%t/log
// CHECK: E[{{.*}}] [] Line {{[0-9]+}}: stage of 'Chunk' waited for in the loop is not released in the same iteration [-Wts-bracketing]
// CHECK: All checks completed, 1 errors
#include <ts/ts.h>
struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void produce(const Params &p, ts::producer<Chunk> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.acquire();
    s->v[threadIdx.x % 32] = float(i);
    c.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void consume(const Params &p, ts::consumer<Chunk> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.wait();
    p.out[threadIdx.x % 32] += s->v[threadIdx.x % 32];
  }
}
[[ts::kernel(produce, consume)]] __global__ void k2(const Params p);
