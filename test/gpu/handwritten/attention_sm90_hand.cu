// Hand-written Hopper (sm_90a) attention forward, the yardstick for the libts
// attention kernel (docs/attention-design.md, issue 21): FlashAttention-3's
// structure, written directly in CUDA (no libts attributes).
//
//   O = softmax(Q K^T / sqrt(D)) V,  LSE = log(sum_j exp(Q K_j^T / sqrt(D)))
//
// Head dim D = 128; built with -DATTN_HEAD_DIM=64, 64 (tiles of one 64-column
// half, PV as m64n64k16), like examples/attention_sm90.cu.
//
// Status (H200, CUDA 13.0, first version): correct against an fp32 PyTorch
// reference (bench/attention/bench.py) at the FA3-paper shapes (seqlen 1k..16k,
// 16 heads, causal and not) and against the CPU reference of main below;
// compute-sanitizer memcheck clean at batch 1, seqlen 256, 2 heads (racecheck
// was clean at 1 head on the revision before the last SASS-driven changes,
// which did not touch shared memory or barriers).
// Speed: about cuDNN's (SDPA) and 1.6-2x SDPA's flash backend (FA2); the
// measured table is in docs/benchmarks.md (2026-12-02, session 17).
//
// Layout (all row-major, contiguous, PyTorch's (B, S, H, D) before the
// transpose to SDPA's (B, H, S, D)):
//   Q, K, V, O  bf16 [batch][seqlen][heads][head_dim]: element (b, s, h, d)
//               at ((b * seqlen + s) * heads + h) * head_dim + d
//   LSE         fp32 [batch][heads][seqlen], NATURAL log, of the scaled
//               scores: lse = m * scale + ln(l) (as PyTorch's flash/cuDNN
//               backends return it)
// Supported: head_dim == 128, seqlen a positive multiple of 128 (the query
// and key tile), batch * seqlen < 2^31, 16-byte aligned pointers; same
// sequence length for queries and keys. Causal (runtime flag): query i sees
// keys 0..i (top-left aligned mask, PyTorch's is_causal). Softmax scale
// 1/sqrt(128).
//
// Structure (384 threads, one CTA per SM, persistent):
// - warpgroup 0: producer (setmaxnreg.dec 24). Warp 0 runs the load loop
//   (the whole warp waits for a slot to empty, its lane 0 arms the full
//   barrier and issues the TMA loads); warps 1-3 leave at once. Per tile: Q
//   (128 x 128) into its 2-stage ring; then for each key block (from the
//   last down, so the causal diagonal block comes first) K(n) and V(n),
//   each into its own 2-stage ring.
// - warpgroups 1, 2: consumers (setmaxnreg.inc 240), 64 query rows each of
//   the 128-row tile. Per key block (128 keys):
//     S = Q K^T       wgmma m64n128k16, both operands from shared memory
//                     (K-major, 128-byte swizzle), 8 k16 steps over D
//     online softmax  in registers, log2 domain (ex2.approx), masked only on
//                     the diagonal block when causal
//     O += P V        wgmma m64n128k16 RS form: P (bf16) from registers,
//                     V from shared memory as an N-major (transposed) B
//   with FA3's intra-warpgroup overlap. One step (key block n, in order of
//   processing): convert P(n-1) to bf16; wait K(n), V(n-1); issue QK^T(n)
//   (one commit group); rescale O by the previous softmax's factor; issue
//   PV(n-1) (second group); wait_group 1 (S ready) -> release K; softmax of
//   S(n) while PV(n-1) runs; wait_group 0 -> release V. The first block has
//   QK^T only, the last PV follows the loop. Stage releases are per warp
//   (lane 0, a predicated mbarrier.arrive after the wgmma.wait_group).
//   Getting ptxas to really overlap the softmax with PV took three things,
//   each seen in SASS (CUDA 13.0): no branch between the two waits (release
//   is one predicated asm, the causal mask is only applied to the first
//   block), the P conversion at the top of the next step, and
//   ts::wgmma::keep_live (P stays live through the softmax, and its
//   never-taken branches end the basic block so that ptxas cannot hoist
//   wait_group 0 into the softmax). Q has two stages and goes back after the
//   k-loop, so the producer loads the next tile's Q during this one; the
//   producer loads V one block behind K, in the order the consumers read
//   them. examples/attention_sm90.cu is written the same way (its twin).
// - kept in step with the example down to the order of its statements: the
//   same helpers, the barriers at the offsets libts's plan gives them, a
//   stage's address taken at its wait, the ring positions declared in the
//   kernel body, the tile loop's bounds read once. nvcc 13 then gives both
//   kernels the same SASS up to register names, at both head dims
//   (test/lit/codegen/attention-sass.cu, bench/gemm/sass_diff.py --whole):
//   ptxas schedules the same loop differently when the rest of the kernel
//   differs, so the twin matches the whole kernel, not only the loop.
// - ping-pong (attention_sm90_hand; attention_sm90_hand_nopp leaves it out):
//   named barriers 4 (consumer 0) and 5 (consumer 1), 256 threads each, the
//   ids libts's plan gives the example's turns. A consumer bar.syncs its own
//   barrier before issuing its GEMMs and bar.arrives on the other's after
//   issuing them; consumer 1 starts with an arrival on consumer 0's barrier,
//   so consumer 0 goes first. Each consumer takes
//   n_blocks + 1 turns per tile (first QK^T, n_blocks - 1 times QK^T + PV,
//   last PV), the same count for both, so the turns stay in step across
//   tiles; consumer 1's last arrival stays pending when the CTA leaves, as
//   in libts's kernel (and FlashAttention-3's). Ids 1..3 are
//   ts::sync_warpgroup's, 0 is __syncthreads. The consumer body is a
//   template on its index (constant rows and barrier ids), as libts writes
//   one task per consumer.
// - schedule: static persistent, tile = blockIdx.x + i * gridDim.x, grid =
//   min(tiles, SMs). Non-causal: tile t -> (batch*head = t / m_blocks, query
//   block = m_blocks - 1 - t % m_blocks), a head's query blocks adjacent (K/V
//   shared in L2). Causal: heads in sections of a quarter of the grid
//   (section_heads: about four CTAs per head at once), in a section (batch*head
//   = r % heads, query block = m_blocks - 1 - r / heads), longest first, which
//   balances the static round robin (the per-head order left the CTAs 64%
//   balanced at 16k), rounds of the grid in a snake.
// - epilogue (attention_sm90_hand, _nopp): each consumer writes O / l as bf16
//   into its own 16 KiB staging buffer (two 64 x 64 halves, 128-byte
//   swizzled, conflict-free), fence.proxy.async, bar.sync of its warpgroup
//   (ts::sync_warpgroup, ids 2 and 3), and its thread 0 issues two TMA
//   stores; the next tile waits for their reads before refilling the buffer.
//   attention_sm90_hand_regstore stores O straight from registers instead
//   (two bf16 per store). LSE: the first thread of each quad, from registers.
//
// Barriers (mbarriers, 8 bytes each): q_full[2] / k_full[2] / v_full[2] (1
// arrival + 32 KiB tx), q_empty[2] / k_empty[2] / v_empty[2] (8 arrivals:
// the consumer warps).
// Shared memory: Q, K and V 2 x 32 KiB each + O staging 2 x 16 KiB = 224
// KiB, barriers, 1 KiB alignment slack (swizzled tiles need 1024-byte
// alignment): 230496 bytes. Each 128 x 128 bf16 tile is two
// 128-row x 64-column halves (one TMA box each, 16 KiB, 128-byte swizzled):
// columns 0..63, then 64..127. Registers: ptxas -v reports 168 (the launch
// bound of 384 threads), no spills; the consumers use up to 240 after
// setmaxnreg.
//
// Host entry points (C linkage; 0 = launched, 1 = unsupported shape or
// pointer, 2 = CUDA error):
//   attention_sm90_hand           ping-pong, TMA-store epilogue (the default)
//   attention_sm90_hand_nopp      without ping-pong, TMA-store epilogue
//   attention_sm90_hand_regstore  ping-pong, O stored from registers
// Build as a library with -DATTN_HAND_LIBRARY (bench/attention/run.sh); built
// without it the file is a self-checking program against a CPU reference:
//   ./attention_check [batch seqlen heads]
// gpu-run-args: 1 512 4
// gpu-run-sanitize-args: 1 256 2
#include <cmath>
#include <cstdint>
#include <cstdio>

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <ts/detail.h>
#include <ts/tensor_map.h>
#include <ts/tma.h>
#include <ts/warpgroup.h>
#include <ts/wgmma.h>

