//===- TmaBox.h - The box a TMA descriptor moves ----------------*- C++ -*-===//
//
// A ts::tma::map<T, E...> carries its box in its type (include/ts/tma_map.h);
// a plain CUtensorMap's box is set on the host, out of the plugin's sight.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_TMABOX_H
#define LIBTS_FRONTEND_TMABOX_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace ts {

/// The bytes one load through Map delivers, when Map (`&p.a`, `map`) is a
/// ts::tma::map (its box) or a ts::tma::im2col_map (Pixels x Channels)
/// whose type is complete; none for a plain CUtensorMap.
std::optional<uint64_t> typedBoxBytes(const clang::ASTContext &Ctx,
                                      const clang::Expr *Map);

/// The ts::tma::map type whose box is an object of type Dst (`float[32][64]`
/// gives "ts::tma::map<float, 32, 64>"); "" when Dst is not an array of at
/// most five dimensions of at most 256 elements each.
std::string mapTypeFor(const clang::ASTContext &Ctx, clang::QualType Dst);

} // namespace ts

#endif
