//===- Vocabulary.h - Recognising ts:: names in the AST ---------*- C++ -*-===//
#ifndef LIBTS_FRONTEND_VOCABULARY_H
#define LIBTS_FRONTEND_VOCABULARY_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Type.h"

#include <vector>

namespace ts {

/// True if D is declared directly in namespace `ts` with the given name.
bool isTsDecl(const clang::NamedDecl *D, llvm::StringRef Name);

/// The record of T (references and qualifiers stripped) if it is `ts::Name`
/// or a specialisation of the template `ts::Name`.
const clang::CXXRecordDecl *tsRecord(clang::QualType T, llvm::StringRef Name);

/// Whether a parameter of F is a `ts::turn<R, Pos>`, the position written
/// out or depending on F's template parameters.
bool takesTurn(const clang::FunctionDecl *F);

/// Advice for a function template where a task must stand: how to write
/// warp groups that share a body (a ring position cannot be a warp group's
/// index, so tasks that take turns are written once per position).
std::string templateTaskNote(const clang::FunctionDecl *F);

/// First template argument of a `ts::Name<X, ...>` specialisation, as a type.
clang::QualType tsTemplateArg(clang::QualType T, llvm::StringRef Name,
                              unsigned Index = 0);

/// Every type argument of a `ts::Name<Xs...>` specialisation, packs expanded.
std::vector<clang::QualType> tsTemplateTypes(clang::QualType T,
                                             llvm::StringRef Name);

/// `ts::pdl_wait()` or `ts::pdl_launch_dependents()` when E is a call to one.
const clang::CallExpr *asPdlCall(const clang::Expr *E, bool &IsWait);

/// Strips implicit nodes, temporaries and copy constructions.
const clang::Expr *stripExpr(const clang::Expr *E);

/// Source text of a range, for reports and domain signatures.
std::string sourceText(const clang::ASTContext &Ctx, clang::SourceRange R);

/// Source text of an expression, or its printed form when it is written in
/// a macro body (domain bounds must compare equal however they are spelled).
std::string exprText(const clang::ASTContext &Ctx, const clang::Expr *E);

} // namespace ts

#endif
