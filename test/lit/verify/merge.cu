// ts::merge: TMA and threads fill one ts::tma_umma stage together, the
// reference's FusedMerge group (its Merge waits on one barrier per member;
// the consumer waits for all of them anyway, so libts keeps one). The load
// task's leader arms the bytes of the members its loads name, a thread
// task writes the rest and each of its threads arrives after a proxy
// fence; the full barrier counts the leader and every filling thread, all
// derived by the plan.
// RUN: %ts_device -fsyntax-only -DCLEAN -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DCLEAN -Werror %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '^//' %t.cu > %t.body
// RUN: grep 'param_t<decltype(&::fill_b), 1>' %t.body | grep -c 'fill_mode::threads'
// RUN: grep 'param_t<decltype(&::load_a), 1>' %t.body | not grep fill_mode
// RUN: grep -c 'init_barriers(.*, 4u, 129u); // Ops.full' %t.body
// RUN: %ts_device -fsyntax-only -DCLEAN %s -Xclang -plugin-arg-ts -Xclang -json=%t.json
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// JSON: "name":"Ops","kind":"tma_umma"{{.*}}"full_arrivals":129,"empty_arrivals":1,"armed_by":"load_a","thread_fillers":["fill_b"]}
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DATTRS -Xclang -verify=attrs %s
// ok-no-diagnostics
#include <ts/ts.h>
#include <ts/tensor_map.h>

// CHECK: Ops  tma_umma  stages 4  payload 49152 B  tx 16384 B (armed by 'load_a') (filled by the threads of 'fill_b')  arrivals full 129 / empty 1
// CHECK: verification: PASSED

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a;
  ts::tma::map<__nv_bfloat16, 256, 64> b;
  const __nv_bfloat16 *b_rows; // B as plain rows: the thread task packs it
  float *out;
  int tiles, k_tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(128, 256);

#ifndef ATTRS
#define OPERANDS_BODY                                                          \
  __nv_bfloat16 a[128 * 64];                                                   \
  __nv_bfloat16 b[256 * 64];
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled, ts::merge)]] Ops { OPERANDS_BODY };
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(256))]] Acc {};

/// A by TMA.
#define LOAD_A_TASK(NAME, RES)                                                 \
  [[ts::task(ts::warps(0, 1))]]                                                \
  __device__ void NAME(const Params &p, ts::producer<RES> ops) {               \
    for (auto t : ts::domain(0, p.tiles))                                      \
      for (auto k : ts::domain(0, p.k_tiles).nonempty()) {                     \
        auto s = ops.acquire();                                                \
        ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 128}, s.barrier());   \
        ops.commit(s);                                                         \
      }                                                                        \
  }
/// B by a warpgroup's threads, as the reference's merge GEMM loads one
/// operand with threads (the swizzle left out: a layout, not a protocol).
#define FILL_B_TASK(NAME, RES)                                                 \
  [[ts::task(ts::warps(4, 4))]]                                                \
  __device__ void NAME(const Params &p, ts::producer<RES> ops) {               \
    for (auto t : ts::domain(0, p.tiles))                                      \
      for (auto k : ts::domain(0, p.k_tiles).nonempty()) {                     \
        auto s = ops.acquire();                                                \
        for (int i = threadIdx.x % 128; i < 256 * 64; i += 128)                \
          s->b[i] = p.b_rows[int(k) * 256 * 64 + i];                           \
        ops.commit(s);                                                         \
      }                                                                        \
  }
#define MMA_TASK(NAME, RES)                                                    \
  [[ts::task(ts::warps(1, 1))]]                                                \
  __device__ void NAME(const Params &p, ts::consumer<RES> ops,                 \
                       ts::producer<Acc> acc) {                                \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto a = acc.acquire();                                                  \
      for (auto k : ts::domain(0, p.k_tiles).nonempty()) {                     \
        auto s = ops.wait();                                                   \
        const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);                \
        const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);                \
        for (int kk = 0; kk < 4; ++kk)                                         \
          ts::tcgen05::mma_bf16(a.tmem(), ts::tcgen05::advance_k(da, kk * 32), \
                                ts::tcgen05::advance_k(db, kk * 32), kIdesc,   \
                                int(k) > 0 || kk > 0);                         \
        ops.release(s); /* tcgen05.commit */                                   \
      }                                                                        \
      acc.commit(a);                                                           \
    }                                                                          \
  }
#define EPILOGUE_TASK(NAME)                                                    \
  [[ts::task(ts::warps(8, 4))]]                                                \
  __device__ void NAME(const Params &p, ts::consumer<Acc> acc) {               \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto a = acc.wait();                                                     \
      uint32_t r[8];                                                           \
      ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), threadIdx.x / 32 % 4 * 32, 0)); \
      ts::tcgen05::wait_ld();                                                  \
      p.out[threadIdx.x] = __uint_as_float(r[0]);                              \
      acc.release(a);                                                          \
    }                                                                          \
  }

// --- A by TMA, B by threads, one stage: clean
LOAD_A_TASK(load_a, Ops)
FILL_B_TASK(fill_b, Ops)
MMA_TASK(mma, Ops)
EPILOGUE_TASK(epilogue)
[[ts::kernel(load_a, fill_b, mma, epilogue, ts::target(ts::sm_100a))]]
__global__ void merged(const __grid_constant__ Params p);

