//===- AttrTable.h - [[ts::...]] attributes seen by Sema --------*- C++ -*-===//
//
// The attribute handlers only record what they saw; all checking happens in
// the AST consumer so every message goes through one severity policy. The
// table lives outside the AST so codegen never sees our arguments.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ATTRTABLE_H
#define LIBTS_FRONTEND_ATTRTABLE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace ts {

enum class AttrKind { Resource, Task, Kernel };

/// One argument: an expression, or a bare name clang parsed as an
/// identifier (resolved by ordinary lookup where the attribute stands).
struct SeenArg {
  clang::Expr *E = nullptr;
  clang::NamedDecl *Named = nullptr;
  clang::SourceLocation Loc;
  std::string Spelling;
  bool Overloaded = false; ///< The name found several functions.
};

struct SeenAttr {
  AttrKind Kind;
  clang::Decl *D;
  clang::SourceRange Range;
  llvm::SmallVector<SeenArg, 8> Args;
};

/// Attributes of the translation unit being parsed, in source order.
std::vector<SeenAttr> &seenAttrs();

} // namespace ts

#endif
