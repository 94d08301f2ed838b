//===- AsyncStores.cpp - Statements that may start TMA stores -------------===//
#include "frontend/AsyncStores.h"

#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ts {

namespace {

/// Declared in namespace ts (at any depth, classes included) but not in
/// ts::tma, where the stores live.
bool inTsOutsideTma(const Decl *D) {
  bool InTs = false, InTma = false;
  for (const DeclContext *C = D->getDeclContext(); C; C = C->getParent()) {
    const auto *NS = dyn_cast<NamespaceDecl>(C);
    if (!NS || !NS->getIdentifier())
      continue;
    InTma |= NS->getName() == "tma";
    InTs = NS->getName() == "ts" &&
           NS->getParent()->getRedeclContext()->isTranslationUnit();
  }
  return InTs && !InTma;
}

struct Calls : RecursiveASTVisitor<Calls> {
  bool May = false;
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    May |= !F || !(F->getBuiltinID() || inTsOutsideTma(F));
    return !May;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *C) {
    const CXXConstructorDecl *F = C->getConstructor();
    May |= !F->isTrivial() && !inTsOutsideTma(F);
    return !May;
  }
};

} // namespace

bool mayStoreAsync(const Stmt *S) {
  Calls V;
  V.TraverseStmt(const_cast<Stmt *>(S));
  return V.May;
}

} // namespace ts
