// ts::fork: one TMA fill of a ts::tma_umma stage feeds consumers of two
// kinds, the reference's Fork group. The MMA task hands the stage back by
// tcgen05.commit (one arrival); a thread task beside it reads the same
// bytes and hands it back by arriving (each thread). The plan derives which
// consumer does which and the empty barrier's count from both. Without
// ts::fork a thread reader of an MMA-consumed stage is an error that names
// the option; a task that both issues MMAs and reads with threads stays
// one (its commit does not wait for the reads).
// RUN: %ts_device -fsyntax-only -DCLEAN -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DCLEAN -Werror %s -Xclang -plugin-arg-ts -Xclang -emit=%t.cu
// RUN: grep -v '^//' %t.cu > %t.body
// RUN: grep 'param_t<decltype(&::mma), 1>' %t.body | grep -c 'release_mode::by_commit'
// RUN: grep 'param_t<decltype(&::rowsum), 1>' %t.body | not grep by_commit
// RUN: %ts_device -fsyntax-only -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DATTRS -Xclang -verify=attrs %s
// ok-no-diagnostics
#include <ts/ts.h>
#include <ts/tensor_map.h>

// CHECK: Ops  tma_umma  stages 4  payload 49152 B  tx 49152 B  arrivals full 1 / empty 129
// CHECK: verification: PASSED

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a;
  ts::tma::map<__nv_bfloat16, 256, 64> b;
  float *out;
  int tiles, k_tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(128, 256);

#ifndef ATTRS
#define OPERANDS_BODY                                                          \
  __nv_bfloat16 a[128 * 64];                                                   \
  __nv_bfloat16 b[256 * 64];
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled, ts::fork)]] Ops { OPERANDS_BODY };
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(256))]] Acc {};

#define LOAD_TASK(NAME, RES)                                                   \
  [[ts::task(ts::warps(0, 1))]]                                                \
  __device__ void NAME(const Params &p, ts::producer<RES> ops) {               \
    for (auto t : ts::domain(0, p.tiles))                                      \
      for (auto k : ts::domain(0, p.k_tiles).nonempty()) {                     \
        auto s = ops.acquire();                                                \
        ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 128}, s.barrier());   \
        ts::tma::load(s->b, &p.b, {int(k) * 64, 0}, s.barrier());              \
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
/// Beside the MMAs: a warpgroup sums each row of the A tile.
#define ROWSUM_TASK(NAME, RES)                                                 \
  [[ts::task(ts::warps(8, 4))]]                                                \
  __device__ void NAME(const Params &p, ts::consumer<RES> ops) {               \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      float sum = 0;                                                           \
      for (auto k : ts::domain(0, p.k_tiles).nonempty()) {                     \
        auto s = ops.wait();                                                   \
        for (int c = 0; c < 64; ++c)                                           \
          sum += __bfloat162float(s->a[(threadIdx.x % 128) * 64 + c]);         \
        ops.release(s); /* each thread arrives */                              \
      }                                                                        \
      p.out[int(t) * 128 + threadIdx.x % 128] = sum;                           \
    }                                                                          \
  }
#define EPILOGUE_TASK(NAME)                                                    \
  [[ts::task(ts::warps(4, 4))]]                                                \
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

// --- one fill, an MMA consumer and a thread consumer: clean
LOAD_TASK(load, Ops)
MMA_TASK(mma, Ops)
ROWSUM_TASK(rowsum, Ops)
EPILOGUE_TASK(epilogue)
[[ts::kernel(load, mma, rowsum, epilogue, ts::target(ts::sm_100a))]]
__global__ void forked(const __grid_constant__ Params p);

#ifndef CLEAN
// --- the same without ts::fork: the thread reader's release would be a
// commit that does not wait for its reads
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled)]] Plain { OPERANDS_BODY }; // expected-note {{declare 'Plain' ts::fork so its thread consumers hand a stage back by arriving}}
LOAD_TASK(load_plain, Plain)
MMA_TASK(mma_plain, Plain)
ROWSUM_TASK(rowsum_plain, Plain) // expected-error {{task 'rowsum_plain' reads a stage of 'Plain' with its threads; the release commits for the MMAs only}} expected-error {{task 'rowsum_plain' hands stages of 'Plain' over by tcgen05.commit on 4 warps}} expected-note {{give the task one warp}}
EPILOGUE_TASK(epilogue_plain)
[[ts::kernel(load_plain, mma_plain, rowsum_plain, epilogue_plain, ts::target(ts::sm_100a))]]
__global__ void not_forked(const __grid_constant__ Params p);

// --- the MMA task also reads the forked stage with its threads: it is
// the stage's MMA consumer, whose release is a commit
LOAD_TASK(load_both, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma_both(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      p.out[threadIdx.x] = __bfloat162float(s->b[threadIdx.x]); // expected-error {{task 'mma_both' reads a stage of 'Ops' with its threads; the release commits for the MMAs only}}
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      ts::tcgen05::mma_bf16(a.tmem(), da, da, kIdesc, int(k) > 0);
      ops.release(s);
    }
    acc.commit(a);
  }
}
ROWSUM_TASK(rowsum_both, Ops)
EPILOGUE_TASK(epilogue_both)
[[ts::kernel(load_both, mma_both, rowsum_both, epilogue_both, ts::target(ts::sm_100a))]]
__global__ void mma_task_reads_too(const __grid_constant__ Params p);
// expected-note@35 {{use a ts::tma_umma stage through ts::tcgen05 MMAs only}}

// --- the thread reader releases the stage before its last read
LOAD_TASK(load_early, Ops)
MMA_TASK(mma_early, Ops)
[[ts::task(ts::warps(8, 4))]]
__device__ void rowsum_early(const Params &p, ts::consumer<Ops> ops) {
  for (auto t : ts::domain(0, p.tiles)) {
    float sum = 0;
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      ops.release(s); // expected-note {{the stage was released here}}
      sum += __bfloat162float(s->a[threadIdx.x % 128]); // expected-error {{stage of 'Ops' is used after it was released}} expected-note {{move the use before the release}}
      // expected-note@-4 {{found with this inner ts::domain loop running 1 time}}
    }
    p.out[int(t) * 128 + threadIdx.x % 128] = sum;
  }
}
EPILOGUE_TASK(epilogue_early)
[[ts::kernel(load_early, mma_early, rowsum_early, epilogue_early, ts::target(ts::sm_100a))]]
__global__ void released_before_read(const __grid_constant__ Params p);
#endif
#else
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::fork)]] ThreadsOnly { float v[8]; }; // attrs-error {{ts::fork applies only to ts::tma_umma and ts::async_umma resources, not ts::tma_async}} attrs-note {{it lets thread tasks read a shared-memory stage beside the MMA task}}
struct [[ts::resource(ts::umma_umma, ts::stages(2), ts::tmem(64), ts::fork)]] Columns {}; // attrs-error {{ts::fork applies only to ts::tma_umma and ts::async_umma resources, not ts::umma_umma}} attrs-note {{it lets thread tasks}}
struct [[ts::resource(ts::tma_umma, ts::stages(2), ts::fork, ts::fork)]] Twice { float v[8]; }; // attrs-error {{ts::fork is given twice}} attrs-note {{keep one; the first is here}}
#endif