namespace attn_hand {

#ifndef ATTN_HEAD_DIM
#define ATTN_HEAD_DIM 128
#endif
constexpr int D = ATTN_HEAD_DIM; // head dim: 128, or 64
static_assert(D == 64 || D == 128, "head dim 64 or 128");
constexpr int kHalves = D / 64;   // 64-column halves of a row of d
constexpr int BM = 128, BN = 128; // query tile, key block
constexpr int kStages = 2;        // Q, K and V rings
constexpr int kConsumerWarpgroups = 2;
constexpr int kThreads = 128 * (kConsumerWarpgroups + 1);
constexpr unsigned kConsumerWarps = 4 * kConsumerWarpgroups;
constexpr unsigned kHalfBytes = 128 * 64 * 2; // one TMA box: 128 rows x 64 bf16
constexpr unsigned kTileBytes = kHalves * kHalfBytes; // 128 x D bf16
constexpr unsigned kQOff = 0;
constexpr unsigned kKOff = kQOff + kStages * kTileBytes;
constexpr unsigned kVOff = kKOff + kStages * kTileBytes;
constexpr unsigned kOOff =
    kVOff + kStages * kTileBytes;             // O staging (TMA-store epilogue)
constexpr unsigned kOBytesPerWg = 64 * D * 2; // 64 rows x D bf16
constexpr unsigned kBarOff = kOOff + kConsumerWarpgroups * kOBytesPerWg;
constexpr unsigned kNumBars = 6 * kStages;
constexpr unsigned kSmemBytes =
    kBarOff + kNumBars * 8 + 1024; // + alignment slack
constexpr unsigned kProducerRegs = 24, kConsumerRegs = 240;
constexpr unsigned kTurnBar0 = 4; // named barrier of consumer c: kTurnBar0 + c
static_assert(BM == BN,
              "the causal mask assumes the diagonal block is one key block");
static_assert(128 * kProducerRegs + 128 * kConsumerWarpgroups * kConsumerRegs <=
                  65536,
              "setmaxnreg budgets exceed the register file");
static_assert(kSmemBytes <= 232448, "shared memory");

struct Params {
  CUtensorMap q, k,
      v; // 3D maps (d, head, b*seqlen), box 64 x 1 x 128, 128-byte swizzle
  CUtensorMap o_map; // the same for O, box 64 x 1 x 64 (one consumer's rows)
  float *lse;
  int seqlen, heads;
  int m_blocks;      // seqlen / BM
  int n_blocks;      // seqlen / BN
  int num_tiles;     // batch * heads * m_blocks
  int bh_count;      // batch * heads
  int section_heads; // causal: heads whose tiles run together (causal_tile)
  int causal;
  float scale;      // 1 / sqrt(D)
  float scale_log2; // scale * log2(e)
  __nv_bfloat16 *o; // the regstore epilogue's O
};

// ---- device helpers (the example's, kept in step) ----

/// The persistent loop hands CTA j the tiles j, j + G, j + 2G, ... (G the
/// grid). For causal, where tiles shrink along the order, every other round
/// of G runs backwards (CTA j takes G - 1 - j): each CTA's sum of tile
/// lengths comes within 0.2% of the mean from 4k tokens on, where plain
/// rounds leave 6% (docs/benchmarks.md).
__device__ __forceinline__ int snake(const Params &p, int t) {
  const int g = int(gridDim.x), round = t / g, j = t % g;
  const int width =
      min(g, p.num_tiles - round * g); // the last round may be short
  return round % 2 ? round * g + width - 1 - j : t;
}
/// Causal tile t as (batch * head, query block): heads in sections of
/// p.section_heads, a quarter of the grid, so that the tiles running at once
/// are about four per head, at neighbouring query blocks that read the same
/// key blocks at about the same time (in L2); in a section, longest first
/// (every head's last query block, then the ones before), rounds in a snake.
__device__ __forceinline__ int2 causal_tile(const Params &p, int t) {
  t = snake(p, t);
  const int per = p.section_heads * p.m_blocks,
            first = t / per * p.section_heads;
  const int heads = min(p.section_heads, p.bh_count - first), r = t % per;
  return make_int2(first + r % heads, p.m_blocks - 1 - r / heads);
}
struct TileCoords {
  int b, h, mi;
};
__device__ __forceinline__ TileCoords tile_coords(const Params &p, int t) {
  TileCoords c;
  int bh;
  if (p.causal) {
    const int2 bm = causal_tile(p, t);
    bh = bm.x;
    c.mi = bm.y;
  } else { // a head's query blocks side by side: its K/V stay in L2
    bh = t / p.m_blocks;
    c.mi = p.m_blocks - 1 - t % p.m_blocks;
  }
  c.b = bh / p.heads;
  c.h = bh % p.heads;
  return c;
}
/// Key blocks of a tile: causal, the blocks up to the one holding the
/// tile's last query.
__device__ __forceinline__ int n_blocks_of(const Params &p,
                                           const TileCoords &tc) {
  return p.causal ? min(p.n_blocks, ((tc.mi + 1) * BM + BN - 1) / BN)
                  : p.n_blocks;
}

__device__ __forceinline__ float ex2(float x) {
  float y;
  asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
  return y;
}

/// S = Q K^T for 64 rows: q = the warpgroup's rows of the Q tile's first
/// half, k = the K stage. k16 step kk reads columns 16kk..16kk+15 of D:
/// half kk / 4, 32 bytes * (kk % 4) into the swizzled 128-byte row.
__device__ __forceinline__ void qk(float (&s)[64], const void *q,
                                   const void *k) {
  const uint64_t dq = ts::wgmma::make_desc_sw128(q);
  const uint64_t dk = ts::wgmma::make_desc_sw128(k);
#pragma unroll
  for (int kk = 0; kk < D / 16; ++kk) {
    const unsigned off = (kk / 4) * kHalfBytes + (kk % 4) * 32;
    ts::wgmma::mma_bf16(s, ts::wgmma::advance_k(dq, off),
                        ts::wgmma::advance_k(dk, off), kk > 0);
  }
}

/// O (+)= P V: P (64 x 128 keys, bf16 pairs) from registers, V as wgmma's
/// B, N-major (transposed), its two 64-column halves kHalfBytes apart. k16
/// step j reads keys 16j..16j+15: two 8-row groups, 2 KiB into each half.
/// The accumulator layout of S is the A-fragment layout, so P register
/// 4j + r is the pair S[8j + 2r], S[8j + 2r + 1].
__device__ __forceinline__ void pv(float (&o)[D / 2], const uint32_t (&pr)[32],
                                   const void *v, bool accumulate) {
  const uint64_t dv = ts::wgmma::make_desc_mn_sw128(v, kHalfBytes);
#pragma unroll
  for (int j = 0; j < BN / 16; ++j)
    ts::wgmma::mma_rs_bf16<true>(o, pr[4 * j], pr[4 * j + 1], pr[4 * j + 2],
                                 pr[4 * j + 3], dv + uint64_t((j * 2048) >> 4),
                                 accumulate || j > 0);
}

/// A thread's two row reductions (row r: s[4g], s[4g+1]; row r + 8: s[4g+2],
/// s[4g+3]) as trees: 5 dependent steps instead of a chain of 16.
template <class Op>
__device__ __forceinline__ void row_reduce(const float (&s)[64], float &x0,
                                           float &x1, Op op) {
  float a0[8], a1[8];
#pragma unroll
  for (int g = 0; g < 8; ++g) {
    a0[g] = op(op(s[8 * g], s[8 * g + 1]), op(s[8 * g + 4], s[8 * g + 5]));
    a1[g] = op(op(s[8 * g + 2], s[8 * g + 3]), op(s[8 * g + 6], s[8 * g + 7]));
  }
#pragma unroll
  for (int w = 4; w > 0; w /= 2)
#pragma unroll
    for (int g = 0; g < w; ++g) {
      a0[g] = op(a0[g], a0[g + w]);
      a1[g] = op(a1[g], a1[g + w]);
    }
  x0 = a0[0];
  x1 = a1[0];
}

struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};
struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};

