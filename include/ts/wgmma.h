// Warpgroup MMA (wgmma, sm_90a) building blocks: the shared-memory matrix
// descriptor for a K-major bf16 tile with 128-byte swizzle (the layout a TMA
// load with CU_TENSOR_MAP_SWIZZLE_128B and a 64-element inner box writes),
// the fence / commit / wait discipline and the bf16 m64nNk16 MMA with fp32
// accumulators in registers.
//
// Usage by one warpgroup (128 threads, all calling every function here):
//
//   float acc[128];                                    // m64n256: 128 per thread
//   ts::wgmma::fence();                                // before the first mma of a batch
//   for (int kk = 0; kk < 4; ++kk)                     // BK = 64: four k16 steps
//     ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
//                         ts::wgmma::advance_k(db, kk * 32), k > 0 || kk > 0);
//   ts::wgmma::commit_group();
//   ts::wgmma::wait_group<1>();                        // all but the latest batch done
//   ...
//   ts::wgmma::wait_group<0>();
//   ts::wgmma::fence_operand(acc);                     // before reading acc
//
// Accumulator layout (per thread t of the warpgroup, warp w = t / 32, lane l):
// acc[4g + {0,1}] is row 16w + l/4, columns 8g + 2(l%4) + {0,1}; acc[4g + {2,3}]
// is the same columns, row 16w + l/4 + 8 (g = 0 .. N/8 - 1).
//
// CCCL (cuda::ptx) has no wgmma wrappers, so these are inline PTX. Only
// sm_90a has wgmma: compiled for another device target the functions trap.
#ifndef LIBTS_WGMMA_H
#define LIBTS_WGMMA_H

#include <cstdint>
#include <type_traits>

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define LIBTS_HAS_WGMMA 1
#else
#define LIBTS_HAS_WGMMA 0
#endif

