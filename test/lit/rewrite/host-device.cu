// The host and device jobs of a CUDA compile produce byte-identical
// rewrites, and so do repeated runs and the -fsyntax-only path.
// RUN: %ts_device -O2 -S %s -o %t.ptx -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.device.cu
// RUN: %host_syntax -fplugin=%plugin -S -emit-llvm %s -o %t.ll -Wno-unknown-warning-option -Wno-ts-padding -Xclang -plugin-arg-ts -Xclang -emit=%t.host.cu
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.syntax.cu
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.again.cu
// RUN: cmp %t.device.cu %t.host.cu
// RUN: cmp %t.device.cu %t.syntax.cu
// RUN: cmp %t.syntax.cu %t.again.cu
// RUN: FileCheck %s --input-file=%t.ll
#include <ts/ts.h>

struct Params { const float *in; float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[128]; };

[[ts::task(ts::warps(1, 1), ts::regs(40))]]
__device__ void produce(const Params &p, ts::producer<Chunk> c) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = c.acquire();
    for (int k = threadIdx.x % 32; k < 128; k += 32)
      s->v[k] = p.in[int(i) * 128 + k];
    c.commit(s);
  }
}

[[ts::task(ts::warps(0, 1), ts::regs(40))]]
__device__ void consume(const Params &p, ts::consumer<Chunk> c) {
  float acc = 0;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = c.wait();
    for (int k = threadIdx.x % 32; k < 128; k += 32)
      acc += s->v[k];
    c.release(s);
  }
  atomicAdd(p.out, acc);
}

[[ts::kernel(produce, consume)]] __global__ void reduce(const Params p);

// Host code sees the launch shape at compile time (after the rewrite) and
// launches through the helper, which sets the shared-memory attribute.
#ifdef __LIBTS_GENERATED__
static_assert(ts::kernel_traits<reduce>::threads == 128, "4 warps: 2 tasks + padding");
static_assert(ts::kernel_traits<reduce>::smem_bytes == 2 * 512 + 32 + 112, "stages + barriers + slack");
#endif
cudaError_t run(const Params &p, cudaStream_t s) { return ts::launch<reduce>(dim3(132), s, p); }
// The host job sees the generated kernel (right after its declaration)
// and emits its launch stub.
// CHECK: define {{.*}}@_Z21__device_stub__reduce6Params
// CHECK: define {{.*}}@_Z3runRK6ParamsP11CUstream_st(
// CHECK: define {{.*}}@_ZN2ts6launchITnDaXadL_Z6reduce6ParamsEE
// CHECK: call {{.*}}@cudaFuncSetAttribute(ptr noundef @_Z21__device_stub__reduce6Params, i32 noundef 8, i32 noundef 1168)
