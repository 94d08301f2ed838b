//===- Wgmma.cpp - Recognising ts::wgmma calls in task bodies -------------===//
#include "frontend/Wgmma.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>

using namespace clang;

namespace ts {

bool isWgmmaDecl(const FunctionDecl *F, llvm::StringRef Prefix) {
  if (!F || !F->getIdentifier() || !F->getName().starts_with(Prefix))
    return false;
  const auto *NS =
      dyn_cast<NamespaceDecl>(F->getDeclContext()->getRedeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "wgmma")
    return false;
  const auto *Outer =
      dyn_cast<NamespaceDecl>(NS->getDeclContext()->getRedeclContext());
  return Outer && Outer->getIdentifier() && Outer->getName() == "ts" &&
         Outer->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

const CallExpr *asMmaGroupCall(const Expr *E, OpKind &Kind, unsigned &Pending) {
  const auto *C =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (isWgmmaDecl(F, "commit_group")) {
    Kind = OpKind::MmaCommit;
    return C;
  }
  if (!isWgmmaDecl(F, "wait_group"))
    return nullptr;
  const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
  if (!Args || Args->size() != 1 ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return nullptr;
  Kind = OpKind::MmaWait;
  Pending = unsigned(Args->get(0).getAsIntegral().getLimitedValue(~0u));
  return C;
}

namespace {
struct MmaCalls : RecursiveASTVisitor<MmaCalls> {
  bool Found = false;
  bool VisitCallExpr(CallExpr *C) {
    Found |= isWgmmaDecl(C->getDirectCallee(), "mma");
    return !Found;
  }
};
} // namespace

bool issuesMma(const Stmt *S) {
  MmaCalls V;
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.Found;
}

bool isWgmmaValue(const Expr *E) {
  const auto *C =
      dyn_cast_or_null<CallExpr>(E ? stripExpr(E)->IgnoreImpCasts() : nullptr);
  return C && isWgmmaDecl(C->getDirectCallee());
}

bool addressOnly(const Stmt *S) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS)
    return false;
  return std::all_of(DS->decl_begin(), DS->decl_end(), [](const Decl *D) {
    const auto *V = dyn_cast<VarDecl>(D);
    return V && V->hasInit() && isWgmmaValue(V->getInit());
  });
}

} // namespace ts
