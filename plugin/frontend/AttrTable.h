//===- AttrTable.h - [[ts::...]] attributes seen by Sema --------*- C++ -*-===//
//
// The attribute handlers only record what they saw, in the AST itself: an
// `annotate` attribute whose delayed arguments are a marker and the
// arguments as written (codegen reads only non-delayed ones). So each parse
// keeps its own attributes (clangd parses files on several threads at once),
// they survive a preamble, and redeclarations can tell inherited ones apart.
// All checking happens in the AST consumer, through one severity policy.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ATTRTABLE_H
#define LIBTS_FRONTEND_ATTRTABLE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <vector>

namespace ts {

/// AsyncReader: [[ts::async_reader]] on a user function that issues MMAs
/// (or other reads of shared memory) completing at ts::wgmma::wait_group.
enum class AttrKind { Resource, Task, Kernel, AsyncReader };

/// "ts::resource", "ts::task", ...: the spelling diagnostics use.
const char *attrName(AttrKind K);

/// One argument: an expression, or a bare name clang parsed as an
/// identifier (resolved by ordinary lookup where the attribute stands).
struct SeenArg {
  clang::Expr *E = nullptr;
  clang::NamedDecl *Named = nullptr;
  clang::SourceLocation Loc;
  std::string Spelling;
  bool Overloaded = false; ///< The name found several functions.
  bool NotAValue = false;  ///< The name found a type, namespace or template.
};

struct SeenAttr {
  AttrKind Kind;
  clang::Decl *D;
  clang::SourceRange Range;
  llvm::SmallVector<SeenArg, 8> Args;
};

/// The [[ts::...]] attributes of this AST, in declaration order.
std::vector<SeenAttr> collectAttrs(clang::ASTContext &Ctx);

/// Takes our annotate attributes off D (and what it contains, for
/// namespaces and linkage blocks): inherited copies only, or all. Codegen
/// would otherwise record them and keep the tasks alive as functions.
void dropTsAttrs(clang::Decl *D, bool InheritedOnly);
/// Every one of them in the AST, once the analysis is done.
void dropTsAttrs(clang::ASTContext &Ctx);

/// The kind of [[ts::...]] attribute written on D itself, if any.
std::optional<AttrKind> tsAttrKind(const clang::Decl *D);

/// Whether a declaration of F carries [[ts::async_reader]].
bool isAsyncReader(const clang::FunctionDecl *F);

} // namespace ts

#endif
