// GEMM benchmark: every implementation of bench/gemm/gemm.h against cuBLAS,
// in one process, on the same inputs.
//
//   C[M][N] = A[M][K] * B[N][K]^T, bf16 in, fp32 accumulate, bf16 out
//
// For each shape: random inputs in [-1, 1]; the cuBLAS result (cublasGemmEx,
// CUBLAS_COMPUTE_32F) is the reference, itself checked against a host
// double-precision dot product at 64 sampled entries; each implementation's
// error is max |C - C_ref| / max |C_ref| over the whole matrix. Timing (of
// the implementations that passed): 3 warm-up launches each, then `reps`
// rounds, each launching every implementation once in turn (so clock and
// temperature drift affect all alike), each launch timed alone with a
// cudaEvent pair; before each, a 50 us spin kernel keeps the GPU busy while
// the host enqueues, so the events bracket GPU time only (host-side launch
// overhead is not counted, for cuBLAS or anyone). Median per implementation.
//
//   bench                     all shapes (2048^3, 4096^3, 8192^3, 8192x28672x8192)
//   bench --shape MxNxK ...   these shapes only
//   bench --check MxNxK       correctness only (no timing), e.g. under compute-sanitizer
//   bench --reps N            timed launches per implementation (default 30, at least 20)
//   bench --only NAME         one implementation (plus the cuBLAS reference)
//
// A second implementation plugs in with one line in kImpls below.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "gemm.h"

#define CHECK(x)                                                                                \
  do {                                                                                          \
    cudaError_t err_ = (x);                                                                     \
    if (err_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err_)); \
      std::exit(2);                                                                             \
    }                                                                                           \
  } while (0)
#define CHECK_CUBLAS(x)                                                                         \
  do {                                                                                          \
    cublasStatus_t st_ = (x);                                                                   \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                                         \
      std::fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x, int(st_));  \
      std::exit(2);                                                                             \
    }                                                                                           \
  } while (0)

// ---- the implementations ----------------------------------------------------
static cudaError_t hand_v0(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s) {
  return gemm_sm90_hand_variant(0, A, B, C, M, N, K, s);
}
static cudaError_t hand_v1(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s) {
  return gemm_sm90_hand_variant(1, A, B, C, M, N, K, s);
}
static cudaError_t hand_v2(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s) {
  return gemm_sm90_hand_variant(2, A, B, C, M, N, K, s);
}
static cudaError_t hand_v3(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s) {
  return gemm_sm90_hand_variant(3, A, B, C, M, N, K, s);
}
static cudaError_t hand_v4(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                           int M, int N, int K, cudaStream_t s) {
  return gemm_sm90_hand_variant(4, A, B, C, M, N, K, s);
}

struct Impl {
  const char *name;
  gemm_fn fn;
};
static const Impl kImpls[] = {
    {"hand", gemm_sm90_hand},
#if GEMM_HAND_VARIANTS // the hand kernel's configurations, to pick gemm_sm90_hand's
    {"hand_v0_thrrel_stg", hand_v0},
    {"hand_v1_warprel_stg", hand_v1},
    {"hand_v2_cluster2_tmastore", hand_v2},
    {"hand_v3_thrrel_tmastore", hand_v3},
    {"hand_v4_warprel_tmastore", hand_v4},
#endif
#if GEMM_WITH_LIBTS
    {"libts", gemm_sm90_libts},
#endif
#if GEMM_WITH_LIBTS_CLUSTER
    {"libts_cluster2", gemm_sm90_libts_cluster2},
#endif
};

// ---- helpers ----------------------------------------------------------------
__global__ void fill_uniform(__nv_bfloat16 *p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    uint32_t x = uint32_t(i) * 0x9E3779B1u ^ uint32_t(i >> 32) * 0x85EBCA77u ^ seed;
    x ^= x >> 16;
    x *= 0x7FEB352Du;
    x ^= x >> 15;
    x *= 0x846CA68Bu;
    x ^= x >> 16;
    p[i] = __float2bfloat16(float(x) * (2.0f / 4294967296.0f) - 1.0f); // [-1, 1)
  }
}