/// Row maximum and sum as trees at head dim 128, as chains at 64: ptxas
/// schedules each head dim faster that way (docs/benchmarks.md, session 29).
constexpr bool kTreeRows = D == 128;

/// A consumer thread's online-softmax state for its rows r and r + 8: the
/// running maxima, the running partial sums (the quad's factors agree; the
/// epilogue reduces them) and the factors for O.
struct Softmax {
  float m0, m1, l0, l1, sc0, sc1;
};

/// Online softmax of one key block in place: s becomes exp2(s * scale_log2 -
/// m_new * scale_log2) (fp32), the state moves on. A row lives in the four
/// threads of a quad.
template <bool FIRST>
__device__ __forceinline__ void softmax(float (&s)[64], Softmax &st,
                                        float scale_log2) {
  float mx0 = st.m0, mx1 = st.m1;
  if constexpr (kTreeRows) {
    float t0, t1;
    row_reduce(s, t0, t1, MaxOp());
    mx0 = fmaxf(mx0, t0);
    mx1 = fmaxf(mx1, t1);
  } else {
#pragma unroll
    for (int g = 0; g < 16; ++g) {
      mx0 = fmaxf(mx0, fmaxf(s[4 * g], s[4 * g + 1]));
      mx1 = fmaxf(mx1, fmaxf(s[4 * g + 2], s[4 * g + 3]));
    }
  }
  mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffffu, mx0, 1));
  mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, 1));
  mx0 = fmaxf(mx0, __shfl_xor_sync(0xffffffffu, mx0, 2));
  mx1 = fmaxf(mx1, __shfl_xor_sync(0xffffffffu, mx1, 2));
  // A row with every score masked so far keeps m = -inf: use 0 so that
  // -inf - (-inf) never happens (its p are all 0).
  const float ms0 = mx0 == -INFINITY ? 0.f : mx0 * scale_log2;
  const float ms1 = mx1 == -INFINITY ? 0.f : mx1 * scale_log2;
  if (FIRST) {
    st.sc0 = st.sc1 = 0.f;
  } else {
    st.sc0 = ex2(st.m0 * scale_log2 - ms0);
    st.sc1 = ex2(st.m1 * scale_log2 - ms1);
  }
  float r0 = 0.f, r1 = 0.f;
