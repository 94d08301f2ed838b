// A kernel with an alias group and PDL ops: the rewrite gives both phases
// one offset, marks the traits `pdl` (ts::launch then sets programmatic
// stream serialization), and the PTX carries griddepcontrol.
// REQUIRES: nvcc
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '// CHECK' %t.cu | FileCheck %s
// RUN: %nvcc -O3 -c %t.cu -o %t.o
// RUN: %nvcc -O3 -ptx %t.cu -o - | FileCheck %s --check-prefix=PTX
// CHECK: kernel_traits<&::k> { static constexpr unsigned smem_bytes = 16720u; static constexpr unsigned threads = 128u; static constexpr bool pdl = true; };
// PTX: griddepcontrol.wait
// PTX: griddepcontrol.launch_dependents
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::async_async, ts::stages(1))]] Staging { float v[64][64]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tiles> t) {
  ts::pdl_wait();
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    t.commit(s);
  }
  ts::pdl_launch_dependents();
}
struct [[ts::resource(ts::async_async, ts::stages(1))]] Sum { float v; };
[[ts::task(ts::warps(1, 1))]]
__device__ void compute(const Params &p, ts::consumer<Tiles> t, ts::producer<Sum> sum) {
  float acc = 0;
  for (auto i : ts::domain(0, p.n)) {
    auto s = t.wait();
    acc += s->v[0][threadIdx.x % 32];
    t.release(s);
  }
  auto o = sum.acquire();
  o->v = acc;
  sum.commit(o);
}
[[ts::task(ts::warps(2, 1))]]
__device__ void epilogue(const Params &p, ts::consumer<Sum> sum, ts::producer<Staging> st) {
  auto a = sum.wait();
  float v = a->v;
  sum.release(a);
  auto o = st.acquire();
  o->v[0][threadIdx.x % 32] = v;
  st.commit(o);
}
[[ts::task(ts::warps(3, 1))]]
__device__ void store(const Params &p, ts::consumer<Staging> st, ts::producer<Out>) {
  auto o = st.wait();
  p.dst[threadIdx.x % 32] = o->v[0][threadIdx.x % 32];
  st.release(o);
}
[[ts::kernel(load, compute, epilogue, store, ts::alias<Tiles, Staging>, ts::grid_dependent<Tiles>)]] __global__ void k(const __grid_constant__ Params p);

void launch(const Params &p, cudaStream_t s) { (void)ts::launch<k>(dim3(1), s, p); }
