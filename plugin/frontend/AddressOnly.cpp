//===- AddressOnly.cpp - Declarations that take a stage's address ---------===//
#include "frontend/AddressOnly.h"
#include "frontend/AstWalk.h"
#include "frontend/Vocabulary.h"
#include "frontend/Wgmma.h"

#include "clang/AST/ExprCXX.h"

#include <algorithm>

using namespace clang;

namespace ts {

namespace {

bool mentionsStage(const Expr *E, StagePredicate IsStage) {
  struct Refs : AstWalk {
    StagePredicate IsStage;
    bool Found = false;
    explicit Refs(StagePredicate P) : IsStage(P) {}
    bool visitDeclRefExpr(DeclRefExpr *R) override {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      Found |= V && IsStage(V);
      return !Found;
    }
  } R(IsStage);
  R.walk(E);
  return R.Found;
}

/// A value loaded from a variable of its own (not through a reference) is
/// a register's, never a stage's bytes.
bool loadsOwnValue(const CastExpr *C) {
  const auto *R = dyn_cast<DeclRefExpr>(C->getSubExpr()->IgnoreParens());
  const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  return V && !V->getType()->isReferenceType();
}

bool arithmetic(BinaryOperatorKind K) {
  switch (K) {
  case BO_Add:
  case BO_Sub:
  case BO_Mul:
  case BO_Div:
  case BO_Rem:
  case BO_Shl:
  case BO_Shr:
  case BO_And:
  case BO_Or:
  case BO_Xor:
    return true;
  default:
    return false;
  }
}

/// Whether E, evaluated, loads nothing from a stage: whatever touches no
/// stage variable, a stage handle's accessors (`s->`, `*s`, `s.get()`),
/// member and element selection, casts, `&`, and address arithmetic.
bool computesAddress(const Expr *E, StagePredicate IsStage) {
  E = E->IgnoreParens();
  if (!mentionsStage(E, IsStage))
    return true;
  auto Sub = [&](const Expr *X) { return computesAddress(X, IsStage); };
  if (const auto *C = dyn_cast<CastExpr>(E)) {
    switch (C->getCastKind()) {
    case CK_LValueToRValue:
      return loadsOwnValue(C);
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      return false;
    default:
      return Sub(C->getSubExpr());
    }
  }
  if (isa<DeclRefExpr>(E))
    return true;
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return Sub(M->getBase());
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return Sub(A->getBase()) && Sub(A->getIdx());
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return (U->getOpcode() == UO_AddrOf || U->getOpcode() == UO_Deref ||
            U->getOpcode() == UO_Plus || U->getOpcode() == UO_Minus) &&
           Sub(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return arithmetic(B->getOpcode()) && Sub(B->getLHS()) && Sub(B->getRHS());
  if (isWgmmaValue(E)) { // a descriptor of the address its arguments give
    const auto *C = cast<CallExpr>(stripExpr(E)->IgnoreImpCasts());
    return std::all_of(C->arg_begin(), C->arg_end(), Sub);
  }
  // Every member of ts::stage returns where the stage lies, not its bytes.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return tsRecord(MC->getImplicitObjectArgument()->getType(), "stage") &&
           std::all_of(MC->arg_begin(), MC->arg_end(), Sub);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return OC->getNumArgs() == 1 && tsRecord(OC->getArg(0)->getType(), "stage");
  return false;
}

} // namespace

bool addressOnly(const Stmt *S, StagePredicate IsStage) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS)
    return false;
  return std::all_of(DS->decl_begin(), DS->decl_end(), [&](const Decl *D) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->hasInit())
      return false;
    // A scalar (an address, `s.index()`) or the stage's barrier handle
    // holds no stage bytes unless its initialiser loads them.
    QualType T = V->getType();
    return (T->isScalarType() || T->isReferenceType() ||
            tsRecord(T, "tma_barrier") || isWgmmaValue(V->getInit())) &&
           computesAddress(V->getInit(), IsStage);
  });
}

} // namespace ts