#pragma unroll
  for (int g = 0; g < 16; ++g) {
    s[4 * g + 0] = ex2(fmaf(s[4 * g + 0], scale_log2, -ms0));
    s[4 * g + 1] = ex2(fmaf(s[4 * g + 1], scale_log2, -ms0));
    s[4 * g + 2] = ex2(fmaf(s[4 * g + 2], scale_log2, -ms1));
    s[4 * g + 3] = ex2(fmaf(s[4 * g + 3], scale_log2, -ms1));
    if constexpr (!kTreeRows) {
      r0 += s[4 * g + 0] + s[4 * g + 1];
      r1 += s[4 * g + 2] + s[4 * g + 3];
    }
  }
  if constexpr (kTreeRows)
    row_reduce(s, r0, r1, SumOp());
  st.l0 = FIRST ? r0 : fmaf(st.l0, st.sc0, r0);
  st.l1 = FIRST ? r1 : fmaf(st.l1, st.sc1, r1);
  st.m0 = mx0;
  st.m1 = mx1;
}

/// Causal mask of a key block: key position > query position -> -inf.
/// q0: this thread's first row's query position; k0: the key position of
/// its first column (n * BN + 2 * (lane % 4)).
__device__ __forceinline__ void causal_mask(float (&s)[64], int q0, int k0) {
#pragma unroll
  for (int g = 0; g < 16; ++g)
#pragma unroll
    for (int e = 0; e < 2; ++e) {
      const int col = k0 + 8 * g + e;
      if (col > q0)
        s[4 * g + e] = -INFINITY;
      if (col > q0 + 8)
        s[4 * g + 2 + e] = -INFINITY;
    }
}

__device__ __forceinline__ void rescale(float (&o)[D / 2], float sc0,
                                        float sc1) {
#pragma unroll
  for (int g = 0; g < D / 8; ++g) {
    o[4 * g + 0] *= sc0;
    o[4 * g + 1] *= sc0;
    o[4 * g + 2] *= sc1;
    o[4 * g + 3] *= sc1;
  }
}

__device__ __forceinline__ void to_bf16(uint32_t (&pr)[32],
                                        const float (&s)[64]) {
#pragma unroll
  for (int i = 0; i < 32; ++i) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(s[2 * i], s[2 * i + 1]);
    pr[i] = *reinterpret_cast<const uint32_t *>(&v);
  }
}

/// Where a consumer thread sits: its lane and its rows r and r + 8 of the
/// warpgroup's 64.
struct Thread {
  unsigned lane, r;
};
/// ptxas schedules the softmax better at head dim 64 with the position
/// read again in each tile, at 128 with it held across tiles (H200:
/// docs/benchmarks.md, session 22).
constexpr bool kThreadPerTile = D == 64;
__device__ __forceinline__ Thread this_thread() {
  const unsigned warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0),
                 lane = threadIdx.x % 32;
  return Thread{lane, warp % 4 * 16 + lane / 4};
}

/// Mask (causal, the tile's first = diagonal block) and softmax of a key block.
__device__ __forceinline__ void first_softmax(const Params &p, float (&s)[64],
                                              Softmax &st, const TileCoords &tc,
                                              int n, unsigned c, Thread th) {
  if (p.causal && n * BN + BN - 1 > tc.mi * BM)
    causal_mask(s, tc.mi * BM + int(c * 64 + th.r),
                n * BN + 2 * int(th.lane % 4));
  softmax<true>(s, st, p.scale_log2);
}

// ---- barriers and stages ----

/// The mbarriers, at kBarOff: full then empty, two stages each, for Q, K
/// and V.
enum Ring : unsigned { kQ = 0, kK = 1, kV = 2 };
__device__ __forceinline__ uint64_t *full_bar(unsigned char *smem, Ring r) {
  return reinterpret_cast<uint64_t *>(smem + kBarOff) + (2 * r) * kStages;
}
__device__ __forceinline__ uint64_t *empty_bar(unsigned char *smem, Ring r) {
  return reinterpret_cast<uint64_t *>(smem + kBarOff) + (2 * r + 1) * kStages;
}

/// A position in a two-stage ring: the slot and the parity to wait for.
struct Slot {
  unsigned index, phase;
};
__device__ __forceinline__ void advance(Slot &s) {
  if (++s.index == kStages) {
    s.index = 0;
    s.phase ^= 1u;
  }
}
/// A stage taken: its slot and its tile.
struct Stage {
  unsigned slot;
  unsigned char *data;
};
static_assert(kQOff == 0 && kKOff == kStages * kTileBytes &&
                  kVOff == 2 * kStages * kTileBytes,
              "the Q, K and V rings lie one after the other, in Ring order");
__device__ __forceinline__ unsigned char *tile(unsigned char *smem, Ring r,
                                               unsigned slot) {
  return smem + r * kStages * kTileBytes + slot * kTileBytes;
}
/// Waits for the slot's full barrier and moves on; returns the stage taken.
__device__ __forceinline__ Stage take(unsigned char *smem, Ring r, Slot &s) {
  ts::detail::wait_parity(full_bar(smem, r) + s.index, s.phase);
  const Stage st{s.index, tile(smem, r, s.index)};
  advance(s);
  return st;
}
/// One arrival per warp on the stage's empty barrier (the warp's reads were
/// wgmmas a warp-aligned wait_group saw complete).
__device__ __forceinline__ void give_back(unsigned char *smem, Ring r,
                                          const Stage &st) {
  ts::detail::arrive_lane0(empty_bar(smem, r) + st.slot);
}

