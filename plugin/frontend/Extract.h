//===- Extract.h - AST to model ---------------------------------*- C++ -*-===//
#ifndef LIBTS_FRONTEND_EXTRACT_H
#define LIBTS_FRONTEND_EXTRACT_H

#include "frontend/AttrTable.h"
#include "model/Diag.h"
#include "model/Model.h"
#include "model/Source.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"

#include <vector>

namespace ts {

/// The model plus what the rewriter needs to find in the source.
struct Extraction {
  Program P;
  DiagList Diags; ///< Syntax findings (malformed attributes, ops, params).
  std::vector<TaskSource> TaskSrc; ///< Parallel to P.Tasks.
  std::vector<clang::SourceLocation>
      TaskInline;                      ///< Where __forceinline__ goes.
  std::vector<KernelSource> KernelSrc; ///< Parallel to P.Kernels.
  std::vector<clang::SourceLocation> KernelSemi; ///< The declaration's ';'.
};

/// Builds the model from the attributes Sema recorded. In generated mode
/// (the rewritten TU), kernels already have their generated definitions.
/// `PP` expands the macros a declaration was written with.
Extraction extract(clang::ASTContext &Ctx, const clang::Preprocessor &PP,
                   const std::vector<SeenAttr> &Attrs, bool GeneratedMode);

} // namespace ts

#endif