namespace ts {
namespace wgmma {

namespace detail {
__device__ __forceinline__ void unsupported() {
#if defined(__CUDA_ARCH__) && !LIBTS_HAS_WGMMA
  __trap(); // wgmma needs sm_90a
#endif
}
} // namespace detail

// Shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format" of
// the asynchronous warpgroup-level matrix instructions):
//   bits  0-13  start address >> 4
//   bits 16-29  leading dimension byte offset >> 4 (unused for a swizzled
//               K-major operand whose K extent is one swizzle atom; set to 1)
//   bits 32-45  stride dimension byte offset >> 4: 1024 B between groups of
//               8 rows (8 rows x 128 B, one swizzle atom)
//   bits 49-51  base offset: 0 (tiles start on a 1024-byte boundary)
//   bits 62-63  swizzle mode: 1 = 128-byte swizzle
constexpr uint64_t kDescSw128Bits = (uint64_t(1) << 16) |              // LBO (unused)
                                    (uint64_t(1024 >> 4) << 32) |      // SBO = 1024 B
                                    (uint64_t(1) << 62);               // 128B swizzle

/// Descriptor of a K-major bf16 tile in shared memory whose rows are 64
/// elements (128 bytes), written with 128-byte swizzle, starting at `smem`
/// (1024-byte aligned; `smem` + 8 rows * 128 B * i for a sub-tile of rows).
/// The wgmma reads 64 (A) or N (B) rows and 16 elements of K from there.
__device__ __forceinline__ uint64_t make_desc_sw128(const void *smem) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return kDescSw128Bits | uint64_t((addr & 0x3FFFFu) >> 4);
}

/// The descriptor moved `bytes` along K inside the 128-byte swizzled row
/// (k16 step i of a 64-wide tile: bytes = 32 * i). The hardware applies the
/// swizzle to the address it forms, so a plain start-address offset works;
/// the 14-bit address field cannot carry over (shared addresses < 256 KiB).
__device__ __forceinline__ uint64_t advance_k(uint64_t desc, unsigned bytes) {
  return desc + uint64_t(bytes >> 4);
}

/// wgmma.fence: orders this warpgroup's register and shared-memory accesses
/// before the wgmma.mma_async that follow (required before the first MMA
/// and after any other write of the accumulator registers).
__device__ __forceinline__ void fence() {
#if LIBTS_HAS_WGMMA
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  detail::unsupported();
#endif
}

/// Closes the MMAs issued since the last commit into one wgmma-group.
__device__ __forceinline__ void commit_group() {
#if LIBTS_HAS_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  detail::unsupported();
#endif
}

/// Waits until at most N wgmma-groups of this warpgroup are pending: their
/// shared-memory reads and accumulator writes are done. A pipeline stage
/// an MMA read may be released only after the wait that covers its group.
template <int N>
__device__ __forceinline__ void wait_group() {
  static_assert(N >= 0 && N <= 7, "wgmma.wait_group: 0..7");
#if LIBTS_HAS_WGMMA
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#else
  detail::unsupported();
#endif
}

/// Keeps the compiler from moving accesses of the accumulators across a
/// wait_group (the asm above does not name them): call after wait_group<0>
/// before reading them, and before the first MMA if they were written.
template <int S>
__device__ __forceinline__ void fence_operand(float (&d)[S]) {
#pragma unroll
  for (int i = 0; i < S; ++i)
    asm volatile("" : "+f"(d[i])::"memory");
}

/// Keeps registers an MMA in flight reads (mma_rs_bf16's A fragment) live up
/// to this call, and ends ptxas's basic block here. Call it after work that
/// should overlap the MMA, before the wait_group that retires it. Without it
/// ptxas reuses the registers once the MMA is issued, so it must wait for
/// the MMA before that work, and it hoists the wait_group across the work
/// within one basic block (both seen in SASS with CUDA 13.0:
/// examples/attention_sm90.cu's softmax ran after PV instead of during it).
/// It stores them under a predicate that is never true (the dynamic shared
/// memory size is never 2^32 - 1 bytes), so nothing is written.
template <int N>
__device__ __forceinline__ void keep_live(const uint32_t (&r)[N]) {
  static_assert(N % 4 == 0, "keep_live takes groups of four registers");
#if defined(__CUDA_ARCH__)
  uint32_t size;
  asm volatile("mov.u32 %0, %%dynamic_smem_size;\n" : "=r"(size));
#pragma unroll
  for (int i = 0; i < N; i += 4)
    asm volatile("{\n"
                 ".reg .pred never;\n"
                 "setp.eq.u32 never, %4, -1;\n"
                 "@never st.shared.v4.b32 [%5], {%0, %1, %2, %3};\n"
                 "}\n"
                 :
                 : "r"(r[i]), "r"(r[i + 1]), "r"(r[i + 2]), "r"(r[i + 3]), "r"(size), "r"(0u)
                 : "memory");
#endif
}

/// Accumulator registers per thread of m64nNk16 with fp32 accumulation.
template <int N> struct accum {
  static_assert(N == 64 || N == 128 || N == 256, "mma_bf16 is provided for N = 64, 128, 256");
  using type = float[N / 2];
};
template <int N> using accum_t = typename accum<N>::type;

// wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16, A and B from shared
// memory (descriptors), scale-a = scale-b = 1; K-major operands, or
// MN-major with TransA / TransB (descriptors from make_desc_mn_sw128). One
// overload per N: the accumulator array's size selects it.

/// D[64 x 64] (+)= A[64 x 16] * B[16 x 64]: bf16 operands from shared memory
/// (both K-major, descriptors from make_desc_sw128), fp32 accumulators.
/// `accumulate` false overwrites D (scale-d = 0): the first k-step of a tile.
template <bool TransA = false, bool TransB = false>
__device__ __forceinline__ void mma_bf16(float (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                         bool accumulate) {
#if LIBTS_HAS_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "%32, %33, p, 1, 1, %35, %36;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(desc_a), "l"(desc_b), "r"(int(accumulate)), "n"(int(TransA)), "n"(int(TransB)));
#else
  detail::unsupported();
  (void)d; (void)desc_a; (void)desc_b; (void)accumulate;
#endif
}

/// D[64 x 128] (+)= A[64 x 16] * B[16 x 128]: bf16 operands from shared memory
/// (both K-major, descriptors from make_desc_sw128), fp32 accumulators.
/// `accumulate` false overwrites D (scale-d = 0): the first k-step of a tile.
template <bool TransA = false, bool TransB = false>
__device__ __forceinline__ void mma_bf16(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                         bool accumulate) {
#if LIBTS_HAS_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, %67, %68;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(desc_a), "l"(desc_b), "r"(int(accumulate)), "n"(int(TransA)), "n"(int(TransB)));
#else
  detail::unsupported();
  (void)d; (void)desc_a; (void)desc_b; (void)accumulate;
#endif
}

/// D[64 x 256] (+)= A[64 x 16] * B[16 x 256]: bf16 operands from shared memory
/// (both K-major, descriptors from make_desc_sw128), fp32 accumulators.
/// `accumulate` false overwrites D (scale-d = 0): the first k-step of a tile.
template <bool TransA = false, bool TransB = false>
__device__ __forceinline__ void mma_bf16(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                         bool accumulate) {
#if LIBTS_HAS_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, %131, %132;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
        "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
        "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
        "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
        "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
        "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
        "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
        "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
      : "l"(desc_a), "l"(desc_b), "r"(int(accumulate)), "n"(int(TransA)), "n"(int(TransB)));
#else
  detail::unsupported();
  (void)d; (void)desc_a; (void)desc_b; (void)accumulate;
#endif
}

// FP8 MMAs. Operand lists of the accumulators, in order: "+f"(d[0]), ...
#define LIBTS_WGMMA_D8(d, i)                                                                       \
  "+f"(d[(i) + 0]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3]), "+f"(d[(i) + 4]),        \
      "+f"(d[(i) + 5]), "+f"(d[(i) + 6]), "+f"(d[(i) + 7])
