//===- Analysis.h - Extract, verify, lay out, lower -------------*- C++ -*-===//
#ifndef LIBTS_FRONTEND_ANALYSIS_H
#define LIBTS_FRONTEND_ANALYSIS_H

#include "frontend/Extract.h"
#include "frontend/Severity.h"
#include "plan/Plan.h"
#include "verify/Verify.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace ts {

struct KernelAnalysis {
  KernelPlan Plan;
  VerifyResult Verify;
};

struct Analysis {
  Extraction X;
  std::vector<KernelAnalysis> Kernels; ///< Parallel to X.P.Kernels.
  DiagList Diags;                      ///< Everything, in report order.
  unsigned Errors = 0;                 ///< Under the severity policy.
  unsigned Warnings = 0;
  bool SyntaxOk = true;
};

/// Runs every layer over the translation unit's recorded attributes.
/// `TripBound`: trip counts checked where the every-N argument ends.
Analysis analyze(clang::ASTContext &Ctx, bool GeneratedMode,
                 const SeverityPolicy &Policy, uint64_t TripBound);

/// The rewritten main file (see docs/generated-code.md), or "" when the
/// analysis has errors or nothing to generate. `Macros` are the command
/// line's -D/-U (clang's PreprocessorOptions form: "N=V", isUndef); the
/// rewrite restates them, since its layout was computed under them, and
/// the -include files, without which it would not compile on its own.
std::string
rewriteMainFile(clang::ASTContext &Ctx, const Analysis &A,
                const std::vector<std::pair<std::string, bool>> &Macros,
                const std::vector<std::string> &Includes);

} // namespace ts

#endif
