// Hopper grouped bf16 GEMM written with libts (MoE-style): for each group
// g, C_g = A_g x B_g^T, with A_g M_g x K_g, B_g N_g x K_g (both K-major) and
// C_g M_g x N_g row-major, bf16 in, fp32 accumulate, bf16 out. One launch
// runs every group; a mixture-of-experts layer's experts are the groups,
// each with its own number of tokens M_g.
//
// The GEMM of examples/gemm_sm90.cu (128 x 256 tiles, a 4-stage operand
// pipeline, two consumer warpgroups, one persistent CTA per SM) over the
// tiles of all groups in one list: group g's tiles follow group g - 1's,
// and CTA b runs tiles b, b + grid, ... Each group has its own three TMA
// descriptors in the parameters; a tile's k-loop runs K_g / 64 steps, a
// count that differs from tile to tile, which the verifier proves for every
// sequence of counts. Ragged edges need no code: TMA fills the rows and
// columns of a box beyond the matrix with zeros on load and drops them on
// store, so M_g, N_g and K_g need only be multiples of 8 (16-byte rows)
// for N_g and K_g, and M_g may be anything, 0 included.
//
//   ./gemm_grouped_sm90 [reps = 20 [M N K]...]
// gpu-run-args: 20
// gpu-run-sanitize-args: 1 100 256 128 0 64 64 300 520 200 128 256 64
#include <ts/ts.h>
#include <ts/tensor_map.h>

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace gemm_grouped {

constexpr int BM = 128, BN = 256, BK = 64; // BK: one 128-byte swizzle row of bf16
constexpr int kGroupM = 16;                // rasterization inside a group
constexpr int kEpiCols = 64;               // epilogue chunk: 64 x 64 bf16
constexpr int kMaxGroups = 16;             // 16 x 3 descriptors: 6 KiB of parameters

struct Params {
  ts::tma::map<__nv_bfloat16, BM, BK> a[kMaxGroups];
  ts::tma::map<__nv_bfloat16, BN, BK> b[kMaxGroups];
  ts::tma::map<__nv_bfloat16, 64, 64> c[kMaxGroups]; // the epilogue's TMA stores
  int k_tiles[kMaxGroups];        // ceil(K_g / 64)
  int units_m[kMaxGroups];        // ceil(M_g / 128)
  int units_n[kMaxGroups];        // ceil(N_g / 256)
  int first[kMaxGroups + 1];      // group g's tiles: first[g] .. first[g + 1] - 1
  int groups;
  int units; // tiles of all groups
};

struct [[ts::resource(ts::tma_async, ts::stages(4), ts::swizzled)]] Operands {
  __nv_bfloat16 a[BM * BK]; // 16 KiB
  __nv_bfloat16 b[BN * BK]; // 32 KiB
};

/// The mma task's own epilogue buffers: two 64 x 64 chunks per warpgroup.
struct [[ts::resource(ts::task_owned, ts::swizzled)]] Staging {
  __nv_bfloat16 chunk[2][2][64 * kEpiCols]; // [warpgroup][buffer], 32 KiB
};

struct Tile {
  int g, mb, nb; // group, M-block and N-block in it
};

/// Tile u of the list: its group by a scan of at most 16 prefix sums (a
/// group with no tiles is skipped: its first equals the next one's), then
/// its place in the group in groups of kGroupM M-blocks, column by column,
/// so CTAs running together share B columns in L2.
__device__ __forceinline__ Tile tile_of(const Params &p, int u) {
  Tile t{0, 0, 0};
  while (t.g + 1 < p.groups && p.first[t.g + 1] <= u)
    ++t.g;
  const int um = p.units_m[t.g], r0 = u - p.first[t.g];
  const int per_group = kGroupM * p.units_n[t.g];
  const int first = (r0 / per_group) * kGroupM;
  const int h = min(kGroupM, um - first);
  const int r = r0 % per_group;
  t.mb = first + r % h;
  t.nb = r / h;
  return t;
}

/// A warpgroup's 64 x 256 slice through its two buffers, as in
/// examples/gemm_sm90.cu: each 64 x 64 chunk converted to bf16, written
/// 128-byte swizzled and stored by TMA while the next one is filled; the
/// store drops what lies beyond C_g.
__device__ __forceinline__ void store_slice(const Params &p, const float (&acc)[BN / 2],
                                            const Tile &t, unsigned wg,
                                            __nv_bfloat16 (&bufs)[2][64 * kEpiCols]) {
  const unsigned warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const bool issuer = threadIdx.x % 128 == 0;
  const unsigned r = warp * 16 + lane / 4; // rows r and r + 8 of the chunk
#pragma unroll
  for (int j = 0; j < BN / kEpiCols; ++j) {
    unsigned char *const buf = reinterpret_cast<unsigned char *>(bufs[j & 1]);
    if (issuer) // the store from this buffer two chunks ago has read it
      ts::tma::wait_store_reads<1>();
    ts::sync_warpgroup();
#pragma unroll
    for (int gg = 0; gg < kEpiCols / 8; ++gg) {
      const int g = j * (kEpiCols / 8) + gg;
      const unsigned off = ((unsigned(gg) ^ (r & 7u)) << 4) + (lane % 4) * 4;
      *reinterpret_cast<__nv_bfloat162 *>(buf + r * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 0], acc[4 * g + 1]);
      *reinterpret_cast<__nv_bfloat162 *>(buf + (r + 8) * 128 + off) =
          __floats2bfloat162_rn(acc[4 * g + 2], acc[4 * g + 3]);
    }
    ts::tma::store_fence(); // visible to the TMA unit
    ts::sync_warpgroup();
    if (issuer)
      ts::tma::issue_store(&p.c[t.g], {t.nb * BN + j * kEpiCols, t.mb * BM + int(wg) * 64}, buf);
  }
}