#define LIBTS_WGMMA_D32(d)                                                                         \
  LIBTS_WGMMA_D8(d, 0), LIBTS_WGMMA_D8(d, 8), LIBTS_WGMMA_D8(d, 16), LIBTS_WGMMA_D8(d, 24)
#define LIBTS_WGMMA_D64(d)                                                                         \
  LIBTS_WGMMA_D32(d), LIBTS_WGMMA_D8(d, 32), LIBTS_WGMMA_D8(d, 40), LIBTS_WGMMA_D8(d, 48),         \
      LIBTS_WGMMA_D8(d, 56)
#define LIBTS_WGMMA_D128(d)                                                                        \
  LIBTS_WGMMA_D64(d), LIBTS_WGMMA_D8(d, 64), LIBTS_WGMMA_D8(d, 72), LIBTS_WGMMA_D8(d, 80),         \
      LIBTS_WGMMA_D8(d, 88), LIBTS_WGMMA_D8(d, 96), LIBTS_WGMMA_D8(d, 104), LIBTS_WGMMA_D8(d, 112), \
      LIBTS_WGMMA_D8(d, 120)
#define LIBTS_WGMMA_R32 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define LIBTS_WGMMA_R64 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define LIBTS_WGMMA_R128 \
  "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
  "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
  "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
  "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
  "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
  "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
  "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
  "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
/// One m64nNk32 FP8 wgmma: N columns, S accumulators per thread, the
/// descriptors and the predicate after them (operands S, S + 1, S + 2).
#define LIBTS_WGMMA_FP8(N, S, TA, TB, A, B, P)                                                     \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %" #P ", 0;\n"                                    \
               "wgmma.mma_async.sync.aligned.m64n" #N "k32.f32." #TA "." #TB " {" LIBTS_WGMMA_R##S \
               "}, %" #A ", %" #B ", p, 1, 1;\n}\n"                                                 \
               : LIBTS_WGMMA_D##S(d)                                                               \
               : "l"(desc_a), "l"(desc_b), "r"(int(accumulate)))
/// The four type pairs of one shape.
#define LIBTS_WGMMA_FP8_TYPES(N, S, A, B, P)                                                       \
  if constexpr (std::is_same_v<TA, e4m3> && std::is_same_v<TB, e4m3>)                              \
    LIBTS_WGMMA_FP8(N, S, e4m3, e4m3, A, B, P);                                                    \
  else if constexpr (std::is_same_v<TA, e4m3>)                                                     \
    LIBTS_WGMMA_FP8(N, S, e4m3, e5m2, A, B, P);                                                    \
  else if constexpr (std::is_same_v<TB, e4m3>)                                                     \
    LIBTS_WGMMA_FP8(N, S, e5m2, e4m3, A, B, P);                                                    \
  else                                                                                             \
    LIBTS_WGMMA_FP8(N, S, e5m2, e5m2, A, B, P)

/// FP8 element types of mma_fp8's operands.
struct e4m3 {};
struct e5m2 {};

namespace detail {
template <class T> inline constexpr bool is_fp8 = false;
template <> inline constexpr bool is_fp8<e4m3> = true;
template <> inline constexpr bool is_fp8<e5m2> = true;
} // namespace detail

