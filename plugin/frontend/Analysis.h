//===- Analysis.h - The translation unit handed to the driver ---*- C++ -*-===//
//
// The front end's part of a compile: the model extracted from the AST,
// what the driver decided about it, and where the rewrite puts things.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ANALYSIS_H
#define LIBTS_FRONTEND_ANALYSIS_H

#include "driver/Driver.h"
#include "driver/Rewrite.h"
#include "frontend/Extract.h"

#include "clang/AST/ASTContext.h"

#include <string>
#include <vector>

namespace ts {

struct Analysis {
  Extraction X;
  Outcome R;
};

/// Extracts the translation unit's recorded attributes and runs the
/// driver over the model.
Analysis analyze(clang::ASTContext &Ctx, const clang::Preprocessor &PP,
                 bool GeneratedMode, Driver &D);

/// The main file's text and the offsets the rewrite needs.
MainFile mainFile(clang::ASTContext &Ctx, const Extraction &X,
                  const std::vector<std::pair<std::string, bool>> &Macros,
                  const std::vector<std::string> &Includes);

/// "file:line:col" of source handles, for the reports.
Locator locator(const clang::SourceManager &SM);

/// The line of the user's file a handle is in, without its newline; ""
/// inside libts's generated buffers.
SourceLines sourceLines(const clang::SourceManager &SM);

} // namespace ts

#endif
