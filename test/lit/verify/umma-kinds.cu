// The other two tcgen05 pipeline kinds (sm_100a): ts::async_umma (threads
// write shared-memory operands, a one-warp task's MMAs read them and hand
// the stage back by tcgen05.commit) and ts::umma_umma (one MMA task's
// commit publishes tensor-memory columns that another MMA task reads as its
// A operand, ts::tcgen05::mma_bf16_ts, and hands back by commit). The
// counts come from the protocol table; every thread access on a side that
// a commit hands over, an MMA on a side that threads hand over, and the
// kinds off sm_100a are errors.
// RUN: %ts_device -fsyntax-only -DCLEAN -Xclang -verify=ok %s -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -DATTRS -Xclang -verify=attrs %s
// ok-no-diagnostics
#include <ts/ts.h>

// CHECK-LABEL: == libts kernel 'chain'
// CHECK: Made  async_umma  stages 2  payload 49152 B  arrivals full 128 / empty 2
// CHECK: Mid  umma_umma  stages 2  payload 0 B  128 columns of tensor memory per stage  arrivals full 1 / empty 1
// CHECK: Acc  umma_async  stages 1  payload 0 B  256 columns of tensor memory per stage  arrivals full 1 / empty 128
// CHECK: [tmem-layout] kernel 'chain'
// CHECK: Mid 256 0 256 2 stages, 128 apart
// CHECK: Acc 256 256 512
// CHECK: verification: PASSED

struct Params {
  const __nv_bfloat16 *src;
  float *out;
  int tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(128, 128);

#ifndef ATTRS
/// Operands the threads of `make` compute (a converted A, a B).
struct [[ts::resource(ts::async_umma, ts::stages(2), ts::swizzled)]] Made {
  __nv_bfloat16 a[128 * 64];
  __nv_bfloat16 b[256 * 64];
};
/// The first product, in tensor memory: the second MMA's A operand.
struct [[ts::resource(ts::umma_umma, ts::stages(2), ts::tmem(128))]] Mid {};
/// The second product, read by the epilogue.
struct [[ts::resource(ts::umma_async, ts::stages(1), ts::tmem(256))]] Acc {};

#define MAKE_TASK(NAME)                                                        \
  [[ts::task(ts::warps(4, 4))]]                                                \
  __device__ void NAME(const Params &p, ts::producer<Made> made) {             \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto s = made.acquire();                                                 \
      for (int i = threadIdx.x % 128; i < 128 * 64; i += 128)                  \
        s->a[i] = p.src[i];                                                    \
      for (int i = threadIdx.x % 128; i < 256 * 64; i += 128)                  \
        s->b[i] = p.src[i];                                                    \
      made.commit(s); /* each thread: proxy fence, arrive */                   \
    }                                                                          \
  }
/// Mid = A * B: four k16 MMAs from the stage.
#define FIRST_MMAS(S, M)                                                       \
  {                                                                            \
    const uint64_t da = ts::tcgen05::make_desc_sw128((S)->a);                  \
    const uint64_t db = ts::tcgen05::make_desc_sw128((S)->b);                  \
    for (int kk = 0; kk < 4; ++kk)                                             \
      ts::tcgen05::mma_bf16((M).tmem(), ts::tcgen05::advance_k(da, kk * 32),   \
                            ts::tcgen05::advance_k(db, kk * 32), kIdesc,       \
                            kk > 0);                                           \
  }
#define FIRST_TASK(NAME, WARPS)                                                \
  [[ts::task(ts::warps(0, WARPS))]]                                            \
  __device__ void NAME(const Params &p, ts::consumer<Made> made,               \
                       ts::producer<Mid> mid) {                                \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto s = made.wait();                                                    \
      auto m = mid.acquire();                                                  \
      FIRST_MMAS(s, m)                                                         \
      mid.commit(m);    /* tcgen05.commit: full once the MMAs are done */      \
      made.release(s);  /* tcgen05.commit: empty once they have read it */     \
    }                                                                          \
  }
/// Acc = Mid * B: A from tensor memory.
#define SECOND_TASK(NAME, WARP)                                                \
  [[ts::task(ts::warps(WARP, 1))]]                                             \
  __device__ void NAME(const Params &p, ts::consumer<Made> made,               \
                       ts::consumer<Mid> mid, ts::producer<Acc> acc) {         \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto s = made.wait();                                                    \
      auto m = mid.wait();                                                     \
      auto a = acc.acquire();                                                  \
      const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);                  \
      for (int kk = 0; kk < 4; ++kk)                                           \
        ts::tcgen05::mma_bf16_ts(a.tmem(), m.tmem() + kk * 8,                  \
                                 ts::tcgen05::advance_k(db, kk * 32), kIdesc,  \
                                 kk > 0);                                      \
      acc.commit(a);                                                           \
      mid.release(m);                                                          \
      made.release(s);                                                         \
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