#ifndef CLEAN
// --- the same without ts::merge: the thread task arms nothing and loads
// nothing, so the stage it commits never completes
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled)]] Plain { OPERANDS_BODY }; // expected-note {{or, if the task fills the stage with its threads beside the other producers' loads, declare 'Plain' ts::merge}}
LOAD_A_TASK(load_plain, Plain)
FILL_B_TASK(fill_plain, Plain) // expected-error {{stage of 'Plain' is committed without a TMA load}} expected-note {{acquire armed 49152 transaction bytes here}} expected-note {{call ts::tma::load}}
MMA_TASK(mma_plain, Plain)
EPILOGUE_TASK(epilogue_plain)
[[ts::kernel(load_plain, fill_plain, mma_plain, epilogue_plain, ts::target(ts::sm_100a))]]
__global__ void not_merged(const __grid_constant__ Params p);

// --- the TMA loads fill the whole stage: the threads would write bytes the
// loads also write
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled, ts::merge)]] Whole { OPERANDS_BODY }; // expected-note {{in a ts::merge stage the loads and the threads write different members}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_whole(const Params &p, ts::producer<Whole> ops) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 128}, s.barrier());
      ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());
      ops.commit(s);
    }
}
FILL_B_TASK(fill_whole, Whole) // expected-error {{'fill_whole' fills stages of 'Whole' with threads, but its TMA loads fill the whole payload (49152 bytes)}}
MMA_TASK(mma_whole, Whole)
EPILOGUE_TASK(epilogue_whole)
[[ts::kernel(load_whole, fill_whole, mma_whole, epilogue_whole, ts::target(ts::sm_100a))]]
__global__ void loads_everything(const __grid_constant__ Params p);

// --- only threads fill a stage that declares TMA bytes
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled, ts::merge, ts::tx_bytes(16384))]] NoLoads { OPERANDS_BODY }; // expected-error {{ts::tx_bytes(16384) on 'NoLoads', but no producer task loads it with TMA}}
FILL_B_TASK(fill_only, NoLoads) // expected-note {{its producers fill it with threads, which deliver no transaction bytes}}
MMA_TASK(mma_only, NoLoads)
EPILOGUE_TASK(epilogue_only)
[[ts::kernel(fill_only, mma_only, epilogue_only, ts::target(ts::sm_100a))]]
__global__ void threads_only(const __grid_constant__ Params p);

// --- the thread task commits before its last write
LOAD_A_TASK(load_late, Ops)
[[ts::task(ts::warps(4, 4))]]
__device__ void fill_late(const Params &p, ts::producer<Ops> ops) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire(); // expected-note {{a producer of a ts::merge stage loads its members}}
      ops.commit(s); // expected-note {{the stage was committed here}} expected-error {{task 'fill_late' commits a stage of 'Ops' with neither a TMA load nor a write into it}}
      s->b[threadIdx.x % 128] = p.b_rows[int(k)]; // expected-error {{stage of 'Ops' is used after it was committed}} expected-note {{move the use before the commit}}
      // expected-note@-4 {{found with this inner ts::domain loop running 1 time}}
    }
}
MMA_TASK(mma_late, Ops)
EPILOGUE_TASK(epilogue_late)
[[ts::kernel(load_late, fill_late, mma_late, epilogue_late, ts::target(ts::sm_100a))]]
__global__ void written_after_commit(const __grid_constant__ Params p);

// --- the loader forgot its load: it would count as a thread filler that
// writes nothing, and A would never be written
[[ts::task(ts::warps(0, 1))]]
__device__ void load_none(const Params &p, ts::producer<Ops> ops) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire(); // expected-note {{a producer of a ts::merge stage loads its members with TMA (ts::tma::load(..., s.barrier())) or writes them with its threads between acquire and commit}}
      ops.commit(s); // expected-error {{task 'load_none' commits a stage of 'Ops' with neither a TMA load nor a write into it}}
    }
}
FILL_B_TASK(fill_none, Ops)
MMA_TASK(mma_none, Ops)
EPILOGUE_TASK(epilogue_none)
[[ts::kernel(load_none, fill_none, mma_none, epilogue_none, ts::target(ts::sm_100a))]]
__global__ void load_forgotten(const __grid_constant__ Params p);

// --- the TMA task loads A on some paths only
[[ts::task(ts::warps(0, 1))]]
__device__ void load_some(const Params &p, ts::producer<Ops> ops) {
  for (auto t : ts::domain(0, p.tiles))
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.acquire(); // expected-note {{acquire armed 16384 transaction bytes here}}
      if (int(k) % 2 == 0)
        ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 128}, s.barrier()); // expected-error {{TMA load into 'Ops' may be skipped, but its stage is committed anyway}}
      ops.commit(s); // expected-note {{issue the load on every path}}
    }
}
FILL_B_TASK(fill_some, Ops)
MMA_TASK(mma_some, Ops)
EPILOGUE_TASK(epilogue_some)
[[ts::kernel(load_some, fill_some, mma_some, epilogue_some, ts::target(ts::sm_100a))]]
__global__ void load_skipped(const __grid_constant__ Params p);
#endif
#else
struct [[ts::resource(ts::async_async, ts::stages(2), ts::merge)]] Threads { float v[8]; }; // attrs-error {{ts::merge applies only to ts::tma_async and ts::tma_umma resources, not ts::async_async}} attrs-note {{it lets thread tasks fill a TMA stage beside the loads}}
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::merge, ts::multicast)]] Spread { float v[8]; }; // attrs-error {{ts::merge and ts::multicast together are not supported}} attrs-note {{fill the thread-written members in a separate resource}}
struct [[ts::resource(ts::tma_umma, ts::stages(2), ts::merge, ts::merge)]] Twice { float v[8]; }; // attrs-error {{ts::merge is given twice}} attrs-note {{keep one; the first is here}}
#endif
