// A TMA store reads shared memory asynchronously: every writer fences its
// writes for the TMA unit (ts::tma::store_fence), a barrier orders them
// before the one thread that issues the store, and the source is written
// again only after that thread waited for the store's reads and a barrier
// told the others. Helpers are followed; a rotation over buffers (j % 2)
// is followed through loops of any trip count.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct __align__(128) Params { CUtensorMap c; int tiles; int chunks; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Rows { float v[32 * 32]; };
struct [[ts::resource(ts::task_owned)]] Out { float one[64 * 32]; float two[2][64 * 32]; };

__device__ __forceinline__ bool issuer() { return threadIdx.x % 128 == 0; }

/// The GEMM's epilogue: two buffers taking turns, one store in flight.
__device__ void store_chunks(const Params &p, int t, float (&bufs)[2][64 * 32]) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    float *buf = bufs[j & 1];
    if (issuer())
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
    buf[threadIdx.x % 128] = float(t + j);
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {j * 32, t * 64}, buf);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void rotating(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    store_chunks(p, int(t), out->two);
}
[[ts::kernel(rotating)]] __global__ void k_rotating(const __grid_constant__ Params p);

// The same with one buffer: wait_store_reads<0> before each rewrite.
[[ts::task(ts::warps(0, 4))]]
__device__ void single(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    out->one[threadIdx.x % 128] = float(t);
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one);
  }
}
[[ts::kernel(single)]] __global__ void k_single(const __grid_constant__ Params p);

// A consumer stores each stage it fills: the release waits for the store's
// reads, and the next stage is another buffer.
[[ts::task(ts::warps(0, 1))]]
__device__ void rows_in(const Params &p, ts::producer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.acquire();
    s->v[threadIdx.x % 32] = float(t);
    r.commit(s);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void rows_out(const Params &p, ts::consumer<Rows> r) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = r.wait();
    s->v[threadIdx.x % 32] += 1.0f;
    ts::tma::store(&p.c, {0, int(t) * 32}, s->v);
    r.release(s);
  }
}
[[ts::kernel(rows_in, rows_out)]] __global__ void k_rows(const __grid_constant__ Params p);

// One warp stores what it wrote itself: ts::tma::store fences for it.
[[ts::task(ts::warps(0, 1))]]
__device__ void one_warp(const Params &p, ts::owned<Out> out) {
  out->one[threadIdx.x % 32] = 1.0f;
  ts::tma::store(&p.c, {0, 0}, out->one);
}
[[ts::kernel(one_warp)]] __global__ void k_one_warp(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 4))]]
__device__ void no_fence(const Params &p, ts::owned<Out> out) {
  out->one[threadIdx.x % 128] = 1.0f; // expected-note {{written here: the TMA unit sees threads' writes only after each writer calls ts::tma::store_fence(); then a barrier, then one thread issues the store}}
  ts::sync_warpgroup();
  if (issuer())
    ts::tma::issue_store(&p.c, {0, 0}, out->one); // expected-error {{the TMA store of 'out->one' reads data threads wrote with no ts::tma::store_fence() after the writes [-Wts-tma-store]}}
}
[[ts::kernel(no_fence)]] __global__ void k_no_fence(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 4))]]
__device__ void no_barrier(const Params &p, ts::owned<Out> out) {
  out->one[threadIdx.x % 128] = 1.0f; // expected-note {{written here by every thread of 'no_barrier': call ts::sync_warpgroup() (a one-warp task: __syncwarp()) between ts::tma::store_fence() and the store}}
  ts::tma::store_fence();
  if (issuer())
    ts::tma::issue_store(&p.c, {0, 0}, out->one); // expected-error {{the TMA store of 'out->one' is issued by one thread, but no barrier orders the other threads' writes before it}}
}
[[ts::kernel(no_barrier)]] __global__ void k_no_barrier(const __grid_constant__ Params p);

// The write hides in a helper, the fence is missing.
__device__ void fill(float *dst, float v) { dst[threadIdx.x % 128] = v; } // expected-note {{written here: the TMA unit}}
[[ts::task(ts::warps(0, 4))]]
__device__ void helper_write(const Params &p, ts::owned<Out> out) {
  fill(out->one, 2.0f);
  ts::sync_warpgroup();
  if (issuer())
    ts::tma::issue_store(&p.c, {0, 0}, out->one); // expected-error {{no ts::tma::store_fence() after the writes}}
}
[[ts::kernel(helper_write)]] __global__ void k_helper_write(const __grid_constant__ Params p);

// One buffer rewritten in the next tile with no wait for the store's reads.
[[ts::task(ts::warps(0, 4))]]
__device__ void no_wait(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    ts::sync_warpgroup();
    out->one[threadIdx.x % 128] = float(t); // expected-error {{'out->one[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it: wait for its reads in the issuing thread (ts::tma::wait_store_reads<N>(), N counting the newer stores still allowed in flight), then a barrier (ts::sync_warpgroup()) before the other threads write}}
  }
}
[[ts::kernel(no_wait)]] __global__ void k_no_wait(const __grid_constant__ Params p);