/// The producer's side: waits until the slot is empty, then lane 0 arms its
/// full barrier with the tile's bytes. The whole warp waits, so no lane
/// runs ahead of the arming.
__device__ __forceinline__ Stage fill(unsigned char *smem, Ring r, Slot &s) {
  ts::detail::wait_parity(empty_bar(smem, r) + s.index, s.phase);
  __syncwarp();
  if (ts::detail::lane_index() == 0)
    ts::detail::arrive_expect_tx(full_bar(smem, r) + s.index, kTileBytes);
  const Stage st{s.index, tile(smem, r, s.index)};
  advance(s);
  return st;
}
/// Both halves of a 128-row tile from `map`, rows from `row`, by lane 0.
__device__ __forceinline__ void load_tile(unsigned char *smem, Ring r,
                                          const Stage &st,
                                          const CUtensorMap *map, int head,
                                          int row) {
  for (int h = 0; h < kHalves; ++h)
    if (ts::detail::lane_index() == 0)
      cuda::ptx::cp_async_bulk_tensor(
          cuda::ptx::space_cluster, cuda::ptx::space_global,
          st.data + h * kHalfBytes, map, {64 * h, head, row},
          full_bar(smem, r) + st.slot);
}
/// Waits until every stage of the ring is handed back.
__device__ __forceinline__ void drain(unsigned char *smem, Ring r, Slot &s) {
  for (unsigned i = 0; i < kStages; ++i) {
    ts::detail::wait_parity(empty_bar(smem, r) + s.index, s.phase);
    advance(s);
  }
}

// ---- ping-pong: named barriers 4 (consumer 0) and 5 (consumer 1) ----

template <bool PINGPONG> __device__ __forceinline__ void take_turn(unsigned c) {
  if constexpr (PINGPONG)
    asm volatile("bar.sync %0, 256;\n" : : "r"(kTurnBar0 + c) : "memory");
}
template <bool PINGPONG> __device__ __forceinline__ void pass_turn(unsigned c) {
  if constexpr (PINGPONG)
    asm volatile("bar.arrive %0, 256;\n"
                 :
                 : "r"(kTurnBar0 + (c ^ 1u))
                 : "memory");
}

// ---- the producer: warp 0, lane 0 issues ----

__device__ __forceinline__ void producer(const Params &p, unsigned char *smem,
                                         Slot &q, Slot &k, Slot &v) {
  for (int t = blockIdx.x, end = p.num_tiles, step = gridDim.x; t < end;
       t += step) {
    const TileCoords tc = tile_coords(p, t);
    const int row0 = tc.b * p.seqlen;
    const int nb = n_blocks_of(p, tc);
    load_tile(smem, kQ, fill(smem, kQ, q), &p.q, tc.h, row0 + tc.mi * BM);
    // Key blocks from the last down (causal: the diagonal first); V one
    // block behind K, in the order the consumers read them.
    load_tile(smem, kK, fill(smem, kK, k), &p.k, tc.h, row0 + (nb - 1) * BN);
    for (int i = 1; i < nb; ++i) {
      const int n = nb - 1 - i;
      load_tile(smem, kK, fill(smem, kK, k), &p.k, tc.h, row0 + n * BN);
      load_tile(smem, kV, fill(smem, kV, v), &p.v, tc.h, row0 + (n + 1) * BN);
    }
    load_tile(smem, kV, fill(smem, kV, v), &p.v, tc.h, row0);
  }
  // Drain: every stage handed back before the producer leaves.
  drain(smem, kQ, q);
  drain(smem, kK, k);
  drain(smem, kV, v);
}

// ---- the consumers' epilogue ----

/// O / l of this warpgroup's 64 rows into its staging buffer as 64 x 64
/// halves (columns 0..63, then 64..127), 128-byte swizzled (16-byte chunk j
/// of row r at j ^ (r % 8): conflict-free), stored by TMA; or (TMA_STORE
/// false) straight from registers. LSE from registers. The previous tile's
/// stores must have read the buffer first.
template <bool TMA_STORE>
__device__ __forceinline__ void
store_out(const Params &p, const float (&o)[D / 2], Softmax &st,
          const TileCoords &tc, unsigned c, Thread th,
          __nv_bfloat16 (&half)[kHalves][64 * 64]) {
  const unsigned lane = th.lane, r = th.r;
  float l0 = st.l0, l1 = st.l1;
  l0 += __shfl_xor_sync(0xffffffffu, l0, 1);
  l1 += __shfl_xor_sync(0xffffffffu, l1, 1);
  l0 += __shfl_xor_sync(0xffffffffu, l0, 2);
  l1 += __shfl_xor_sync(0xffffffffu, l1, 2);
  const float inv0 = 1.f / l0, inv1 = 1.f / l1;
  if constexpr (TMA_STORE) {
    const bool issuer = threadIdx.x % 128 == 0;
    if (issuer)
      ts::tma::wait_store_reads<0>();
    ts::sync_warpgroup();
#pragma unroll
    for (int g = 0; g < D / 8; ++g) {
      unsigned char *const rows =
          reinterpret_cast<unsigned char *>(half[g / 8]);
      const unsigned off = ((unsigned(g % 8) ^ (r & 7u)) << 4) + (lane % 4) * 4;
      *reinterpret_cast<__nv_bfloat162 *>(rows + r * 128 + off) =
          __floats2bfloat162_rn(o[4 * g + 0] * inv0, o[4 * g + 1] * inv0);
      *reinterpret_cast<__nv_bfloat162 *>(rows + (r + 8) * 128 + off) =
          __floats2bfloat162_rn(o[4 * g + 2] * inv1, o[4 * g + 3] * inv1);
    }
    ts::tma::store_fence(); // visible to the TMA unit
    ts::sync_warpgroup();
    const int row = tc.b * p.seqlen + tc.mi * BM + int(c) * 64;
    if (issuer)
      for (int h = 0; h < kHalves; ++h)
        ts::tma::issue_store(&p.o_map, {64 * h, tc.h, row}, half[h]);
  } else {
    const int q_pos0 = tc.mi * BM + int(c * 64 + r);
    const size_t row_stride = size_t(p.heads) * D; // elements between tokens
    __nv_bfloat16 *const o0 = p.o +
                              (size_t(tc.b) * p.seqlen + q_pos0) * row_stride +
                              size_t(tc.h) * D + 2 * (lane % 4);
    __nv_bfloat16 *const o1 = o0 + 8 * row_stride;
#pragma unroll
    for (int g = 0; g < D / 8; ++g) {
      *reinterpret_cast<__nv_bfloat162 *>(o0 + 8 * g) =
          __floats2bfloat162_rn(o[4 * g + 0] * inv0, o[4 * g + 1] * inv0);
      *reinterpret_cast<__nv_bfloat162 *>(o1 + 8 * g) =
          __floats2bfloat162_rn(o[4 * g + 2] * inv1, o[4 * g + 3] * inv1);
    }
  }
  if (lane % 4 == 0) {
    const int q_pos0 = tc.mi * BM + int(c * 64 + r);
    float *const lse =
        p.lse + (size_t(tc.b) * p.heads + tc.h) * p.seqlen + q_pos0;
    lse[0] = st.m0 * p.scale + logf(l0);
    lse[8] = st.m1 * p.scale + logf(l1);
  }
}

