//===- Wgmma.cpp - Recognising ts::wgmma calls in task bodies -------------===//
#include "frontend/Wgmma.h"
#include "frontend/AttrTable.h"
#include "frontend/HiddenCalls.h"
#include "frontend/Vocabulary.h"

using namespace clang;

namespace ts {

/// A function of namespace ts::<Space> whose name starts with Prefix.
static bool isTsSubspaceDecl(const FunctionDecl *F, llvm::StringRef Space,
                             llvm::StringRef Prefix) {
  if (!F || !F->getIdentifier() || !F->getName().starts_with(Prefix))
    return false;
  const auto *NS =
      dyn_cast<NamespaceDecl>(F->getDeclContext()->getRedeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != Space)
    return false;
  const auto *Outer =
      dyn_cast<NamespaceDecl>(NS->getDeclContext()->getRedeclContext());
  return Outer && Outer->getIdentifier() && Outer->getName() == "ts" &&
         Outer->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

bool isWgmmaDecl(const FunctionDecl *F, llvm::StringRef Prefix) {
  return isTsSubspaceDecl(F, "wgmma", Prefix);
}

bool isTcgen05Decl(const FunctionDecl *F, llvm::StringRef Prefix) {
  return isTsSubspaceDecl(F, "tcgen05", Prefix);
}

bool issuesUmma(const Stmt *S) {
  // tcgen05.cp reads shared memory on the tensor-core pipe as the MMAs do:
  // in issue order with them, covered by the same commit.
  return reaches(S, [](const Stmt *X) {
           const auto *C = dyn_cast<CallExpr>(X);
           return C && (isTcgen05Decl(C->getDirectCallee(), "mma") ||
                        isTcgen05Decl(C->getDirectCallee(), "cp_"));
         }) != nullptr;
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

bool issuesMma(const Stmt *S) {
  // Helpers are followed: an MMA issued in a function the statement calls
  // reads the stage after the call returns all the same. A user's
  // [[ts::async_reader]] function issues MMAs by declaration.
  return reaches(S, [](const Stmt *X) {
           const auto *C = dyn_cast<CallExpr>(X);
           return C && (isWgmmaDecl(C->getDirectCallee(), "mma") ||
                        isAsyncReader(C->getDirectCallee()));
         }) != nullptr;
}

const AsmStmt *asyncAsm(const Stmt *S) {
  // An async reader's own PTX is what its attribute declares, and a
  // ts::tcgen05 call's is what the schedule records of it: not hidden.
  auto NotReader = [](const FunctionDecl *F) {
    return !isAsyncReader(F) && !isTcgen05Decl(F);
  };
  return cast_or_null<AsmStmt>(reaches(
      S,
      [](const Stmt *X) {
        const auto *A = dyn_cast<GCCAsmStmt>(X);
        if (!A)
          return false;
        StringRef Text = A->getAsmString()->getString();
        return llvm::any_of(AsyncPtx,
                            [&](const char *Op) { return Text.contains(Op); });
      },
      NotReader));
}

bool isWgmmaValue(const Expr *E) {
  const auto *C =
      dyn_cast_or_null<CallExpr>(E ? stripExpr(E)->IgnoreImpCasts() : nullptr);
  return C && (isWgmmaDecl(C->getDirectCallee()) ||
               isTcgen05Decl(C->getDirectCallee(), "make_desc") ||
               isTcgen05Decl(C->getDirectCallee(), "advance_k"));
}

} // namespace ts