// out[0] = max |ref|, out[1] = max |x - ref| (non-negative floats order as
// their bit patterns), out[2] = count of non-finite x.
__global__ void compare(const __nv_bfloat16 *x, const __nv_bfloat16 *ref, size_t n,
                        unsigned *out) {
  float mref = 0.f, mdiff = 0.f;
  unsigned bad = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    const float r = __bfloat162float(ref[i]), v = __bfloat162float(x[i]);
    mref = fmaxf(mref, fabsf(r));
    if (!isfinite(v))
      ++bad;
    else
      mdiff = fmaxf(mdiff, fabsf(v - r));
  }
  for (int o = 16; o > 0; o /= 2) {
    mref = fmaxf(mref, __shfl_xor_sync(0xffffffffu, mref, o));
    mdiff = fmaxf(mdiff, __shfl_xor_sync(0xffffffffu, mdiff, o));
    bad += __shfl_xor_sync(0xffffffffu, bad, o);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicMax(out + 0, __float_as_uint(mref));
    atomicMax(out + 1, __float_as_uint(mdiff));
    atomicAdd(out + 2, bad);
  }
}

// Keeps the GPU busy for about `ns` so the next launches are enqueued before
// the timed region starts.
__global__ void spin(long long ns) {
  long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 >= ns)
      break;
    __nanosleep(1000);
  }
}

struct Shape {
  int m, n, k;
};

static bool parse_shape(const char *s, Shape &sh) {
  return std::sscanf(s, "%dx%dx%d", &sh.m, &sh.n, &sh.k) == 3 && sh.m > 0 && sh.n > 0 && sh.k > 0;
}

static cublasHandle_t g_cublas;

