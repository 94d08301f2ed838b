// Host side of typed TMA descriptors: ts::tensor_map::encode takes the box
// from the ts::tma::map's type (rank 2, or any rank with extents and
// strides outermost first), and the box-taking encoders are deleted for a
// typed map, so the host cannot encode a box other than the one the
// verifier checked.
// RUN: %host_syntax -fsyntax-only -Xclang -verify %s
#include <ts/tensor_map.h>

void host(const __nv_bfloat16 *q, const float *x) {
  ts::tma::map<__nv_bfloat16, 128, 1, 64> rank3; // [tokens][heads][64]
  ts::tma::map<float, 32, 64> rank2;
  ts::tma::map<__nv_bfloat16, 128, 64> operand;
  static_assert(decltype(rank3)::box_bytes == 16384, "a box of 128 x 1 x 64 bf16");
  static_assert(sizeof(rank3) == sizeof(CUtensorMap), "a typed map is a CUtensorMap");
  (void)ts::tensor_map::encode(&rank3, q, {4096, 16, 64}, {16 * 128, 128},
                               CU_TENSOR_MAP_SWIZZLE_128B);
  (void)ts::tensor_map::encode(&rank2, x, 1024, 4096);
  (void)ts::tensor_map::kmajor_bf16_sw128(&operand, q, 4096, 4096);
  // im2col over NHWC (8 x 56 x 56 x 64), a 3 x 3 filter with padding 1.
  ts::tma::im2col_map<__nv_bfloat16, 128, 64> act;
  static_assert(decltype(act)::box_bytes == 16384, "128 pixels x 64 channels of bf16");
  (void)ts::tensor_map::encode_im2col(&act, q, {8, 56, 56, 64}, {56 * 56 * 128, 56 * 128, 128},
                                      {-1, -1}, {-1, -1}, CU_TENSOR_MAP_SWIZZLE_128B);
  (void)ts::tensor_map::encode_im2col(&act, q, {8, 56, 56, 64}, {56 * 56 * 128, 56 * 128, 128},
                                      {-1}, {-1}); // expected-note@-1 {{in instantiation of}}
  // expected-error@ts/tensor_map.h:* {{one window corner per spatial dimension}} expected-note@ts/tensor_map.h:* {{expression evaluates to '1 == 2'}}
  (void)ts::tensor_map::encode_2d(&rank2, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, x, 1024, 4096, 16384, 16, 64, CU_TENSOR_MAP_SWIZZLE_NONE); // expected-error {{call to deleted function 'encode_2d'}}
  (void)ts::tensor_map::kmajor_bf16_sw128(&operand, q, 4096, 4096, 64); // expected-error {{call to deleted function 'kmajor_bf16_sw128'}}
  CUtensorMap plain; // still encoded with its box as an argument
  (void)ts::tensor_map::encode_2d(&plain, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, x, 1024, 4096, 16384, 16, 64, CU_TENSOR_MAP_SWIZZLE_NONE);
}
// expected-note@ts/tensor_map.h:* 2 {{candidate function}}
// expected-note@ts/tensor_map.h:* 0+ {{candidate}}