// wait_store_reads<1> leaves the one store of the one buffer in flight.
[[ts::task(ts::warps(0, 4))]]
__device__ void wait_one(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
    out->one[threadIdx.x % 128] = float(t); // expected-error {{'out->one[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it}}
  }
}
[[ts::kernel(wait_one)]] __global__ void k_wait_one(const __grid_constant__ Params p);

// The issuer waits, but nothing tells the other threads.
[[ts::task(ts::warps(0, 4))]]
__device__ void wait_unshared(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    out->one[threadIdx.x % 128] = float(t); // expected-error {{'out->one[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it}}
  }
}
[[ts::kernel(wait_unshared)]] __global__ void k_wait_unshared(const __grid_constant__ Params p);

// Two buffers by chunk parity, but the chunk count is a runtime value: when
// it is odd, the first chunk of the next tile reuses the buffer of the
// store still in flight.
[[ts::task(ts::warps(0, 4))]]
__device__ void odd_rotation(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    for (int j = 0; j < p.chunks; ++j) {
      if (issuer())
        ts::tma::wait_store_reads<1>();
      ts::sync_warpgroup();
      out->two[j % 2][threadIdx.x % 128] = float(j); // expected-error {{'out->two[j % 2][threadIdx.x % 128]' is written while a TMA store may still be reading it}}
      ts::tma::store_fence();
      ts::sync_warpgroup();
      if (issuer())
        ts::tma::issue_store(&p.c, {j * 32, int(t) * 64}, out->two[j % 2]); // expected-note {{this store reads it}}
    }
}
[[ts::kernel(odd_rotation)]] __global__ void k_odd_rotation(const __grid_constant__ Params p);

// Every warp (or thread) of the task stores the same tile.
[[ts::task(ts::warps(0, 4))]]
__device__ void every_warp(const Params &p, ts::owned<Out> out) {
  out->one[threadIdx.x % 128] = 1.0f;
  ts::tma::store_fence();
  ts::sync_warpgroup();
  ts::tma::store(&p.c, {0, 0}, out->one); // expected-warning {{ts::tma::store is issued by each of the 4 warps of 'every_warp', so 'out->one' is stored that many times [-Wts-repeated-store]}} expected-note {{let one warp store it (under an if that selects one warp), or fence in every writer, synchronize and have one thread call ts::tma::issue_store}}
}
[[ts::kernel(every_warp)]] __global__ void k_every_warp(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 4))]]
__device__ void every_thread(const Params &p, ts::owned<Out> out) {
  out->one[threadIdx.x % 128] = 1.0f;
  ts::tma::store_fence();
  ts::sync_warpgroup();
  ts::tma::issue_store(&p.c, {0, 0}, out->one); // expected-warning {{ts::tma::issue_store is issued by each of the 128 threads of 'every_thread', so 'out->one' is stored that many times}} expected-note {{let one thread issue it (under an if that selects one thread) after a ts::tma::store_fence() in every writer and a barrier}}
}
[[ts::kernel(every_thread)]] __global__ void k_every_thread(const __grid_constant__ Params p);

// A pointer assigned after its declaration may point anywhere: its writes
// count as writes of every buffer, never as none.
[[ts::task(ts::warps(0, 4))]]
__device__ void moved_pointer(const Params &p, ts::owned<Out> out) {
  float *dst;
  dst = out->one;
  dst[threadIdx.x % 128] = 1.0f; // expected-note {{written here through a pointer the analysis does not follow (assigned after its declaration or returned by a call; initialise it once from the buffer to have it followed), so it may be this buffer: the TMA unit sees}}
  ts::sync_warpgroup();
  if (issuer())
    ts::tma::issue_store(&p.c, {0, 0}, out->one); // expected-error {{the TMA store of 'out->one' reads data threads wrote with no ts::tma::store_fence() after the writes}}
}
[[ts::kernel(moved_pointer)]] __global__ void k_moved_pointer(const __grid_constant__ Params p);

// Conditions on a loop counter are evaluated per iteration. Each tile
// drains its stores at the end, so the first two chunks need no wait:
// waiting from the third chunk (j >= 2) on is right, from the fourth
// (j >= 3) the third chunk rewrites the buffer of the first's store.
template <int From>
__device__ void waits_from(const Params &p, int t, float (&bufs)[2][64 * 32]) {
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (issuer() && j >= From)
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
    bufs[j % 2][threadIdx.x % 128] = float(t + j); // expected-error {{'bufs[j % 2][threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {j * 32, t * 64}, bufs[j % 2]); // expected-note {{this store reads it}}
  }
  if (issuer())
    ts::tma::wait_store_reads<0>();
  ts::sync_warpgroup();
}
[[ts::task(ts::warps(0, 4))]]
__device__ void from_third(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    waits_from<2>(p, int(t), out->two);
}
[[ts::kernel(from_third)]] __global__ void k_from_third(const __grid_constant__ Params p);
[[ts::task(ts::warps(0, 4))]]
__device__ void from_fourth(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    waits_from<3>(p, int(t), out->two);
}
[[ts::kernel(from_fourth)]] __global__ void k_from_fourth(const __grid_constant__ Params p);