// ---- the consumers ----

/// Consumer c's O staging buffer: 64 rows as two 64 x 64 bf16 halves.
template <unsigned C>
__device__ __forceinline__
__nv_bfloat16 (&staging(unsigned char *smem))[kHalves][64 * 64] {
  return *reinterpret_cast<__nv_bfloat16(*)[kHalves][64 * 64]>(
      smem + kOOff + C * kOBytesPerWg);
}

/// Consumer warpgroup C (0: warps 4-7, query rows 0-63; 1: warps 8-11, rows
/// 64-127). A template, so that its rows, turn barriers and staging buffer
/// are constants, as in the libts kernel's two consumer tasks. Each wait
/// moves its slot on at once and the release names the slot it took, as
/// libts's wait() and release() do.
template <bool PINGPONG, bool TMA_STORE, unsigned C>
__device__ __forceinline__ void consumer(const Params &p, unsigned char *smem,
                                         Slot &q, Slot &k, Slot &v) {
  float o[D / 2], s[64];
  uint32_t pr[32];
  const Thread th0 = this_thread();
  for (int t = blockIdx.x, end = p.num_tiles, step = gridDim.x; t < end;
       t += step) {
    const Thread th = kThreadPerTile ? this_thread() : th0;
    const TileCoords tc = tile_coords(p, t);
    const int nb = n_blocks_of(p, tc);
    Softmax st{-INFINITY, -INFINITY, 0.f, 0.f, 0.f, 0.f};
    const Stage sq = take(smem, kQ, q);
    const unsigned char *const qrows = sq.data + C * 64 * 128; // our rows
    const Stage sk = take(smem, kK, k); // the first key block: S only
    take_turn<PINGPONG>(C);
    ts::wgmma::fence();
    qk(s, qrows, sk.data);
    ts::wgmma::commit_group();
    pass_turn<PINGPONG>(C);
    ts::wgmma::wait_group<0>();
    ts::wgmma::fence_operand(s);
    give_back(smem, kK, sk);
    first_softmax(p, s, st, tc, nb - 1, C, th);
    for (int i = 1; i < nb; ++i) {
      // P of the previous block. Converted here, at the top of the loop, and
      // not at the end of the previous step: there ptxas hoists that step's
      // wait_group 0 above its softmax (to write the P registers the
      // in-flight PV reads), and nothing overlaps PV (seen in SASS).
      to_bf16(pr, s);
      const Stage sk = take(smem, kK, k);
      const Stage sv = take(smem, kV, v); // V of the previous block
      take_turn<PINGPONG>(C);
      ts::wgmma::fence();
      qk(s, qrows, sk.data);
      ts::wgmma::commit_group();
      // O to the running max of the previous softmax (as FA3 does, here
      // rather than after the wait below, so that only the P conversion
      // waits for PV). i == 1: the PV below overwrites O.
      rescale(o, st.sc0, st.sc1);
      ts::wgmma::fence(); // the accumulator was just written
      pv(o, pr, sv.data, i > 1);
      ts::wgmma::commit_group();
      pass_turn<PINGPONG>(C);
      ts::wgmma::wait_group<1>(); // S done
      ts::wgmma::fence_operand(s);
      give_back(smem, kK, sk);
      // No mask here: with BN == BM only the first (diagonal) block needs
      // one (and a branch here would end the basic block, see
      // ts::detail::arrive_lane0).
      softmax<false>(s, st, p.scale_log2); // overlaps PV
      // Pins the softmax before the wait: without it nvcc sinks the ex2s to
      // their use after wait_group 0, and nothing overlaps PV (seen in SASS).
      ts::wgmma::fence_operand(s);
      // P live through the softmax, and a basic-block boundary that ptxas
      // does not hoist the wait below across (include/ts/wgmma.h).
      ts::wgmma::keep_live(pr);
      ts::wgmma::wait_group<0>(); // PV done: V stage and P registers free
      ts::wgmma::fence_operand(o);
      give_back(smem, kV, sv);
    }
    give_back(smem, kQ, sq); // every QK^T of the tile has read Q
    to_bf16(pr, s);          // the last PV
    const Stage sv = take(smem, kV, v);
    if (nb > 1)
      rescale(o, st.sc0, st.sc1);
    take_turn<PINGPONG>(C);
    ts::wgmma::fence();
    pv(o, pr, sv.data, nb > 1);
    ts::wgmma::commit_group();
    pass_turn<PINGPONG>(C);
    ts::wgmma::wait_group<0>();
    ts::wgmma::fence_operand(o);
    give_back(smem, kV, sv);
    store_out<TMA_STORE>(p, o, st, tc, C, th, staging<C>(smem));
  }
}

/// The TMA stores a consumer issued have read its staging buffer before
/// the CTA leaves.
template <bool TMA_STORE> __device__ __forceinline__ void drain_stores() {
  if constexpr (TMA_STORE)
    ts::detail::wait_bulk_reads();
}

