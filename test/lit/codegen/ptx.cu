// Device PTX of a rewritten TMA kernel: barrier init and fences, the TMA
// load armed with its transaction bytes, parity waits, register budgets.
// RUN: %ts_device -O3 -S %s -o %t.ptx -Wno-ts-padding
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=ORDER --input-file=%t.ptx
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };
struct [[ts::resource(ts::tma_async, ts::stages(4))]] Tiles { float v[32][32]; };
struct [[ts::resource(ts::gmem)]] Out {};

[[ts::task(ts::warps(4, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Tiles> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
}

[[ts::task(ts::warps(0, 4), ts::regs(232))]]
__device__ void store(const Params &p, ts::consumer<Tiles> tiles, ts::producer<Out>) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i) * 128 + threadIdx.x] = s->v[threadIdx.x / 32][threadIdx.x % 32];
    tiles.release(s);
  }
}

[[ts::kernel(load, store)]] __global__ void copy(const __grid_constant__ Params p);

// CHECK: .entry _Z4copy6Params(
// CHECK: .maxntid 256, 1, 1
// CHECK-DAG: mbarrier.init.shared.b64
// CHECK-DAG: fence.mbarrier_init.release.cluster
// CHECK-DAG: fence.proxy.async.shared::cta
// CHECK-DAG: bar.sync 0
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 232
// CHECK-DAG: setmaxnreg.dec.sync.aligned.u32 40
// CHECK-DAG: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-DAG: mbarrier.arrive.expect_tx.release.cta.shared::cta.b64
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-DAG: mbarrier.arrive.shared.b64
// No call instructions: the tasks and the runtime are inlined.
// CHECK-NOT: call.uni

// Order inside the producer region (cutlass PR #3654): lower the budget, wait
// for an empty stage, order all lanes, then the elected lane arms the bytes
// and issues the load.
// ORDER: setmaxnreg.dec.sync.aligned.u32 40
// ORDER: mbarrier.try_wait.parity
// ORDER-NOT: mbarrier.arrive.expect_tx
// ORDER: bar.warp.sync
// ORDER: mbarrier.arrive.expect_tx
// ORDER: cp.async.bulk.tensor.2d
