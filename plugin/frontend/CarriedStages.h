//===- CarriedStages.h - Stage variables that outlive a step ----*- C++ -*-===//
//
// An asynchronous reader keeps a stage past the iteration that took it
// (wait for stage k, issue its MMAs, release stage k-1). The task names
// that stage with a carried variable: declared `ts::stage<R> prev;` with no
// initializer, then assigned `prev = s;` from a stage the task took. The
// walker turns both into Carry ops, so the ownership check follows exactly
// which stage the variable holds when it is handed back.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_CARRIEDSTAGES_H
#define LIBTS_FRONTEND_CARRIEDSTAGES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace ts {

/// The variable S declares when S is `ts::stage<R> v;` (default-constructed,
/// alone in its declaration).
const clang::VarDecl *carriedStageDecl(const clang::Stmt *S);

/// `v = e;` as a statement, where v is a variable of type ts::stage<R>.
struct StageAssign {
  const clang::Stmt *Call;
  const clang::VarDecl *To;
  const clang::Expr *From;
  clang::SourceLocation Loc;
};
std::optional<StageAssign> asStageAssign(const clang::Stmt *S);

/// The handle among Params whose stages a carried variable of stage type T
/// holds: the one handle (producer or consumer) of the same resource type.
/// Null when there is none; Ambiguous set when there are several.
const clang::ParmVarDecl *
handleForStage(llvm::ArrayRef<const clang::ParmVarDecl *> Params,
               clang::QualType T, bool &Ambiguous);

} // namespace ts

#endif