template <bool PINGPONG, bool TMA_STORE>
__global__ void __launch_bounds__(kThreads, 1)
    attention_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  unsigned char *const smem = ts::detail::align_base<1024>(smem_raw);
  const unsigned warp = ts::detail::warp_index();
  if (threadIdx.x == 0) {
    for (Ring r : {kQ, kK, kV}) {
      ts::detail::init_barriers(full_bar(smem, r), kStages, 1);
      ts::detail::init_barriers(empty_bar(smem, r), kStages, kConsumerWarps);
    }
    ts::detail::fence_barrier_init();
  }
  __syncthreads();
  if (warp < 4) { // the producer warpgroup: warp 0 loads, warps 1-3 leave
    ts::detail::setmaxnreg_dec<kProducerRegs>();
    if (warp < 1) {
      Slot q{0u, 1u}, k{0u, 1u},
          v{0u, 1u}; // fresh barriers: the first waits pass
      producer(p, smem, q, k, v);
    }
  } else if (warp >= 4 && warp < 12) { // the consumer warpgroups
    ts::detail::setmaxnreg_inc<kConsumerRegs>();
    if (warp >= 4 && warp < 8) {
      Slot q{0u, 0u}, k{0u, 0u}, v{0u, 0u};
      consumer<PINGPONG, TMA_STORE, 0>(p, smem, q, k, v);
      drain_stores<TMA_STORE>();
    } else if (warp >= 8 && warp < 12) {
      Slot q{0u, 0u}, k{0u, 0u}, v{0u, 0u};
      if (PINGPONG) // consumer 0 takes the first turn
        asm volatile("bar.arrive %0, 256;\n" : : "r"(kTurnBar0) : "memory");
      consumer<PINGPONG, TMA_STORE, 1>(p, smem, q, k, v);
      drain_stores<TMA_STORE>();
    }
  }
}

// ---- host ----

/// 3D map of a [rows][heads][D] bf16 tensor (rows = batch * seqlen): dims
/// (d, head, row), box 64 x 1 x 128, 128-byte swizzle. ts/tensor_map.h has
/// only a 2D encoder, so this calls its driver entry point directly.
static cudaError_t encode_qkv(CUtensorMap *map, const void *base, int rows,
                              int heads, unsigned box_rows = 128) {
  cudaError_t err;
  const PFN_cuTensorMapEncodeTiled_v12000 fn =
      ts::tensor_map::encode_tiled_fn(&err);
  if (!fn)
    return err;
  const cuuint64_t dims[3] = {cuuint64_t(D), cuuint64_t(heads),
                              cuuint64_t(rows)};
  const cuuint64_t strides[2] = {cuuint64_t(D) * 2, cuuint64_t(heads) * D * 2};
  const cuuint32_t box[3] = {64, 1, box_rows};
  const cuuint32_t elem_strides[3] = {1, 1, 1};
  const CUresult r =
      fn(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void *>(base),
         dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
         CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

template <bool PINGPONG, bool TMA_STORE>
static int run(const void *q, const void *k, const void *v, void *o, float *lse,
               int batch, int seqlen, int heads, int head_dim, int causal,
               cudaStream_t stream) {
  if (head_dim != D || seqlen <= 0 || seqlen % BM != 0 || seqlen % BN != 0 ||
      batch <= 0 || heads <= 0 ||
      int64_t(batch) * seqlen >= (int64_t(1) << 31) ||
      ((reinterpret_cast<uintptr_t>(q) | reinterpret_cast<uintptr_t>(k) |
        reinterpret_cast<uintptr_t>(v) | reinterpret_cast<uintptr_t>(o)) %
       16) != 0 ||
      (reinterpret_cast<uintptr_t>(lse) % 4) != 0)
    return 1;
  auto kernel = attention_kernel<PINGPONG, TMA_STORE>;
  static int sms = 0;
  if (sms == 0) {
    int dev = 0;
    if (cudaFuncSetAttribute(kernel,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(kSmemBytes)) != cudaSuccess ||
        cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) !=
            cudaSuccess) {
      sms = 0;
      return 2;
    }
  }
  // Maps re-encoded only when the tensors or the shape change.
  struct cache_t {
    const void *q = nullptr, *k = nullptr, *v = nullptr, *o = nullptr;
    int rows = 0, heads = 0;
    CUtensorMap mq, mk, mv, mo;
  };
  static thread_local cache_t cache;
  const int rows = batch * seqlen;
  if (cache.q != q || cache.k != k || cache.v != v || cache.o != o ||
      cache.rows != rows || cache.heads != heads) {
    if (encode_qkv(&cache.mq, q, rows, heads) != cudaSuccess ||
        encode_qkv(&cache.mk, k, rows, heads) != cudaSuccess ||
        encode_qkv(&cache.mv, v, rows, heads) != cudaSuccess ||
        encode_qkv(&cache.mo, o, rows, heads, 64) != cudaSuccess) {
      cache.q = nullptr;
      return 2;
    }
    cache.q = q;
    cache.k = k;
    cache.v = v;
    cache.o = o;
    cache.rows = rows;
    cache.heads = heads;
  }
  Params p;
  p.q = cache.mq;
  p.k = cache.mk;
  p.v = cache.mv;
  p.o_map = cache.mo;
  p.o = static_cast<__nv_bfloat16 *>(o);
  p.lse = lse;
  p.seqlen = seqlen;
  p.heads = heads;
  p.m_blocks = seqlen / BM;
  p.n_blocks = seqlen / BN;
  p.num_tiles = batch * heads * p.m_blocks;
  p.bh_count = batch * heads;
  // Causal: a quarter of the grid's worth of heads at a time, so that about
  // four CTAs walk each head's K and V together (docs/benchmarks.md).
  p.section_heads = std::max(1, std::min(p.bh_count, sms / 4));
  p.causal = causal ? 1 : 0;
  p.scale = 1.f / std::sqrt(float(D));
  p.scale_log2 = p.scale * 1.4426950408889634f;
  const int grid = p.num_tiles < sms ? p.num_tiles : sms;
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(p);
  return cudaGetLastError() == cudaSuccess ? 0 : 2;
}

} // namespace attn_hand

extern "C" int attention_sm90_hand(const void *q, const void *k, const void *v,
                                   void *o, float *lse, int batch, int seqlen,
                                   int heads, int head_dim, int causal,
                                   cudaStream_t stream) {
  return attn_hand::run<true, true>(q, k, v, o, lse, batch, seqlen, heads,
                                    head_dim, causal, stream);
}

extern "C" int attention_sm90_hand_nopp(const void *q, const void *k,
                                        const void *v, void *o, float *lse,
                                        int batch, int seqlen, int heads,
                                        int head_dim, int causal,
                                        cudaStream_t stream) {
  return attn_hand::run<false, true>(q, k, v, o, lse, batch, seqlen, heads,
                                     head_dim, causal, stream);
}

