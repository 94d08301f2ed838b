//===- GridConstant.h - TMA descriptors in kernel parameters ----*- C++ -*-===//
//
// TMA reads a descriptor through its address. The address of a kernel
// parameter is that of a local copy unless the parameter is
// __grid_constant__, and the TMA unit faults on a local address.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_GRIDCONSTANT_H
#define LIBTS_FRONTEND_GRIDCONSTANT_H

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include <optional>
#include <string>

namespace ts {

/// Where type `T` holds a CUtensorMap by value: "" for `T` itself, else
/// the member path (".maps[]", ".b.src"); nothing when it holds none.
std::optional<std::string> tensorMapIn(clang::QualType T);

/// Whether parameter `P` is written __grid_constant__. Clang 19 does not
/// know the attribute and drops it, so this reads the declaration's tokens
/// and the macros they name (__grid_constant__ is one), as defined at any
/// point of the file.
bool writtenGridConstant(const clang::ParmVarDecl *P,
                         const clang::ASTContext &Ctx,
                         const clang::Preprocessor &PP);

} // namespace ts

#endif
