//===- LoopTrips.cpp - For loops that run a constant number of times ------===//
#include "frontend/LoopTrips.h"
#include "frontend/AstWalk.h"
#include "frontend/BoundValue.h"

using namespace clang;

namespace ts {

namespace {

/// No statement in S leaves the loop early or changes V.
bool runsThrough(const Stmt *S, const VarDecl *V) {
  struct Exits : AstWalk {
    bool Found = false;
    bool visitStmt(Stmt *X) override {
      Found |= isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt>(X);
      return !Found;
    }
  } E;
  E.walk(S);
  return !E.Found && !writesVar(S, V);
}

} // namespace

std::optional<ConstantLoop> constantLoop(ASTContext &Ctx, const ForStmt *F) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!V || !V->getInit() || !Cond || !F->getInc() ||
      !runsThrough(F->getBody(), V))
    return std::nullopt;
  auto Int = [&](const Expr *E) -> std::optional<int64_t> {
    if (auto I = E->getIntegerConstantExpr(Ctx))
      return I->getExtValue();
    return std::nullopt;
  };
  auto IsV = [&](const Expr *E) {
    const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return R && R->getDecl() == V;
  };
  std::optional<int64_t> Lo = Int(V->getInit()), Hi = Int(Cond->getRHS()), Step;
  const Expr *Inc = F->getInc()->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(Inc);
      U && U->isIncrementOp() && IsV(U->getSubExpr()))
    Step = 1;
  else if (const auto *B = dyn_cast<CompoundAssignOperator>(Inc);
           B && B->getOpcode() == BO_AddAssign && IsV(B->getLHS()))
    Step = Int(B->getRHS());
  if (!Lo || !Hi || !Step || *Step <= 0 || !IsV(Cond->getLHS()))
    return std::nullopt;
  int64_t End = *Hi + (Cond->getOpcode() == BO_LE ? 1 : 0);
  if (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE &&
      !(Cond->getOpcode() == BO_NE && (*Hi - *Lo) % *Step == 0))
    return std::nullopt;
  uint64_t Trips = End > *Lo ? uint64_t((End - *Lo + *Step - 1) / *Step) : 0;
  return ConstantLoop{V, *Lo, *Step, Trips};
}

} // namespace ts