[[ts::task(ts::warps(8, 1), ts::regs(40))]]
__device__ void load(const Params &p, ts::producer<Operands> ops) {
  for (auto u : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    const Tile t = tile_of(p, int(u));
    // K_g > 0 for a group with tiles: the host checks.
    for (auto k : ts::domain(0, p.k_tiles[t.g]).nonempty()) {
      auto s = ops.acquire();
      ts::tma::load(s->a, &p.a[t.g], {int(k) * BK, t.mb * BM}, s.barrier());
      ts::tma::load(s->b, &p.b[t.g], {int(k) * BK, t.nb * BN}, s.barrier());
      ops.commit(s);
    }
  }
}

[[ts::task(ts::warps(0, 8), ts::regs(232))]]
__device__ void mma(const Params &p, ts::consumer<Operands> ops, ts::owned<Staging> out) {
  const unsigned wg = ts::warpgroup_index();
  float acc[BN / 2];
  for (auto u : ts::domain(blockIdx.x, p.units, gridDim.x)) {
    const Tile t = tile_of(p, int(u));
    ts::stage<Operands> prev; // the stage the MMAs of the previous k-step read
    for (auto k : ts::domain(0, p.k_tiles[t.g]).nonempty()) {
      auto s = ops.wait();
      const uint64_t da = ts::wgmma::make_desc_sw128(s->a + wg * 64 * BK); // this WG's rows
      const uint64_t db = ts::wgmma::make_desc_sw128(s->b);
      ts::wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        ts::wgmma::mma_bf16(acc, ts::wgmma::advance_k(da, kk * 32),
                            ts::wgmma::advance_k(db, kk * 32), int(k) > 0 || kk > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<1>(); // the previous step's MMAs are done reading
      if (!k.first())
        ops.release(prev);
      prev = s;
    }
    ts::wgmma::wait_group<0>(); // the tile's last MMAs, then their stage
    ts::wgmma::fence_operand(acc);
    ops.release(prev);
    store_slice(p, acc, t, wg, out->chunk[wg]);
  }
}

[[ts::kernel(load, mma)]]
__global__ void gemm_grouped_kernel(const __grid_constant__ Params p);

} // namespace gemm_grouped