// A condition the analysis cannot evaluate may hold or not: a block that
// writes, fences, stores and waits under it is fine either way; a wait
// alone under it may be skipped.
[[ts::task(ts::warps(0, 4))]]
__device__ void maybe_block(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles))
    if (p.chunks > int(t)) {
      out->one[threadIdx.x % 128] = float(t);
      ts::tma::store_fence();
      ts::sync_warpgroup();
      if (issuer()) {
        ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one);
        ts::tma::wait_store_reads<0>();
      }
      ts::sync_warpgroup();
    }
}
[[ts::kernel(maybe_block)]] __global__ void k_maybe_block(const __grid_constant__ Params p);

[[ts::task(ts::warps(0, 4))]]
__device__ void maybe_wait(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer() && p.chunks > 1)
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    out->one[threadIdx.x % 128] = float(t); // expected-error {{'out->one[threadIdx.x % 128]' is written while a TMA store may still be reading it}}
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-note {{this store reads it}}
  }
}
[[ts::kernel(maybe_wait)]] __global__ void k_maybe_wait(const __grid_constant__ Params p);

// Writes through a local array of pointers into the buffers (the attention
// example's epilogue writes its two halves so): the array stands for what
// its elements point to. Const elements listed in its initializer name
// their common buffer; unfenced, that is an error like a direct write.
__device__ void halves(float *lo, float *hi, float v) {
  float *const half[2] = {lo, hi};
  for (int g = 0; g < 2; ++g)
    half[g][threadIdx.x % 128] = v; // expected-note {{written here: the TMA unit}}
}
[[ts::task(ts::warps(0, 4))]]
__device__ void via_array(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    halves(out->two[0], out->two[1], float(t));
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->two[0]); // expected-error {{the TMA store of 'out->two[0]' reads data threads wrote with no ts::tma::store_fence() after the writes [-Wts-tma-store]}}
  }
}
[[ts::kernel(via_array)]] __global__ void k_via_array(const __grid_constant__ Params p);

// Elements that may be reassigned may point anywhere: the write may be to
// the store's source, and it is unfenced.
__device__ void halves_mutable(float *lo, float *hi, float v) {
  float *half[2] = {lo, hi};
  if (v > 1.f)
    half[0] = hi;
  half[threadIdx.x % 2][threadIdx.x % 128] = v; // expected-note {{written here through a pointer the analysis does not follow (assigned after its declaration or returned by a call; initialise it once from the buffer to have it followed), so it may be this buffer}}
}
[[ts::task(ts::warps(0, 4))]]
__device__ void via_mutable(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    halves_mutable(out->two[0], out->two[1], float(t));
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->one); // expected-error {{the TMA store of 'out->one' reads data threads wrote with no ts::tma::store_fence() after the writes [-Wts-tma-store]}}
  }
}
[[ts::kernel(via_mutable)]] __global__ void k_via_mutable(const __grid_constant__ Params p);

// Fenced, both are fine.
[[ts::task(ts::warps(0, 4))]]
__device__ void via_array_fenced(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    halves(out->two[0], out->two[1], float(t));
    ts::tma::store_fence();
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->two[0]);
  }
}
[[ts::kernel(via_array_fenced)]] __global__ void k_via_array_fenced(const __grid_constant__ Params p);

// The array reached through a pointer to it, or passed to a helper, still
// stands for what its elements point to.
__device__ void halves_by_pointer(float *lo, float *hi, float v) {
  float *const half[2] = {lo, hi};
  float *const *const pp = half;
  pp[threadIdx.x % 2][threadIdx.x % 128] = v; // expected-note {{written here: the TMA unit}}
}
__device__ void through(float *const *rows, float v) {
  rows[threadIdx.x % 2][threadIdx.x % 128] = v; // expected-note {{written here: the TMA unit}}
}
__device__ void halves_to_helper(float *lo, float *hi, float v) {
  float *const half[2] = {lo, hi};
  through(half, v);
}
[[ts::task(ts::warps(0, 4))]]
__device__ void via_pointer(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    halves_by_pointer(out->two[0], out->two[1], float(t));
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->two[0]); // expected-error {{the TMA store of 'out->two[0]' reads data threads wrote with no ts::tma::store_fence() after the writes [-Wts-tma-store]}}
  }
}
[[ts::kernel(via_pointer)]] __global__ void k_via_pointer(const __grid_constant__ Params p);
[[ts::task(ts::warps(0, 4))]]
__device__ void via_helper(const Params &p, ts::owned<Out> out) {
  for (auto t : ts::domain(0, p.tiles)) {
    if (issuer())
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
    halves_to_helper(out->two[0], out->two[1], float(t));
    ts::sync_warpgroup();
    if (issuer())
      ts::tma::issue_store(&p.c, {0, int(t) * 64}, out->two[0]); // expected-error {{the TMA store of 'out->two[0]' reads data threads wrote with no ts::tma::store_fence() after the writes [-Wts-tma-store]}}
  }
}
[[ts::kernel(via_helper)]] __global__ void k_via_helper(const __grid_constant__ Params p);
