//===- Position.h - Why an op is where the model cannot see it --*- C++ -*-===//
//
// Ops stand only at the top level of a task body, its domain loop or a
// first/last guard. When one is elsewhere, the error names the construct
// that puts it there (a while loop, a block, a lambda, a switch, ...).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_POSITION_H
#define LIBTS_FRONTEND_POSITION_H

#include "clang/AST/ASTContext.h"

#include <string>

namespace ts {

struct PositionCause {
  std::string What; ///< "a 'while' loop", "a lambda", ...; "" if unknown.
  clang::SourceLocation Where; ///< Where that construct starts.
};

/// The innermost construct between the call and the task body that hides
/// it from the model. The task's own domain loops (Loops) hide nothing.
PositionCause positionCause(clang::ASTContext &Ctx, const clang::Stmt *Call,
                            const clang::Stmt *Body,
                            llvm::ArrayRef<const clang::Stmt *> Loops = {});

} // namespace ts

#endif
