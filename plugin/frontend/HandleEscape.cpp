//===- HandleEscape.cpp - A pipeline handle passed to a helper ------------===//
#include "frontend/HandleEscape.h"
#include "frontend/AstWalk.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"

#include <algorithm>

using namespace clang;

namespace ts {

namespace {

/// Member calls on one parameter, in source order.
struct OpsOn : AstWalk {
  const ParmVarDecl *Param;
  std::vector<std::string> Names;
  explicit OpsOn(const ParmVarDecl *P) : Param(P) {}
  bool visitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    const auto *Ref = dyn_cast_or_null<DeclRefExpr>(
        C->getImplicitObjectArgument()
            ? C->getImplicitObjectArgument()->IgnoreParenImpCasts()
            : nullptr);
    const CXXMethodDecl *M = C->getMethodDecl();
    if (Ref && Ref->getDecl() == Param && M && M->getIdentifier() &&
        std::find(Names.begin(), Names.end(), M->getName().str()) ==
            Names.end())
      Names.push_back(M->getName().str());
    return true;
  }
};

/// The call R is an argument of, through casts and temporaries.
const CallExpr *enclosingCall(ASTContext &Ctx, const Expr *R, unsigned &Arg) {
  DynTypedNode N = DynTypedNode::create(*R);
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(N);
    if (Parents.empty())
      return nullptr;
    const auto *E = Parents[0].get<Expr>();
    if (!E)
      return nullptr;
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      const Expr *Child = N.get<Expr>();
      for (unsigned I = 0; I < C->getNumArgs(); ++I)
        if (C->getArg(I) == Child) {
          Arg = I;
          return C;
        }
      return nullptr;
    }
    if (!isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXConstructExpr,
             ParenExpr, CXXBindTemporaryExpr>(E))
      return nullptr;
    N = Parents[0];
  }
  return nullptr;
}

} // namespace

HandlePassed handlePassed(ASTContext &Ctx, const DeclRefExpr *R) {
  HandlePassed Out;
  unsigned Arg = 0;
  const CallExpr *C = enclosingCall(Ctx, R, Arg);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F)
    return Out;
  Out.Callee = F;
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || Arg >= Def->getNumParams())
    return Out;
  OpsOn V(Def->getParamDecl(Arg));
  V.walk(Def->getBody());
  Out.Ops = std::move(V.Names);
  return Out;
}

} // namespace ts
