//===- Inject.h - Generated kernels parsed in the same compile --*- C++ -*-===//
//
// A code-generating compile parses the file once. The kernel attribute
// asks for its definition (a `_Pragma` placed right after the declaration's
// ';'); when the parser reaches it, the declaration is complete, the kernel
// is analysed, and its traits and definition are entered as a source buffer
// of their own: the parser reads them right there, in the declaration's
// scope, with the macros and names the declaration sees.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_INJECT_H
#define LIBTS_FRONTEND_INJECT_H

#include "driver/Driver.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"

#include <memory>

namespace ts {

/// What the pragma handler needs from its compile: the driver is the
/// compile's own, so the end of the translation unit reuses its decisions.
struct InjectState {
  clang::ASTContext *Ctx = nullptr;
  const clang::Preprocessor *PP = nullptr;
  std::shared_ptr<Driver> D;
};

/// Adds the pragma handler that parses a kernel's definition.
void enableInjection(clang::Preprocessor &PP,
                     std::shared_ptr<InjectState> State);

/// Turns generation on: defines __LIBTS_GENERATED__ in the predefines,
/// which is how generation is recognised. Call after any precompiled
/// header was loaded (it replaces the predefines) and before the main
/// file is entered.
void markGeneration(clang::Preprocessor &PP);

/// Whether this compile generates kernels in the parse (enableInjection).
bool injecting(clang::Sema &S);

/// Asks for the kernel's definition right after the declaration being
/// parsed (its ';' is the parser's current token).
void requestDefinition(clang::Sema &S, const clang::Decl *Kernel);

/// Source buffers entered by the injection are named so that the analysis
/// tells a generated definition from a hand-written one.
bool isGeneratedLoc(const clang::SourceManager &SM, clang::SourceLocation L);

} // namespace ts

#endif
