// tcgen05 pipelines (sm_100a): a ts::tma_umma stage goes back by the MMA
// task's commit, a ts::umma_async stage (tensor-memory columns) is
// committed by it; the MMAs run on one warp, on stages of those kinds
// only, and no thread reads a stage that a commit hands back. The
// mutants of examples/gemm_sm100.cu's schedule that would hang or race on
// a Blackwell GPU are errors.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -DATTRS -Xclang -verify=attrs %s
#include <ts/ts.h>
#include <ts/tensor_map.h>

struct Params {
  ts::tma::map<__nv_bfloat16, 128, 64> a;
  ts::tma::map<__nv_bfloat16, 256, 64> b;
  int tiles, k_tiles;
};
constexpr uint32_t kIdesc = ts::tcgen05::idesc_bf16(128, 256);

#define OPERANDS_BODY                                                          \
  __nv_bfloat16 a[128 * 64];                                                   \
  __nv_bfloat16 b[256 * 64];
struct [[ts::resource(ts::tma_umma, ts::stages(4), ts::swizzled)]] Ops { OPERANDS_BODY };
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
#define EPILOGUE_TASK(NAME, FIRST)                                             \
  [[ts::task(ts::warps(FIRST, 4))]]                                            \
  __device__ void NAME(const Params &p, float *out, ts::consumer<Acc> acc) {   \
    for (auto t : ts::domain(0, p.tiles)) {                                    \
      auto a = acc.wait();                                                     \
      uint32_t r[8];                                                           \
      ts::tcgen05::ld_32x32b_x8(r, ts::tcgen05::address(a.tmem(), threadIdx.x / 32 % 4 * 32, 0)); \
      ts::tcgen05::wait_ld();                                                  \
      out[threadIdx.x] = __uint_as_float(r[0]);                                \
      acc.release(a);                                                          \
    }                                                                          \
  }
/// The MMA step of one k-tile: four k16 MMAs of the stage into the stage.
#define MMAS(S, A, K)                                                          \
  {                                                                            \
    const uint64_t da = ts::tcgen05::make_desc_sw128((S)->a);                  \
    const uint64_t db = ts::tcgen05::make_desc_sw128((S)->b);                  \
    for (int kk = 0; kk < 4; ++kk)                                             \
      ts::tcgen05::mma_bf16((A).tmem(), ts::tcgen05::advance_k(da, kk * 32),   \
                            ts::tcgen05::advance_k(db, kk * 32), kIdesc,       \
                            int(K) > 0 || kk > 0);                             \
  }

#ifndef ATTRS
// --- the schedule as examples/gemm_sm100.cu has it: clean
LOAD_TASK(load, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      ops.release(s);
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue, 4)
[[ts::kernel(load, mma, epilogue, ts::target(ts::sm_100a))]]
__global__ void gemm_ok(const __grid_constant__ Params p, float *out);

// --- the operand stage handed back before its MMAs are issued
LOAD_TASK(load_early, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma_early(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      ops.release(s); // expected-note 2 {{the stage was released here}}
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a); // expected-error {{stage of 'Ops' is used after it was released}} expected-note {{move the use before the release}}
      ts::tcgen05::mma_bf16(a.tmem(), da, da, kIdesc, k > 0); // expected-error {{stage of 'Ops' is used after it was released}} expected-note {{move the use before the release}}
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue_early, 4)
[[ts::kernel(load_early, mma_early, epilogue_early, ts::target(ts::sm_100a))]]
__global__ void released_before_mma(const __grid_constant__ Params p, float *out);

// --- the accumulator never committed: the epilogue waits forever
LOAD_TASK(load_nocommit, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma_nocommit(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire(); // expected-error {{stage of 'Acc' acquired in the loop is not committed in the same iteration}} expected-note {{commit it before the end of the loop body}}
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      ops.release(s);
    }
  }
}
EPILOGUE_TASK(epilogue_nocommit, 4)
[[ts::kernel(load_nocommit, mma_nocommit, epilogue_nocommit, ts::target(ts::sm_100a))]]
__global__ void accumulator_never_committed(const __grid_constant__ Params p, float *out);

// --- MMAs on a tma_async stage: its release is a thread arrive
struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] PlainOps { OPERANDS_BODY }; // expected-note {{declare 'PlainOps' ts::tma_umma}}
LOAD_TASK(load_plain, PlainOps)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma_plain(const Params &p, ts::consumer<PlainOps> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::tcgen05::make_desc_sw128(s->a);
      ts::tcgen05::mma_bf16(a.tmem(), da, da, kIdesc, k > 0); // expected-error {{a tcgen05 MMA uses a stage of 'PlainOps', a ts::tma_async resource whose hand-back does not wait for it}}
      ops.release(s);
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue_plain, 4)
[[ts::kernel(load_plain, mma_plain, epilogue_plain, ts::target(ts::sm_100a))]]
__global__ void mma_on_tma_async(const __grid_constant__ Params p, float *out);

