// A TMA descriptor whose type carries its box. `ts::tma::map<T, Rows, Cols>`
// is a CUtensorMap (every ts::tma call takes it) that moves a box of
// Rows x Cols elements of T, outermost extent first. The verifier reads the
// box from the type and checks it against the transaction bytes of the
// stage a load completes; ts::tensor_map::encode takes the box from the
// same type, so the host cannot encode another one. Host-safe: no device
// code here.
#ifndef LIBTS_TMA_MAP_H
#define LIBTS_TMA_MAP_H

#include <cstdint>

#include <cuda.h> // CUtensorMap (type only)

namespace ts {
namespace tma {

template <class T, uint32_t... Box> struct map : CUtensorMap {
  static_assert(sizeof...(Box) >= 1 && sizeof...(Box) <= 5,
                "a TMA box has 1 to 5 dimensions");
  static_assert(((Box >= 1 && Box <= 256) && ...),
                "each extent of a TMA box is 1 to 256 elements");
  using element_type = T;
  static constexpr uint32_t rank = sizeof...(Box);
  /// The bytes one load of the box delivers.
  static constexpr uint64_t box_bytes = (uint64_t(sizeof(T)) * ... * uint64_t(Box));
};

/// An im2col descriptor of a channels-last tensor of rank 3 to 5 (NWC,
/// NHWC, NDHWC): one load moves Pixels output pixels' windows, Channels
/// elements of T each (a column block of the implicit GEMM's A). Encode it
/// with ts::tensor_map::encode_im2col, load it with ts::tma::load_im2col.
template <class T, uint32_t Pixels, uint32_t Channels> struct im2col_map : CUtensorMap {
  static_assert(Pixels >= 1 && Pixels <= 1024, "an im2col box has 1 to 1024 pixels");
  static_assert(Channels >= 1 && Channels <= 256, "an im2col box has 1 to 256 channels");
  using element_type = T;
  static constexpr uint32_t pixels = Pixels, channels = Channels;
  /// The bytes one load of the box delivers.
  static constexpr uint64_t box_bytes = uint64_t(sizeof(T)) * Pixels * Channels;
};

} // namespace tma
} // namespace ts

#endif
