// Valid kernels whose rewrite used not to compile: a nested namespace
// definition, a noexcept kernel, a kernel declared by a macro or with
// [[using ts: ...]], a parameter named like a CUDA built-in, a parameter
// type spelled by a macro #undef'd later, a name shadowed later in the
// namespace, a byte-order mark, an overloaded kernel name, a resource that
// is a private nested class. Each definition is parsed right after its
// declaration, in the same parse, so each becomes a kernel.
// RUN: %ts_device -S %s -o - | FileCheck %s
// RUN: %host_syntax -fplugin=%plugin -c %s -o %t.o
// RUN: printf '\357\273\277' > %t.bom.cu
// RUN: cat %s >> %t.bom.cu
// RUN: %ts_device -S %t.bom.cu -o - | FileCheck %s
// CHECK-DAG: .entry _ZN1a1b1kE6Params(
// CHECK-DAG: .entry _ZN1a1b7k_macroE6Params(
// CHECK-DAG: .entry _ZN1a1b7k_usingE6Params(
// CHECK-DAG: .entry _Z8overload6Params(
#include <ts/ts.h>
#define PARAMS_T Params
struct Params { float *out; int n; };
namespace a::b {
class Holder {
  struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
  friend struct Access;
};
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const PARAMS_T &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const PARAMS_T &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[0] = s->v[0]; b.release(s); }
}
[[ts::task(ts::warps(0, 1))]]
__device__ void fill_t(const PARAMS_T &threadIdx, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, threadIdx.n)) { auto s = b.acquire(); s->v[0] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain_t(const PARAMS_T &threadIdx, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, threadIdx.n)) { auto s = b.wait(); threadIdx.out[0] = s->v[0]; b.release(s); }
}
[[ts::kernel(fill_t, drain_t)]] __global__ void k(const PARAMS_T threadIdx) noexcept;
#define DECLARE_KERNEL(name) [[ts::kernel(fill, drain)]] __global__ void name(const PARAMS_T p);
DECLARE_KERNEL(k_macro)
[[using ts: kernel(fill, drain)]] __global__ void k_using(const PARAMS_T p);
}
#undef PARAMS_T
class Holder {
  struct [[ts::resource(ts::async_async, ts::stages(2))]] Hidden { float v[32]; };
public:
  using Buf = Hidden;
};
[[ts::task(ts::warps(0, 1))]]
__device__ void put(const Params &p, ts::producer<Holder::Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[threadIdx.x % 32] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get(const Params &p, ts::consumer<Holder::Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[int(i)] = s->v[threadIdx.x % 32]; b.release(s); }
}
__global__ void overload(int);
[[ts::kernel(put, get)]] __global__ void overload(const Params p);
namespace a::b { struct Params { int shadow; }; }
void host(const Params &p, cudaStream_t s) {
  (void)ts::launch<a::b::k>(dim3(1), s, p);
  (void)ts::launch<a::b::k_macro>(dim3(1), s, p);
  (void)ts::launch<a::b::k_using>(dim3(1), s, p);
  (void)ts::launch<static_cast<void (*)(Params)>(overload)>(dim3(1), s, p);
}