/// One group of a grouped GEMM: C = A x B^T, A M x K, B N x K, C M x N.
struct GroupedProblem {
  const __nv_bfloat16 *A, *B;
  __nv_bfloat16 *C;
  int M, N, K;
};

/// Launches every group in one kernel. At most 16 groups; a group may have
/// M = 0; otherwise N and K must be positive multiples of 8 and the
/// pointers 16-byte aligned. Anything else is refused with a message.
cudaError_t gemm_grouped_sm90_libts(const GroupedProblem *groups, int count, cudaStream_t s) {
  using namespace gemm_grouped;
  if (count < 0 || count > kMaxGroups) {
    std::fprintf(stderr, "gemm_grouped_sm90_libts: %d groups: at most %d per launch\n", count,
                 kMaxGroups);
    return cudaErrorInvalidValue;
  }
  Params p = {};
  p.groups = count;
  for (int g = 0; g < count; ++g) {
    const GroupedProblem &q = groups[g];
    p.first[g] = p.units;
    if (q.M < 0 || q.N <= 0 || q.K <= 0 || q.N % 8 || q.K % 8) {
      std::fprintf(stderr,
                   "gemm_grouped_sm90_libts: group %d: unsupported shape M=%d N=%d K=%d: M must "
                   "be at least 0, N and K positive multiples of 8\n",
                   g, q.M, q.N, q.K);
      return cudaErrorInvalidValue;
    }
    if (q.M == 0)
      continue; // no tiles, no descriptors
    cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&p.a[g], q.A, q.M, q.K);
    if (e == cudaSuccess)
      e = ts::tensor_map::kmajor_bf16_sw128(&p.b[g], q.B, q.N, q.K);
    if (e == cudaSuccess) // C as rows of N: 64 x 64 boxes, swizzled like the buffers
      e = ts::tensor_map::kmajor_bf16_sw128(&p.c[g], q.C, q.M, q.N);
    if (e != cudaSuccess)
      return e;
    p.k_tiles[g] = (q.K + BK - 1) / BK;
    p.units_m[g] = (q.M + BM - 1) / BM;
    p.units_n[g] = (q.N + BN - 1) / BN;
    p.units += p.units_m[g] * p.units_n[g];
  }
  p.first[count] = p.units;
  if (p.units == 0)
    return cudaSuccess;
  int ctas = 0; // persistent: as many CTAs as run at once
  cudaError_t e = ts::resident_ctas<gemm_grouped_kernel>(ctas);
  if (e != cudaSuccess)
    return e;
  return ts::launch<gemm_grouped_kernel>(dim3(std::min(ctas, p.units)), s, p);
}

#ifndef GEMM_NO_MAIN

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t err_ = (x);                                                                    \
    if (err_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                            \
    }                                                                                          \
  } while (0)

/// fp32 reference of C[r][c] on the device, one thread per element.
__global__ void reference(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N,
                          int K) {
  const int r = blockIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= N)
    return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += __bfloat162float(A[size_t(r) * K + k]) * __bfloat162float(B[size_t(c) * K + k]);
  C[size_t(r) * N + c] = acc;
}

