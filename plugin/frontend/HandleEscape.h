//===- HandleEscape.h - A pipeline handle passed to a helper ----*- C++ -*-===//
//
// The verifier follows pipeline operations only in the task's own body.
// When a handle is passed to a helper (the way CUTLASS collectives take
// their pipeline), the error names the helper and the operations it runs
// on the handle, so the user knows what to move into the task.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_HANDLEESCAPE_H
#define LIBTS_FRONTEND_HANDLEESCAPE_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <string>
#include <vector>

namespace ts {

struct HandlePassed {
  const clang::FunctionDecl *Callee = nullptr; ///< Null: not a call argument.
  /// The member functions the callee calls on that parameter, in source
  /// order, each once ("wait", "release"); empty without a body.
  std::vector<std::string> Ops;
};

/// Where the handle reference R goes: the function it is an argument of.
HandlePassed handlePassed(clang::ASTContext &Ctx, const clang::DeclRefExpr *R);

} // namespace ts

#endif
