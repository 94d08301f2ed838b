// Host-side TMA descriptors (CUtensorMap) without linking the driver
// library: cuTensorMapEncodeTiled is looked up once through the runtime's
// driver entry point (cudaGetDriverEntryPointByVersion), as
// examples/tma_copy.cu does.
//
//   ts::tma::map<__nv_bfloat16, 128, 64> a;
//   cudaError_t e = ts::tensor_map::kmajor_bf16_sw128(&a, A, M, K);
//
// gives the map a TMA load of a 128 x 64 bf16 box (the map's type) of the
// row-major M x K matrix A uses (ts::tma::load(dst, &a, {k0, m0}, bar), innermost
// coordinate first); the box lands in shared memory 128-byte swizzled, the
// layout ts::wgmma::make_desc_sw128 describes. Pass maps to kernels as
// __grid_constant__ parameters (or copy them to global/constant memory).
#ifndef LIBTS_TENSOR_MAP_H
#define LIBTS_TENSOR_MAP_H

#include <cstdint>

#include <cuda.h>         // CUtensorMap and its enums (types only)
#include <cudaTypedefs.h> // PFN_cuTensorMapEncodeTiled
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include "ts/tma_map.h"

namespace ts {
namespace tensor_map {

/// The driver's cuTensorMapEncodeTiled, found once per process; null (and
/// the runtime's error) if the driver has none.
inline PFN_cuTensorMapEncodeTiled_v12000 encode_tiled_fn(cudaError_t *err = nullptr) {
  struct lookup {
    PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    cudaError_t err = cudaSuccess;
    lookup() {
      void *p = nullptr;
      cudaDriverEntryPointQueryResult q;
      err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                             cudaEnableDefault, &q);
      if (err == cudaSuccess && (q != cudaDriverEntryPointSuccess || !p))
        err = cudaErrorNotSupported;
      if (err == cudaSuccess)
        fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }
  };
  static const lookup l; // thread-safe one-time initialization
  if (err)
    *err = l.err;
  return l.fn;
}

/// A 2D tiled map of a row-major matrix: `rows` x `cols` elements of
/// `elem_bytes` bytes, `row_stride` bytes between rows, a box of
/// `box_cols` x `box_rows` elements. TMA requires a 16-byte aligned base,
/// a row stride that is a multiple of 16 and, with 128-byte swizzle, a box
/// row of at most 128 bytes. Returns cudaErrorInvalidValue when the driver
/// rejects the arguments.
inline cudaError_t encode_2d(CUtensorMap *map, CUtensorMapDataType type, unsigned elem_bytes,
                             const void *base, uint64_t rows, uint64_t cols, uint64_t row_stride,
                             uint32_t box_rows, uint32_t box_cols, CUtensorMapSwizzle swizzle,
                             CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  cudaError_t err;
  const PFN_cuTensorMapEncodeTiled_v12000 fn = encode_tiled_fn(&err);
  if (!fn)
    return err;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0 || row_stride % 16 != 0 ||
      (swizzle == CU_TENSOR_MAP_SWIZZLE_128B && box_cols * elem_bytes > 128))
    return cudaErrorInvalidValue;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(row_stride)};
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult r = fn(map, type, 2, const_cast<void *>(base), dims, strides, box, elem_strides,
                        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/// K-major bf16 operand tile for wgmma: the row-major `rows` x `k` matrix
/// (K contiguous), box = `box_rows` rows x 64 elements of K (128 bytes, one
/// 128-byte swizzle atom wide), 128-byte swizzle. A box occupies
/// box_rows * 128 bytes of shared memory; its destination must be 1024-byte
/// aligned.
inline cudaError_t kmajor_bf16_sw128(CUtensorMap *map, const void *base, uint64_t rows,
                                     uint64_t k, uint32_t box_rows) {
  return encode_2d(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, base, rows, k, k * 2, box_rows, 64,
                   CU_TENSOR_MAP_SWIZZLE_128B);
}

/// The CUtensorMapDataType of an element type (a ts::tma::map's T).
template <class T> struct data_type;
#define LIBTS_DATA_TYPE(T, V)                                                                      \
  template <> struct data_type<T> {                                                                \
    static constexpr CUtensorMapDataType value = V;                                                \
  };
LIBTS_DATA_TYPE(uint8_t, CU_TENSOR_MAP_DATA_TYPE_UINT8)
LIBTS_DATA_TYPE(int8_t, CU_TENSOR_MAP_DATA_TYPE_UINT8)
LIBTS_DATA_TYPE(__nv_fp8_e4m3, CU_TENSOR_MAP_DATA_TYPE_UINT8)
LIBTS_DATA_TYPE(__nv_fp8_e5m2, CU_TENSOR_MAP_DATA_TYPE_UINT8)
LIBTS_DATA_TYPE(uint16_t, CU_TENSOR_MAP_DATA_TYPE_UINT16)
LIBTS_DATA_TYPE(__half, CU_TENSOR_MAP_DATA_TYPE_FLOAT16)
LIBTS_DATA_TYPE(__nv_bfloat16, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16)
LIBTS_DATA_TYPE(uint32_t, CU_TENSOR_MAP_DATA_TYPE_UINT32)
LIBTS_DATA_TYPE(int32_t, CU_TENSOR_MAP_DATA_TYPE_INT32)
LIBTS_DATA_TYPE(float, CU_TENSOR_MAP_DATA_TYPE_FLOAT32)
LIBTS_DATA_TYPE(uint64_t, CU_TENSOR_MAP_DATA_TYPE_UINT64)
LIBTS_DATA_TYPE(int64_t, CU_TENSOR_MAP_DATA_TYPE_INT64)
LIBTS_DATA_TYPE(double, CU_TENSOR_MAP_DATA_TYPE_FLOAT64)
#undef LIBTS_DATA_TYPE

/// A map whose type carries its box: the box comes from the type, never
/// from an argument (the verifier checks loads against the same type).
/// `rows` x `cols` elements of T at `base`, `row_stride` bytes between rows
/// (0: packed).
template <class T, uint32_t BoxRows, uint32_t BoxCols>
inline cudaError_t encode(tma::map<T, BoxRows, BoxCols> *map, const void *base, uint64_t rows,
                          uint64_t cols, uint64_t row_stride = 0,
                          CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE,
                          CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  return encode_2d(static_cast<CUtensorMap *>(map), data_type<T>::value, unsigned(sizeof(T)), base,
                   rows, cols, row_stride ? row_stride : cols * sizeof(T), BoxRows, BoxCols,
                   swizzle, promotion);
}

/// A map of any rank (1 to 5) whose box is its type: `extent` elements per
/// dimension and `stride` bytes between consecutive indices of every
/// dimension but the innermost, both outermost first as the box is
/// (ts::tma::map<bf16, 128, 1, 64> over [tokens][heads][64]: extent {S, H,
/// 64}, stride {H * 128, 128}). Coordinates of ts::tma::load stay innermost
/// first, as the hardware takes them.
template <class T, uint32_t... Box>
inline cudaError_t encode(tma::map<T, Box...> *map, const void *base,
                          const uint64_t (&extent)[sizeof...(Box)],
                          const uint64_t (&stride)[sizeof...(Box) - 1],
                          CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE,
                          CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  constexpr unsigned R = sizeof...(Box);
  const uint32_t box_outer_first[R] = {Box...};
  cuuint64_t dims[R], strides[R > 1 ? R - 1 : 1] = {};
  cuuint32_t box[R], elem_strides[R];
  for (unsigned i = 0; i < R; ++i) { // innermost first for the driver
    dims[i] = extent[R - 1 - i];
    box[i] = box_outer_first[R - 1 - i];
    elem_strides[i] = 1;
    if (i + 1 < R && (stride[R - 2 - i] % 16 != 0))
      return cudaErrorInvalidValue; // TMA strides are multiples of 16 bytes
    if (i + 1 < R)
      strides[i] = stride[R - 2 - i];
  }
  cudaError_t err;
  const PFN_cuTensorMapEncodeTiled_v12000 fn = encode_tiled_fn(&err);
  if (!fn)
    return err;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0)
    return cudaErrorInvalidValue;
  const CUresult r =
      fn(static_cast<CUtensorMap *>(map), data_type<T>::value, R, const_cast<void *>(base), dims,
         strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/// kmajor_bf16_sw128 with the box rows from the map's type.
template <uint32_t BoxRows>
inline cudaError_t kmajor_bf16_sw128(tma::map<__nv_bfloat16, BoxRows, 64> *map, const void *base,
                                     uint64_t rows, uint64_t k) {
  return encode(map, base, rows, k, k * 2, CU_TENSOR_MAP_SWIZZLE_128B);
}

/// The driver's cuTensorMapEncodeIm2col, found once per process; null (and
/// the runtime's error) if the driver has none.
inline PFN_cuTensorMapEncodeIm2col_v12000 encode_im2col_fn(cudaError_t *err = nullptr) {
  struct lookup {
    PFN_cuTensorMapEncodeIm2col_v12000 fn = nullptr;
    cudaError_t err = cudaSuccess;
    lookup() {
      void *p = nullptr;
      cudaDriverEntryPointQueryResult q;
      err = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &p, 12000,
                                             cudaEnableDefault, &q);
      if (err == cudaSuccess && (q != cudaDriverEntryPointSuccess || !p))
        err = cudaErrorNotSupported;
      if (err == cudaSuccess)
        fn = reinterpret_cast<PFN_cuTensorMapEncodeIm2col_v12000>(p);
    }
  };
  static const lookup l; // thread-safe one-time initialization
  if (err)
    *err = l.err;
  return l.fn;
}

/// An im2col map over a channels-last tensor of rank R (3 to 5: NWC, NHWC,
/// NDHWC), its box (Pixels x Channels) from the type. `extent` and `stride`
/// are outermost first, as for encode (stride: bytes between consecutive
/// indices of each dimension but the channels). `lower` and `upper` are the
/// corners of the window the first pixel's filter taps span, per spatial
/// dimension, outermost first (a 3 x 3 filter with padding 1: lower
/// {-1, -1}, upper {-1, -1}, so consecutive pixels step through the padded
/// image; see cuTensorMapEncodeIm2col). Loads add each tap's offsets
/// (ts::tma::load_im2col).
template <class T, uint32_t Pixels, uint32_t Channels, unsigned R, unsigned Q, unsigned S>
inline cudaError_t encode_im2col(tma::im2col_map<T, Pixels, Channels> *map, const void *base,
                                 const uint64_t (&extent)[R], const uint64_t (&stride)[Q],
                                 const int (&lower)[S], const int (&upper)[S],
                                 CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE,
                                 CUtensorMapL2promotion promotion =
                                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
  static_assert(R >= 3 && R <= 5, "im2col maps have rank 3 to 5");
  static_assert(Q == R - 1, "one stride per dimension but the channels");
  static_assert(S == R - 2, "one window corner per spatial dimension");
  cuuint64_t dims[R], strides[R - 1];
  cuuint32_t elem_strides[R];
  int lo[R - 2], hi[R - 2];
  for (unsigned i = 0; i < R; ++i) { // innermost first for the driver
    dims[i] = extent[R - 1 - i];
    elem_strides[i] = 1;
    if (i + 1 < R && stride[R - 2 - i] % 16 != 0)
      return cudaErrorInvalidValue; // TMA strides are multiples of 16 bytes
    if (i + 1 < R)
      strides[i] = stride[R - 2 - i];
    if (i + 2 < R) {
      lo[i] = lower[R - 3 - i];
      hi[i] = upper[R - 3 - i];
    }
  }
  cudaError_t err;
  const PFN_cuTensorMapEncodeIm2col_v12000 fn = encode_im2col_fn(&err);
  if (!fn)
    return err;
  if (reinterpret_cast<uintptr_t>(base) % 16 != 0)
    return cudaErrorInvalidValue;
  const CUresult r = fn(static_cast<CUtensorMap *>(map), data_type<T>::value, R,
                        const_cast<void *>(base), dims, strides, lo, hi, Channels, Pixels,
                        elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, promotion,
                        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

/// A typed map's box is its type: encoding one with a box argument would
/// let the two disagree, so these overloads are refused.
template <class T, uint32_t... Box>
cudaError_t encode_2d(tma::map<T, Box...> *, CUtensorMapDataType, unsigned, const void *, uint64_t,
                      uint64_t, uint64_t, uint32_t, uint32_t, CUtensorMapSwizzle,
                      CUtensorMapL2promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B) = delete;
template <class T, uint32_t... Box>
cudaError_t kmajor_bf16_sw128(tma::map<T, Box...> *, const void *, uint64_t, uint64_t,
                              uint32_t) = delete;

} // namespace tensor_map
} // namespace ts

#endif