/// max |C - ref| / max |ref| of one group, against the fp32 reference.
static double group_error(const GroupedProblem &q) {
  if (q.M == 0)
    return 0;
  float *R;
  const size_t n = size_t(q.M) * q.N;
  CHECK(cudaMalloc(&R, n * 4));
  const __nv_bfloat16 *a = q.A, *b = q.B;
  int m = q.M, nn = q.N, k = q.K;
  void *args[] = {&a, &b, &R, &m, &nn, &k}; // cudaLaunchKernel: clang 19 has no <<<>>> here
  CHECK(cudaLaunchKernel(reinterpret_cast<const void *>(reference), dim3((q.N + 255) / 256, q.M),
                         dim3(256), args, 0, 0));
  std::vector<__nv_bfloat16> hc(n);
  std::vector<float> hr(n);
  CHECK(cudaMemcpy(hc.data(), q.C, n * 2, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hr.data(), R, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(R));
  double max_err = 0, max_ref = 0;
  for (size_t e = 0; e < n; ++e) {
    max_err = std::max(max_err, double(std::fabs(__bfloat162float(hc[e]) - hr[e])));
    max_ref = std::max(max_ref, double(std::fabs(hr[e])));
  }
  return max_err / std::max(max_ref, 1e-30);
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  // Default: eight experts of a mixture-of-experts layer with uneven token
  // counts (one with none, several not multiples of 128), then groups of
  // other N and K.
  std::vector<int> shapes = {1024, 4096, 4096, 3000, 4096, 4096, 0,    4096, 4096, 2048,
                             4096, 4096, 777,  4096, 4096, 4096, 4096, 4096, 1920, 4096,
                             4096, 256,  2048, 1024, 640,  1000, 2056, 1536, 4096, 512};
  if (argc > 2) {
    shapes.clear();
    for (int i = 2; i < argc; ++i)
      shapes.push_back(std::atoi(argv[i]));
  }
  if (reps < 1 || shapes.size() % 3) {
    std::fprintf(stderr, "usage: %s [reps >= 1 [M N K]...]\n", argv[0]);
    return 2;
  }
  uint32_t x = 12345;
  auto rnd = [&] { // uniform in [-1, 1)
    x = x * 1664525u + 1013904223u;
    return float(x >> 8) / float(1 << 23) - 1.f;
  };
  std::vector<GroupedProblem> groups;
  double flops = 0;
  for (size_t i = 0; i < shapes.size(); i += 3) {
    GroupedProblem q{nullptr, nullptr, nullptr, shapes[i], shapes[i + 1], shapes[i + 2]};
    std::vector<__nv_bfloat16> ha(size_t(q.M) * q.K), hb(size_t(q.N) * q.K);
    for (auto *v : {&ha, &hb})
      for (auto &e : *v)
        e = __float2bfloat16(rnd());
    __nv_bfloat16 *A, *B, *C;
    CHECK(cudaMalloc(&A, ha.size() * 2 + 16));
    CHECK(cudaMalloc(&B, hb.size() * 2 + 16));
    CHECK(cudaMalloc(&C, size_t(q.M) * q.N * 2 + 16));
    CHECK(cudaMemcpy(A, ha.data(), ha.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hb.data(), hb.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(C, 0, size_t(q.M) * q.N * 2));
    q.A = A;
    q.B = B;
    q.C = C;
    groups.push_back(q);
    flops += 2.0 * q.M * q.N * q.K;
  }
  const int count = int(groups.size());
  CHECK(gemm_grouped_sm90_libts(groups.data(), count, 0));
  CHECK(cudaDeviceSynchronize());
  double worst = 0;
  for (const GroupedProblem &q : groups)
    worst = std::max(worst, group_error(q));
  const bool ok = worst <= 1e-2;
  std::printf("gemm_grouped_sm90: %d groups, smem %u B, %u threads: worst max |C - ref| / max "
              "|ref| = %.2e: %s\n",
              count, ts::kernel_traits<gemm_grouped::gemm_grouped_kernel>::smem_bytes,
              ts::kernel_traits<gemm_grouped::gemm_grouped_kernel>::threads, worst,
              ok ? "ok" : "MISMATCH");
  if (!ok)
    return 1;

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms(reps);
  for (int r = -3; r < reps; ++r) { // three warm-up launches
    CHECK(cudaEventRecord(e0));
    CHECK(gemm_grouped_sm90_libts(groups.data(), count, 0));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      CHECK(cudaEventElapsedTime(&ms[r], e0, e1));
  }
  std::sort(ms.begin(), ms.end());
  const double med = ms[reps / 2];
  std::printf("gemm_grouped_sm90: median of %d: %.3f ms, %.1f TFLOP/s\n", reps, med,
              flops / (med * 1e-3) / 1e12);
  for (const GroupedProblem &q : groups)
    for (const void *ptr : {(const void *)q.A, (const void *)q.B, (const void *)q.C})
      CHECK(cudaFree(const_cast<void *>(ptr)));
  return 0;
}

#endif