extern "C" int attention_sm90_hand_regstore(const void *q, const void *k,
                                            const void *v, void *o, float *lse,
                                            int batch, int seqlen, int heads,
                                            int head_dim, int causal,
                                            cudaStream_t stream) {
  return attn_hand::run<true, false>(q, k, v, o, lse, batch, seqlen, heads,
                                     head_dim, causal, stream);
}

#ifndef ATTN_HAND_LIBRARY
// Self-check: random inputs, both entry points, non-causal and causal,
// against a double-precision CPU reference (every row for small shapes,
// otherwise 512 sampled query rows per run).
#include <cstdlib>
#include <vector>

static float bf16_to_float(__nv_bfloat16 x) { return __bfloat162float(x); }

int main(int argc, char **argv) {
  const int B = argc > 1 ? std::atoi(argv[1]) : 1;
  const int S = argc > 2 ? std::atoi(argv[2]) : 256;
  const int H = argc > 3 ? std::atoi(argv[3]) : 2;
  const int Dh = attn_hand::D;
  const size_t n = size_t(B) * S * H * Dh;
  std::vector<__nv_bfloat16> hq(n), hk(n), hv(n), ho(n);
  uint32_t seed = 12345u;
  auto rnd = [&]() { // uniform in [-2, 2)
    seed = seed * 1664525u + 1013904223u;
    return (float((seed >> 8) & 0xFFFFFF) / float(1 << 24)) * 4.f - 2.f;
  };
  for (size_t i = 0; i < n; ++i) {
    hq[i] = __float2bfloat16(rnd());
    hk[i] = __float2bfloat16(rnd());
    hv[i] = __float2bfloat16(rnd());
  }
  __nv_bfloat16 *dq, *dk, *dv, *dout;
  float *dlse;
  const size_t nl = size_t(B) * H * S;
  if (cudaMalloc(&dq, n * 2) || cudaMalloc(&dk, n * 2) ||
      cudaMalloc(&dv, n * 2) || cudaMalloc(&dout, n * 2) ||
      cudaMalloc(&dlse, nl * 4)) {
    std::printf("cudaMalloc failed\n");
    return 2;
  }
  cudaMemcpy(dq, hq.data(), n * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dk, hk.data(), n * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, hv.data(), n * 2, cudaMemcpyHostToDevice);
  std::vector<float> hl(nl);
  const double scale = 1.0 / std::sqrt(double(Dh));
  const bool all_rows = size_t(B) * H * S <= 4096;
  int failures = 0;
  static const char *const names[3] = {"pingpong", "nopp", "regstore"};
  for (int variant = 0; variant < 3; ++variant)
    for (int causal = 0; causal < 2; ++causal) {
      cudaMemset(dout, 0xFF, n * 2); // NaN pattern: unwritten outputs fail
      cudaMemset(dlse, 0xFF, nl * 4);
      const int rc = variant == 0 ? attention_sm90_hand(dq, dk, dv, dout, dlse,
                                                        B, S, H, Dh, causal, 0)
                     : variant == 1
                         ? attention_sm90_hand_nopp(dq, dk, dv, dout, dlse, B,
                                                    S, H, Dh, causal, 0)
                         : attention_sm90_hand_regstore(dq, dk, dv, dout, dlse,
                                                        B, S, H, Dh, causal, 0);
      const cudaError_t e = cudaDeviceSynchronize();
      if (rc != 0 || e != cudaSuccess) {
        std::printf("%s causal=%d: rc=%d, %s\n", names[variant], causal, rc,
                    cudaGetErrorString(e));
        return 2;
      }
      cudaMemcpy(ho.data(), dout, n * 2, cudaMemcpyDeviceToHost);
      cudaMemcpy(hl.data(), dlse, nl * 4, cudaMemcpyDeviceToHost);
      double max_o = 0, max_l = 0;
      std::vector<double> sc(S), acc(Dh);
      const int rows = all_rows ? B * H * S : 512;
      for (int r = 0; r < rows; ++r) {
        const size_t idx =
            all_rows ? size_t(r)
                     : (size_t(r) * 2654435761u) % (size_t(B) * H * S);
        const int b = int(idx / (size_t(H) * S)), h = int(idx / S % H),
                  i = int(idx % S);
        const int kend = causal ? i + 1 : S;
        double mx = -1e300;
        for (int j = 0; j < kend; ++j) {
          double d = 0;
          for (int x = 0; x < Dh; ++x)
            d += double(bf16_to_float(
                     hq[((size_t(b) * S + i) * H + h) * Dh + x])) *
                 double(
                     bf16_to_float(hk[((size_t(b) * S + j) * H + h) * Dh + x]));
          sc[j] = d * scale;
          mx = sc[j] > mx ? sc[j] : mx;
        }
        double sum = 0;
        for (int x = 0; x < Dh; ++x)
          acc[x] = 0;
        for (int j = 0; j < kend; ++j) {
          const double w = std::exp(sc[j] - mx);
          sum += w;
          for (int x = 0; x < Dh; ++x)
            acc[x] += w * double(bf16_to_float(
                              hv[((size_t(b) * S + j) * H + h) * Dh + x]));
        }
        for (int x = 0; x < Dh; ++x) {
          const double got =
              bf16_to_float(ho[((size_t(b) * S + i) * H + h) * Dh + x]);
          const double err = std::fabs(got - acc[x] / sum);
          max_o =
              (err > max_o || err != err) ? (err != err ? 1e30 : err) : max_o;
        }
        const double lse_ref = mx + std::log(sum);
        const double got_l = hl[(size_t(b) * H + h) * S + i];
        const double err_l = std::fabs(got_l - lse_ref);
        max_l = (err_l > max_l || err_l != err_l)
                    ? (err_l != err_l ? 1e30 : err_l)
                    : max_l;
      }
      const bool ok = max_o < 2e-2 && max_l < 1e-3;
      failures += !ok;
      std::printf("%-8s B=%d S=%d H=%d D=%d causal=%d rows=%d: max|O-ref|=%.3e "
                  "max|LSE-ref|=%.3e %s\n",
                  names[variant], B, S, H, Dh, causal, rows, max_o, max_l,
                  ok ? "ok" : "FAIL");
    }
  cudaFree(dq);
  cudaFree(dk);
  cudaFree(dv);
  cudaFree(dout);
  cudaFree(dlse);
  return failures ? 1 : 0;
}
#endif