// --- the clean chain: threads -> MMA -> tensor memory -> MMA -> epilogue
MAKE_TASK(make)
FIRST_TASK(first, 1)
SECOND_TASK(second, 1)
EPILOGUE_TASK(epilogue)
[[ts::kernel(make, first, second, epilogue, ts::target(ts::sm_100a))]]
__global__ void chain(const __grid_constant__ Params p);

#ifndef CLEAN
// --- the second MMA task reads the tensor-memory stage with its threads:
// its release commits for the MMAs only
MAKE_TASK(make_peek)
FIRST_TASK(first_peek, 1)
[[ts::task(ts::warps(1, 1))]]
__device__ void second_peek(const Params &p, ts::consumer<Made> made, ts::consumer<Mid> mid,
                            ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = made.wait();
    auto m = mid.wait();
    auto a = acc.acquire();
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, m.tmem()); // expected-error {{task 'second_peek' reads a stage of 'Mid' with its threads; the release commits for the MMAs only and does not wait for those reads}}
    const uint64_t db = ts::tcgen05::make_desc_sw128(s->b);
    ts::tcgen05::mma_bf16_ts(a.tmem(), m.tmem(), db, kIdesc, r[0] != 0);
    acc.commit(a);
    mid.release(m);
    made.release(s);
  }
}
EPILOGUE_TASK(epilogue_peek)
[[ts::kernel(make_peek, first_peek, second_peek, epilogue_peek, ts::target(ts::sm_100a))]]
__global__ void mid_read_by_threads(const __grid_constant__ Params p);

// --- the first MMA task reads the threads' operands itself
MAKE_TASK(make_look)
[[ts::task(ts::warps(0, 1))]]
__device__ void first_look(const Params &p, ts::consumer<Made> made, ts::producer<Mid> mid) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = made.wait();
    auto m = mid.acquire();
    p.out[threadIdx.x] = __bfloat162float(s->a[threadIdx.x]); // expected-error {{task 'first_look' reads a stage of 'Made' with its threads; the release commits for the MMAs only}}
    FIRST_MMAS(s, m)
    mid.commit(m);
    made.release(s);
  }
}
SECOND_TASK(second_look, 1)
EPILOGUE_TASK(epilogue_look)
[[ts::kernel(make_look, first_look, second_look, epilogue_look, ts::target(ts::sm_100a))]]
__global__ void made_read_by_threads(const __grid_constant__ Params p);

// --- the first MMA task loads its product back with its threads before
// the commit: the commit does not wait for those loads
MAKE_TASK(make_back)
[[ts::task(ts::warps(0, 1))]]
__device__ void first_back(const Params &p, ts::consumer<Made> made, ts::producer<Mid> mid) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = made.wait();
    auto m = mid.acquire();
    FIRST_MMAS(s, m)
    uint32_t r[8];
    ts::tcgen05::ld_32x32b_x8(r, m.tmem()); // expected-error {{task 'first_back' accesses a stage of 'Mid' with its threads; the commit covers the MMAs only and does not wait for those accesses}}
    p.out[threadIdx.x] = __uint_as_float(r[0]);
    mid.commit(m);
    made.release(s);
  }
}
SECOND_TASK(second_back, 1)
EPILOGUE_TASK(epilogue_back)
[[ts::kernel(make_back, first_back, second_back, epilogue_back, ts::target(ts::sm_100a))]]
__global__ void mid_loaded_by_its_producer(const __grid_constant__ Params p);

// --- the epilogue issues an MMA into the accumulator it consumes: its
// release is a thread arrive that does not wait for it
MAKE_TASK(make_epi)
FIRST_TASK(first_epi, 1)
SECOND_TASK(second_epi, 1)
[[ts::task(ts::warps(8, 4))]]
__device__ void epilogue_epi(const Params &p, ts::consumer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.wait();
    ts::tcgen05::mma_bf16(a.tmem(), 0, 0, kIdesc, true); // expected-error {{a tcgen05 MMA uses a stage of 'Acc', a ts::umma_async resource whose hand-back does not wait for it}}
    acc.release(a);
  }
}
[[ts::kernel(make_epi, first_epi, second_epi, epilogue_epi, ts::target(ts::sm_100a))]]
__global__ void mma_by_the_epilogue(const __grid_constant__ Params p);

