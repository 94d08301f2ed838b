// Calls that every thread of the block (__syncthreads) or of a warp group
// (ts::sync_warpgroup, the ts::wgmma instructions) must make (also
// cooperative_groups' block sync and ts::cluster::sync), in a task
// whose warps are not all of them: bar.sync waits for threads that never
// come (a hang), wgmma is .sync.aligned (an illegal instruction on the
// H200). Helpers are followed. Found by an adversarial corpus (session 30).
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok
// RUN: %ts_device -fsyntax-only -DBLOCK %s -Xclang -verify=block
// RUN: %ts_device -fsyntax-only -DCOOPERATIVE %s -Xclang -verify=coop
// RUN: %ts_device -fsyntax-only -DCLUSTER %s -Xclang -verify=cluster
// RUN: %ts_device -fsyntax-only -DGROUP %s -Xclang -verify=group
// RUN: %ts_device -fsyntax-only -DWGMMA %s -Xclang -verify=wgmma
// RUN: %ts_device -fsyntax-only -DSTRADDLE %s -Xclang -verify=straddle
// ok-no-diagnostics
#include <ts/ts.h>

#include <cooperative_groups.h>

struct Params { ts::tma::map<__nv_bfloat16, 64, 64> a; const float *src; float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[128]; };
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] Tile {
  __nv_bfloat16 a[64 * 64];
};
struct [[ts::resource(ts::gmem)]] Out {};

__device__ void settle() { __syncthreads(); } // block-error {{task 'fill' calls __syncthreads(), which waits for every thread of the block; the other tasks' warps never call it}}

#if defined(GROUP)
[[ts::task(ts::warps(1, 4))]]
#else
[[ts::task(ts::warps(4, 4))]]
#endif
__device__ void fill(const Params &p, ts::producer<Chunk> chunks) { // block-note {{the task runs on warps [4, 8) of the block's [0, 16); use ts::sync_warpgroup() for the threads of a warp group, __syncwarp() for one warp}} group-note {{give the task whole warp groups}} coop-note {{the task runs on warps [4, 8)}} cluster-note {{the task runs on warps [4, 8)}}
  const int t = threadIdx.x % 128;
  for (auto i : ts::domain(0, p.n)) {
    auto s = chunks.acquire();
    s->v[t] = p.src[int(i) * 128 + t];
#if defined(BLOCK)
    settle();
#elif defined(COOPERATIVE) // bar.sync 0 inside the CUDA headers: reported here
    cooperative_groups::this_thread_block().sync(); // coop-error {{task 'fill' calls __barrier_sync(), which waits for every thread of the block}}
#elif defined(CLUSTER) // every thread of every CTA of the cluster
    ts::cluster::sync(); // cluster-error {{task 'fill' calls ts::cluster::sync(), which waits for every thread of the block}}
#else
    ts::sync_warpgroup(); // group-error {{'ts::sync_warpgroup' must be called by every thread of a warp group, but task 'fill' runs on warps [1, 5), not whole warp groups}}
#endif
    chunks.commit(s);
  }
}

[[ts::task(ts::warps(8, 4))]]
__device__ void sum(const Params &p, ts::consumer<Chunk> chunks, ts::producer<Out>) {
  const int t = threadIdx.x % 128;
  float acc = 0;
  for (auto i : ts::domain(0, p.n)) {
    auto s = chunks.wait();
    acc += s->v[t];
    chunks.release(s);
  }
  p.out[blockIdx.x * 128 + t] = acc;
}

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<Tile> tiles) {
  for (auto k : ts::domain(0, p.n)) {
    auto s = tiles.acquire();
    ts::tma::load(s->a, &p.a, {int(k) * 64, 0}, s.barrier());
    tiles.commit(s);
  }
}

#if defined(WGMMA)
[[ts::task(ts::warps(12, 1))]]
#elif defined(STRADDLE)
[[ts::task(ts::warps(14, 4))]]
#else
[[ts::task(ts::warps(12, 4))]]
#endif
__device__ void mma(const Params &p, ts::consumer<Tile> tiles, ts::producer<Out>) { // wgmma-note {{give the task whole warp groups: ts::warps(first, count) with first and count multiples of 4}} straddle-note {{give the task whole warp groups}}
  float acc[32] = {};
  for (auto k : ts::domain(0, p.n)) {
    auto s = tiles.wait();
    const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
    ts::wgmma::fence(); // wgmma-error {{'ts::wgmma::fence' must be called by every thread of a warp group, but task 'mma' runs on warps [12, 13), not whole warp groups}} straddle-error {{'ts::wgmma::fence' must be called by every thread of a warp group, but task 'mma' runs on warps [14, 18), not whole warp groups}}
    for (int kk = 0; kk < 4; ++kk)
      ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(d, kk * 32), ts::wgmma::advance_k(d, kk * 32), true);
    ts::wgmma::commit_group();
    ts::wgmma::wait_group<0>();
    tiles.release(s);
  }
  for (int i = 0; i < 32; ++i)
    p.out[threadIdx.x * 32 + i] = acc[i];
}

[[ts::kernel(fill, sum, load, mma)]] __global__ void k(const __grid_constant__ Params p);

// One task on every warp of the block may call __syncthreads.
[[ts::task(ts::warps(0, 4))]]
__device__ void whole(const Params &p, ts::producer<Out>) {
  for (auto i : ts::domain(0, p.n)) {
    p.out[int(i) * 128 + threadIdx.x] = 1.f;
    __syncthreads();
  }
}
[[ts::kernel(whole)]] __global__ void k_whole(const __grid_constant__ Params p);