// --- the MMA task on a warpgroup: four lanes would issue, one commit
LOAD_TASK(load_wide, Ops)
[[ts::task(ts::warps(4, 4))]]
__device__ void mma_wide(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) { // expected-error {{task 'mma_wide' issues the tcgen05 MMAs of 'Ops' on 4 warps}} expected-error {{task 'mma_wide' issues the tcgen05 MMAs of 'Acc' on 4 warps}} expected-note 2 {{give the task one warp}}
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      ops.release(s);
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue_wide, 8)
[[ts::kernel(load_wide, mma_wide, epilogue_wide, ts::target(ts::sm_100a))]]
__global__ void mma_on_a_warpgroup(const __grid_constant__ Params p, float *out);

// --- threads read a tma_umma stage that the commit hands back
LOAD_TASK(load_peek, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma_peek(const Params &p, float *out, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      out[threadIdx.x] = __bfloat162float(s->a[threadIdx.x]); // expected-error {{task 'mma_peek' reads a stage of 'Ops' with its threads; the release commits for the MMAs only and does not wait for those reads}}
      ops.release(s);
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue_peek, 4)
[[ts::kernel(load_peek, mma_peek, epilogue_peek, ts::target(ts::sm_100a))]]
__global__ void threads_read_tma_umma(const __grid_constant__ Params p, float *out);

// --- three accumulator stages of 256 columns: over the 512 of a CTA
struct [[ts::resource(ts::umma_async, ts::stages(3), ts::tmem(256))]] Acc3 {}; // expected-note {{'Acc3': columns [0, 768)}}
LOAD_TASK(load3, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma3(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc3> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      ops.release(s);
    }
    acc.commit(a);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void epilogue3(const Params &p, float *out, ts::consumer<Acc3> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.wait();
    out[threadIdx.x] = float(a.tmem());
    acc.release(a);
  }
}
[[ts::kernel(load3, mma3, epilogue3, ts::target(ts::sm_100a))]]
__global__ void tmem_over_capacity(const __grid_constant__ Params p, float *out); // expected-error {{kernel 'tmem_over_capacity' needs 768 columns of tensor memory; the capacity is 512 columns}} expected-note {{512 is all the tensor memory a CTA has}}

// --- the same pipelines in a Hopper kernel
LOAD_TASK(load90, Ops)
[[ts::task(ts::warps(1, 1))]]
__device__ void mma90(const Params &p, ts::consumer<Ops> ops, ts::producer<Acc> acc) {
  for (auto t : ts::domain(0, p.tiles)) {
    auto a = acc.acquire();
    for (auto k : ts::domain(0, p.k_tiles).nonempty()) {
      auto s = ops.wait();
      MMAS(s, a, k)
      ops.release(s);
    }
    acc.commit(a);
  }
}
EPILOGUE_TASK(epilogue90, 4)
[[ts::kernel(load90, mma90, epilogue90)]]
__global__ void umma_on_hopper(const __grid_constant__ Params p, float *out); // expected-note {{add ts::target(ts::sm_100a) to the kernel's [[ts::kernel]], or read the stages with threads or wgmma}} expected-note {{tensor memory is a Blackwell resource}}
// expected-error@22 {{ts::tma_umma resource 'Ops' is read by tcgen05 MMAs, which kernel 'umma_on_hopper' (target sm_90a) does not have}}
// expected-error@23 {{'Acc' lives in tensor memory, which kernel 'umma_on_hopper' (target sm_90a) does not have}}
#else
struct [[ts::resource(ts::umma_async, ts::stages(2))]] NoColumns {}; // attrs-error {{ts::umma_async resource 'NoColumns' has no tensor-memory columns}} attrs-note {{give each stage's columns with ts::tmem(N)}}
struct [[ts::resource(ts::tma_umma, ts::stages(2), ts::tmem(64))]] SmemWithColumns { float v[8]; }; // attrs-error {{ts::tmem applies only to ts::task_owned, ts::umma_async and ts::umma_umma resources, not ts::tma_umma}} attrs-note {{the MMAs' accumulators are a ts::umma_async resource}}
struct [[ts::resource(ts::umma_async, ts::stages(2), ts::tmem(64))]] AccWithData { float v[8]; }; // attrs-error {{tensor-memory resource 'AccWithData' has members}} attrs-note {{leave the struct empty}}
struct [[ts::resource(ts::tma_umma, ts::stages(2), ts::tx_bytes(16))]] TxOk { float v[8]; };
#endif
// Where the nested views found them (each inner count decides alike):
// expected-note@84 2 {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
// expected-note@103 {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
// expected-note@173 {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
// expected-note@22 {{use a ts::tma_umma stage through ts::tcgen05 MMAs only, or make 'Ops' a kind whose consumer is threads (ts::tma_async, ts::async_async)}}