// --- the first MMA task on two warps: lane 0 of each issues MMAs that
// the other's commit does not cover
MAKE_TASK(make_wide)
FIRST_TASK(first_wide, 2) // expected-error 2 {{task 'first_wide' issues the tcgen05 MMAs of}} expected-note 2 {{give the task one warp}}
SECOND_TASK(second_wide, 2)
EPILOGUE_TASK(epilogue_wide)
[[ts::kernel(make_wide, first_wide, second_wide, epilogue_wide, ts::target(ts::sm_100a))]]
__global__ void first_on_two_warps(const __grid_constant__ Params p);

// --- Made handed back before the second task's MMAs read it
MAKE_TASK(make_early)
FIRST_TASK(first_early, 1)
[[ts::task(ts::warps(1, 1))]]
__device__ void second_early(const Params &p, ts::consumer<Made> made, ts::consumer<Mid> mid,
                             ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto s = made.wait();
    auto m = mid.wait();
    auto a = acc.acquire();
    made.release(s); // expected-note 2 {{the stage was released here}}
    const uint64_t db = ts::tcgen05::make_desc_sw128(s->b); // expected-error {{stage of 'Made' is used after it was released}} expected-note {{move the use before the release}}
    ts::tcgen05::mma_bf16_ts(a.tmem(), m.tmem(), db, kIdesc, false); // expected-error {{stage of 'Made' is used after it was released}} expected-note {{move the use before the release}}
    acc.commit(a);
    mid.release(m);
  }
}
EPILOGUE_TASK(epilogue_early)
[[ts::kernel(make_early, first_early, second_early, epilogue_early, ts::target(ts::sm_100a))]]
__global__ void made_released_early(const __grid_constant__ Params p);

// --- the chain in a Hopper kernel
MAKE_TASK(make_h)
FIRST_TASK(first_h, 1)
SECOND_TASK(second_h, 1)
EPILOGUE_TASK(epilogue_h)
[[ts::kernel(make_h, first_h, second_h, epilogue_h)]]
__global__ void on_hopper(const __grid_constant__ Params p); // expected-note 4 {{add ts::target(ts::sm_100a)}}
// expected-error@33 {{ts::async_umma resource 'Made' is read by tcgen05 MMAs, which kernel 'on_hopper' (target sm_90a) does not have}}
// expected-error@38 {{ts::umma_umma resource 'Mid' is read by tcgen05 MMAs, which kernel 'on_hopper' (target sm_90a) does not have}}
// expected-error@38 {{'Mid' lives in tensor memory, which kernel 'on_hopper' (target sm_90a) does not have}}
// expected-error@40 {{'Acc' lives in tensor memory, which kernel 'on_hopper' (target sm_90a) does not have}}
// The notes at the resources of the errors above:
// expected-note@38 {{use a ts::umma_umma stage through ts::tcgen05 MMAs only, or make 'Mid' a kind whose consumer is threads (ts::tma_async, ts::async_async)}}
// expected-note@33 {{use a ts::async_umma stage through ts::tcgen05 MMAs only, or make 'Made' a kind whose consumer is threads}}
// expected-note@38 {{use a ts::umma_umma stage through ts::tcgen05 MMAs only, or make 'Mid' a kind whose producer is threads (ts::async_umma)}}
// expected-note@40 {{declare 'Acc' ts::tma_umma (TMA fills it), ts::async_umma (threads do) or ts::umma_umma (MMAs do)}}
#endif
#else
struct [[ts::resource(ts::umma_umma, ts::stages(2))]] NoColumns {}; // attrs-error {{ts::umma_umma resource 'NoColumns' has no tensor-memory columns}} attrs-note {{give each stage's columns with ts::tmem(N)}}
struct [[ts::resource(ts::async_umma, ts::stages(2), ts::tmem(64))]] Columns { float v[8]; }; // attrs-error {{ts::tmem applies only to ts::task_owned, ts::umma_async and ts::umma_umma resources, not ts::async_umma}} attrs-note {{a ts::async_umma stage is shared memory that the MMAs read}}
struct [[ts::resource(ts::umma_umma, ts::stages(2), ts::tmem(64))]] Members { float v[8]; }; // attrs-error {{tensor-memory resource 'Members' has members}} attrs-note {{leave the struct empty}}
#endif