// Row-major C = A B^T is, column-major, C^T (N x M) = B^T-as-stored ... i.e.
// op(B) = T on the K x N column-major view of B, op(A) = N on the K x M view of A.
static cudaError_t cublas_gemm(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                               int M, int N, int K, cudaStream_t s) {
  const float alpha = 1.f, beta = 0.f;
  CHECK_CUBLAS(cublasSetStream(g_cublas, s));
  const cublasStatus_t st =
      cublasGemmEx(g_cublas, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF, K, A,
                   CUDA_R_16BF, K, &beta, C, CUDA_R_16BF, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

// Median time of each implementation in `fns`, their timed launches
// interleaved (rep r runs every implementation once, in turn) so clock and
// temperature drift over the run affects all of them alike.
static std::vector<float> median_ms(const std::vector<gemm_fn> &fns, const __nv_bfloat16 *A,
                                    const __nv_bfloat16 *B, __nv_bfloat16 *C, const Shape &sh,
                                    int reps, cudaStream_t s, double spin_ns) {
  const size_t n = fns.size();
  for (gemm_fn fn : fns)
    for (int w = 0; w < 3; ++w)
      CHECK(fn(A, B, C, sh.m, sh.n, sh.k, s));
  std::vector<cudaEvent_t> ev(2 * reps * n);
  for (auto &e : ev)
    CHECK(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r)
    for (size_t i = 0; i < n; ++i) {
      cudaEvent_t *e = &ev[2 * (r * n + i)];
      spin<<<1, 1, 0, s>>>((long long)spin_ns);
      CHECK(cudaEventRecord(e[0], s));
      CHECK(fns[i](A, B, C, sh.m, sh.n, sh.k, s));
      CHECK(cudaEventRecord(e[1], s));
    }
  CHECK(cudaStreamSynchronize(s));
  std::vector<float> med(n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<float> ms(reps);
    for (int r = 0; r < reps; ++r)
      CHECK(cudaEventElapsedTime(&ms[r], ev[2 * (r * n + i)], ev[2 * (r * n + i) + 1]));
    std::sort(ms.begin(), ms.end());
    med[i] = reps % 2 ? ms[reps / 2] : 0.5f * (ms[reps / 2 - 1] + ms[reps / 2]);
  }
  for (auto &e : ev)
    CHECK(cudaEventDestroy(e));
  return med;
}

// max |C - ref| / max |ref|; negative if C has non-finite entries.
static double rel_error(const __nv_bfloat16 *C, const __nv_bfloat16 *ref, size_t n, unsigned *d_out,
                        cudaStream_t s, double *max_ref = nullptr) {
  CHECK(cudaMemsetAsync(d_out, 0, 3 * sizeof(unsigned), s));
  compare<<<1024, 256, 0, s>>>(C, ref, n, d_out);
  CHECK(cudaGetLastError());
  unsigned h[3];
  CHECK(cudaMemcpyAsync(h, d_out, sizeof h, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  float mref, mdiff;
  std::memcpy(&mref, &h[0], 4);
  std::memcpy(&mdiff, &h[1], 4);
  if (max_ref)
    *max_ref = mref;
  if (h[2] != 0)
    return -1.0;
  return mref > 0 ? double(mdiff) / mref : double(mdiff);
}

static float bf2f(__nv_bfloat16 v) {
  uint16_t u;
  std::memcpy(&u, &v, 2);
  const uint32_t w = uint32_t(u) << 16;
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// The reference at 64 sampled entries against double-precision dot products
// on the host: max |ref - exact| / max |ref| (bf16 output rounding: ~4e-3).
static double check_reference(const __nv_bfloat16 *A, const __nv_bfloat16 *B,
                              const __nv_bfloat16 *ref, const Shape &sh, double max_ref) {
  std::vector<__nv_bfloat16> a(sh.k), b(sh.k);
  double worst = 0;
  uint32_t x = 12345;
  for (int t = 0; t < 64; ++t) {
    x = x * 1664525u + 1013904223u;
    const int i = int((x >> 8) % uint32_t(sh.m));
    x = x * 1664525u + 1013904223u;
    const int j = int((x >> 8) % uint32_t(sh.n));
    CHECK(cudaMemcpy(a.data(), A + size_t(i) * sh.k, 2 * size_t(sh.k), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(b.data(), B + size_t(j) * sh.k, 2 * size_t(sh.k), cudaMemcpyDeviceToHost));
    __nv_bfloat16 c;
    CHECK(cudaMemcpy(&c, ref + size_t(i) * sh.n + j, 2, cudaMemcpyDeviceToHost));
    double exact = 0;
    for (int k = 0; k < sh.k; ++k)
      exact += double(bf2f(a[k])) * double(bf2f(b[k]));
    worst = std::max(worst, std::fabs(double(bf2f(c)) - exact));
  }
  return max_ref > 0 ? worst / max_ref : worst;
}

int main(int argc, char **argv) {
  std::vector<Shape> shapes;
  bool check_only = false;
  int reps = 30;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    Shape sh;
    if ((!std::strcmp(argv[i], "--shape") || !std::strcmp(argv[i], "--check")) && i + 1 < argc &&
        parse_shape(argv[i + 1], sh)) {
      check_only |= !std::strcmp(argv[i], "--check");
      shapes.push_back(sh);
      ++i;
    } else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr,
                   "usage: %s [--shape MxNxK]... [--check MxNxK]... [--reps N>=20] [--only NAME]\n",
                   argv[0]);
      return 2;
    }
  }
  if (reps < 20 && !check_only) {
    std::fprintf(stderr, "--reps: at least 20\n");
    return 2;
  }
  if (shapes.empty())
    shapes = {{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 28672, 8192}};

  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  int cublas_ver = 0;
  CHECK_CUBLAS(cublasCreate(&g_cublas));
  CHECK_CUBLAS(cublasGetVersion(g_cublas, &cublas_ver));
  std::printf("device: %s, %d SMs, max clock %d MHz; cuBLAS %d\n", prop.name,
              prop.multiProcessorCount, clock_khz / 1000, cublas_ver);
  std::printf("error = max |C - C_cublas| / max |C_cublas| over all of C; time = median of %d "
              "launches, each timed alone (cudaEvent pair), after 3 warm-ups\n",
              reps);

  // The hand kernel must refuse what it cannot do, clearly.
  if (gemm_sm90_hand(nullptr, nullptr, nullptr, 100, 256, 64, 0) != cudaErrorInvalidValue) {
    std::fprintf(stderr, "gemm_sm90_hand accepted M=100\n");
    return 1;
  }

  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned *d_cmp;
  CHECK(cudaMalloc(&d_cmp, 3 * sizeof(unsigned)));
  int failures = 0;

  std::printf("\n%-22s %-26s %10s %10s %8s %10s\n", "shape", "impl", "ms", "TFLOP/s", "x cuBLAS",
              "rel.err");
  for (const Shape &sh : shapes) {
    const size_t na = size_t(sh.m) * sh.k, nb = size_t(sh.n) * sh.k, nc = size_t(sh.m) * sh.n;
    __nv_bfloat16 *A, *B, *Cref, *C;
    CHECK(cudaMalloc(&A, na * 2));
    CHECK(cudaMalloc(&B, nb * 2));
    CHECK(cudaMalloc(&Cref, nc * 2));
    CHECK(cudaMalloc(&C, nc * 2));
    fill_uniform<<<1024, 256, 0, s>>>(A, na, 0x1234u);
    fill_uniform<<<1024, 256, 0, s>>>(B, nb, 0xBEEFu);
    CHECK(cudaGetLastError());
    CHECK(cublas_gemm(A, B, Cref, sh.m, sh.n, sh.k, s));
    CHECK(cudaStreamSynchronize(s));
    double max_ref = 0;
    (void)rel_error(Cref, Cref, nc, d_cmp, s, &max_ref);
    const double ref_err = check_reference(A, B, Cref, sh, max_ref);
    char name[64];
    std::snprintf(name, sizeof name, "%dx%dx%d", sh.m, sh.n, sh.k);
    const double flop = 2.0 * sh.m * double(sh.n) * sh.k;
    // The spin before each timed launch: long enough to cover the host's
    // enqueue of event + launch + event.
    const double spin_ns = 50e3;

    std::printf("%-22s %-26s %10s %10s %8s %10s   (max|C| %.2f; vs fp64 at 64 entries: %.2e)\n",
                name, "cublas (reference)", "", "", "", "-", max_ref, ref_err);
    if (ref_err > 1e-2) {
      std::printf("  cuBLAS reference disagrees with the host check\n");
      ++failures;
    }
    // Correctness of each implementation first; those that pass are timed.
    std::vector<gemm_fn> timed = {cublas_gemm};
    std::vector<const char *> names = {"cublas"};
    for (const Impl &im : kImpls) {
      if (!only.empty() && only != im.name)
        continue;
      CHECK(cudaMemsetAsync(C, 0xff, nc * 2, s)); // NaN wherever nothing is written
      const cudaError_t e = im.fn(A, B, C, sh.m, sh.n, sh.k, s);
      if (e == cudaErrorInvalidValue) {
        std::printf("%-22s %-26s  unsupported shape\n", name, im.name);
        (void)cudaGetLastError();
        continue;
      }
      CHECK(e);
      CHECK(cudaStreamSynchronize(s));
      const double err = rel_error(C, Cref, nc, d_cmp, s);
      const bool ok = err >= 0 && err < 1e-2;
      failures += !ok;
      std::printf("%-22s %-26s %10s %10s %8s %10.2e%s\n", name, im.name, "", "", "", err,
                  ok ? "" : "  FAIL");
      if (ok) {
        timed.push_back(im.fn);
        names.push_back(im.name);
      }
    }
    if (!check_only) {
      const std::vector<float> ms = median_ms(timed, A, B, C, sh, reps, s, spin_ns);
      for (size_t i = 0; i < timed.size(); ++i)
        std::printf("%-22s %-26s %10.4f %10.1f %8.3f\n", name, names[i], ms[i],
                    flop / ms[i] * 1e-9, ms[0] / ms[i]);
    }
    std::fflush(stdout);
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(Cref));
    CHECK(cudaFree(C));
  }
  CHECK_CUBLAS(cublasDestroy(g_cublas));
  std::printf("\n%s\n", failures ? "FAILED" : "all results within 1e-2 of cuBLAS");
  return failures ? 1 : 0;
}
