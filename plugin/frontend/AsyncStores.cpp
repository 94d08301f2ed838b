//===- AsyncStores.cpp - Statements that may start TMA stores -------------===//
#include "frontend/AsyncStores.h"
#include "frontend/AstWalk.h"
#include "frontend/HiddenCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <set>

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

/// Helpers deeper than this are not followed: they may store.
constexpr unsigned MaxDepth = 8;

/// Walks a body and the user functions it calls. A call is safe when it is
/// a builtin or libts's own outside ts::tma; a user function is followed
/// when its body is in the translation unit; anything else (a call through
/// a pointer, a virtual call, a function without a body, a non-trivial
/// constructor, inline assembly naming a bulk copy) may store.
struct StoreWalk : AstWalk {
  std::set<const Decl *> &Seen;
  unsigned Depth;
  bool May = false;

  StoreWalk(std::set<const Decl *> &Seen, unsigned Depth)
      : Seen(Seen), Depth(Depth) {}

  bool follow(const FunctionDecl *F) {
    const FunctionDecl *Def = nullptr;
    if (!F->hasBody(Def) || !Def || Depth >= MaxDepth)
      return false;
    if (!Seen.insert(Def->getCanonicalDecl()).second)
      return true; // being walked already: its calls are counted there
    StoreWalk In(Seen, Depth + 1);
    In.walk(Def->getBody());
    return !In.May;
  }
  bool safeCall(const FunctionDecl *F) {
    if (!F)
      return false;
    if (F->getBuiltinID() || inTsOutsideTma(F))
      return true;
    if (inLibts(F))
      return false; // ts::tma
    if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->isVirtual())
      return false;
    return follow(F);
  }
  bool visitCallExpr(CallExpr *C) override {
    May |= !safeCall(C->getDirectCallee());
    return !May;
  }
  bool visitCXXConstructExpr(CXXConstructExpr *C) override {
    const CXXConstructorDecl *F = C->getConstructor();
    May |= !F->isTrivial() && !inTsOutsideTma(F);
    return !May;
  }
  bool visitGCCAsmStmt(GCCAsmStmt *A) override {
    May |= A->getAsmString()->getString().contains("bulk");
    return !May;
  }
};

} // namespace

bool mayStoreAsync(const Stmt *S) {
  std::set<const Decl *> Seen;
  StoreWalk W(Seen, 0);
  W.walk(S);
  return W.May;
}

} // namespace ts
