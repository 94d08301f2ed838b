//===- BoundValue.h - Domain bounds compared by value -----------*- C++ -*-===//
//
// Tasks that exchange stages must run their loops the same number of times.
// Comparing the bounds' text is wrong both ways: `kt` in two tasks may be
// computed differently (a ceiling and a floor of one division), and `t` and
// `tile` may be the same tile. A bound's key spells its value instead:
// locals are replaced by what initialises them, the enclosing loop's
// variable by a placeholder.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_BOUNDVALUE_H
#define LIBTS_FRONTEND_BOUNDVALUE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <string>

namespace ts {

/// The first local a bound's key could not follow: one written after its
/// declaration (Write: where), or one without an initializer (Write
/// invalid).
struct OpaqueLocal {
  const clang::VarDecl *Var = nullptr;
  clang::SourceLocation Write;
};

/// E's value, spelled so that equal keys in two tasks mean equal values:
/// each local it reads becomes `(init)`, recursively; Tile (the enclosing
/// domain loop's variable) becomes `<tile>`. A local written after its
/// declaration (anywhere in Body), or one without an initializer, becomes a
/// token of its own declaration, equal to no other task's; Why, if given,
/// receives the first such local.
std::string boundValue(clang::ASTContext &Ctx, const clang::Expr *E,
                       const clang::Stmt *Body, const clang::VarDecl *Tile,
                       OpaqueLocal *Why = nullptr);

/// Whether S may change V or a part of it (`t.g = 1`, `++t.a[0]`): assigns
/// it, increments it, takes its address, binds a non-const reference to it
/// (a parameter or a local alias) or calls a non-const member function on it.
bool writesVar(const clang::Stmt *S, const clang::VarDecl *V);
/// Where S first may change V (as writesVar); invalid when nowhere.
clang::SourceLocation firstWrite(const clang::Stmt *S, const clang::VarDecl *V);

} // namespace ts

#endif