/// D[64 x N] (+)= A[64 x 32] * B[32 x N] for N = 64, 128, 256 (the
/// accumulator array's size, N / 2, selects it): FP8 operands from shared
/// memory, A of type TA and B of TB (e4m3 or e5m2), both K-major (FP8
/// wgmma has no transpose): 128-byte swizzled rows of 128 elements,
/// make_desc_sw128, advance_k by 32 bytes per k-step of 32. fp32
/// accumulators; `accumulate` false overwrites D. Like every ts::wgmma MMA
/// it reads its stages until a wait_group covers its group.
template <class TA = e4m3, class TB = e4m3, int S>
__device__ __forceinline__ void mma_fp8(float (&d)[S], uint64_t desc_a, uint64_t desc_b,
                                        bool accumulate) {
  static_assert(detail::is_fp8<TA> && detail::is_fp8<TB>, "FP8 operands are e4m3 or e5m2");
  static_assert(S == 32 || S == 64 || S == 128, "mma_fp8 is provided for N = 64, 128, 256");
#if LIBTS_HAS_WGMMA
  if constexpr (S == 32) {
    LIBTS_WGMMA_FP8_TYPES(64, 32, 32, 33, 34);
  } else if constexpr (S == 64) {
    LIBTS_WGMMA_FP8_TYPES(128, 64, 64, 65, 66);
  } else {
    LIBTS_WGMMA_FP8_TYPES(256, 128, 128, 129, 130);
  }
#else
  detail::unsupported();
  (void)d; (void)desc_a; (void)desc_b; (void)accumulate;
#endif
}

/// Descriptor of an MN-major bf16 tile with 128-byte swizzle (the layout a
/// TMA box of K rows x 64 MN elements writes: wgmma's transposed B, e.g.
/// attention's V): 8-row groups of K 1024 bytes apart (SBO), consecutive
/// 64-element blocks of MN `mn_block_bytes` apart (LBO: one box's bytes when
/// the boxes of the MN halves follow each other).
__device__ __forceinline__ uint64_t make_desc_mn_sw128(const void *smem,
                                                       uint32_t mn_block_bytes) {
  const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  return (uint64_t((mn_block_bytes >> 4) & 0x3FFFu) << 16) | (uint64_t(1024 >> 4) << 32) |
         (uint64_t(1) << 62) | uint64_t((addr & 0x3FFFFu) >> 4);
}

/// D[64 x 64] (+)= A[64 x 16] * B[16 x 64], A from registers, B from shared
/// memory: mma_rs_bf16 below at N = 64 (attention's P V at head dim 64).
template <bool TransB = false>
__device__ __forceinline__ void mma_rs_bf16(float (&d)[32], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t desc_b, bool accumulate) {
#if LIBTS_HAS_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %37, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
      "{%32, %33, %34, %35}, %36, p, 1, 1, %38;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc_b), "r"(int(accumulate)), "n"(int(TransB)));
#else
  detail::unsupported();
  (void)d; (void)a0; (void)a1; (void)a2; (void)a3; (void)desc_b; (void)accumulate;
#endif
}

/// D[64 x 128] (+)= A[64 x 16] * B[16 x 128] with A (bf16) from registers
/// in the m64k16 A-fragment layout (a0..a3: this thread's four pairs, the
/// same layout as the accumulator's columns 16k..16k+15 converted to bf16),
/// B from shared memory: K-major, or MN-major with TransB (descriptor from
/// make_desc_mn_sw128). Like every ts::wgmma MMA it reads B's stage until a
/// wait_group covers its group; the A registers may not be written before.
template <bool TransB = false>
__device__ __forceinline__ void mma_rs_bf16(float (&d)[64], uint32_t a0, uint32_t a1, uint32_t a2,
                                            uint32_t a3, uint64_t desc_b, bool accumulate) {
#if LIBTS_HAS_WGMMA
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %69, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "{%64, %65, %66, %67}, %68, p, 1, 1, %70;\n"
      "}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
        "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
        "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
        "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
        "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
        "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
        "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
        "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc_b), "r"(int(accumulate)), "n"(int(TransB)));
#else
  detail::unsupported();
  (void)d; (void)a0; (void)a1; (void)a2; (void)a3; (void)desc_b; (void)accumulate;
#endif
}

} // namespace wgmma
} // namespace ts

#endif
