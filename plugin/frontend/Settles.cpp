//===- Settles.cpp - Where a task settles its stream-K segments -----------===//
//
// `P.settle(sg, acc)` of a ts::stream_k partition P is the cross-CTA
// fix-up of a stream-K GEMM (include/ts/stream_k.h). The walk records each
// call with what verify/Fixup.cpp needs: whether it runs exactly once per
// iteration of the task's loop, whether its segment is that iteration's
// (`P.at(i)`), and which ops come before it. A call the walk does not reach
// where ops stand is recorded with the construct that hides it.
//
//===----------------------------------------------------------------------===//
#include "frontend/AstWalk.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Position.h"
#include "frontend/Vocabulary.h"
#include "frontend/Walker.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ts {
namespace walk {

namespace {

/// C as a call of method Name of a ts::stream_k.
bool isPartitionCall(const CXXMemberCallExpr *C, StringRef Name) {
  const CXXMethodDecl *M = C ? C->getMethodDecl() : nullptr;
  return M && M->getIdentifier() && M->getName() == Name &&
         tsRecord(C->getImplicitObjectArgument()->getType(), "stream_k");
}

const CXXMemberCallExpr *asSettle(const Expr *E) {
  if (!E)
    return nullptr;
  E = stripExpr(E)->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    E = stripExpr(Not->getSubExpr())->IgnoreParenImpCasts();
  const auto *C = dyn_cast<CXXMemberCallExpr>(E);
  return isPartitionCall(C, "settle") ? C : nullptr;
}

/// The settle() S evaluates once, first: S itself, an if's condition or a
/// local's initializer.
const CXXMemberCallExpr *topSettle(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getInit() || If->getConditionVariable()
               ? nullptr
               : asSettle(If->getCond());
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    const auto *V =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    return V && V->hasInit() ? asSettle(V->getInit()) : nullptr;
  }
  if (const auto *E = dyn_cast<Expr>(S)) {
    if (const auto *Cast = dyn_cast<CStyleCastExpr>(E->IgnoreParens()))
      E = Cast->getSubExpr();
    return asSettle(E);
  }
  return nullptr;
}

/// The variable E reads, through `int(i)` and `i.value()`.
const ValueDecl *readVar(const Expr *E) {
  while (E) {
    E = stripExpr(E)->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E))
      E = Cast->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
             MC && MC->getMethodDecl() &&
             (isa<CXXConversionDecl>(MC->getMethodDecl()) ||
              (MC->getMethodDecl()->getIdentifier() &&
               MC->getMethodDecl()->getName() == "value")))
      E = MC->getImplicitObjectArgument();
    else if (const auto *R = dyn_cast<DeclRefExpr>(E))
      return R->getDecl();
    else
      return nullptr;
  }
  return nullptr;
}

struct SettleCalls : AstWalk {
  std::vector<const CXXMemberCallExpr *> Found;
  bool visitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    if (isPartitionCall(C, "settle"))
      Found.push_back(C);
    return true;
  }
};

unsigned warpgroupsOf(QualType T) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      tsRecord(T, "stream_k"));
  if (!Spec || Spec->getTemplateArgs().size() < 2 ||
      Spec->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
    return 0;
  return unsigned(Spec->getTemplateArgs()[1].getAsIntegral().getZExtValue());
}

} // namespace

std::string Walker::segmentsOf(const Expr *End) const {
  const auto *C = dyn_cast_or_null<CXXMemberCallExpr>(
      End ? stripExpr(End)->IgnoreParenImpCasts() : nullptr);
  return isPartitionCall(C, "segments")
             ? exprText(Ctx, C->getImplicitObjectArgument())
             : std::string();
}

/// Whether Arg is `P.at(i)` of the task loop's variable, directly or
/// through a const local initialized so.
bool Walker::segmentOfLoop(const Expr *Arg, const std::string &P) const {
  const Expr *E = stripExpr(Arg)->IgnoreParenImpCasts();
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V || !V->isLocalVarDecl() || !V->getType().isConstQualified() ||
        !V->hasInit())
      return false;
    E = stripExpr(V->getInit())->IgnoreParenImpCasts();
  }
  const auto *At = dyn_cast<CXXMemberCallExpr>(E);
  return isPartitionCall(At, "at") && At->getNumArgs() == 1 && Loop &&
         exprText(Ctx, At->getImplicitObjectArgument()) == P &&
         readVar(At->getArg(0)) == Loop->getLoopVariable();
}

SettleCall Walker::settleRecord(const CXXMemberCallExpr *C) const {
  SettleCall Rec;
  Rec.Loc = toHandle(C->getExprLoc());
  Rec.Partition = exprText(Ctx, C->getImplicitObjectArgument());
  Rec.Warpgroups = warpgroupsOf(C->getImplicitObjectArgument()->getType());
  Rec.SegmentOfLoop =
      C->getNumArgs() > 0 && segmentOfLoop(C->getArg(0), Rec.Partition);
  Rec.OpIndex = T.Ops.size();
  return Rec;
}

void Walker::settleStatement(const Stmt *S) {
  const CXXMemberCallExpr *C = topSettle(S);
  if (!C)
    return;
  AcceptedSettles.insert(C);
  SettleCall Rec = settleRecord(C);
  Rec.Once = Sec == Section::Loop && G == Guard::Always;
  Rec.Discarded = isa<Expr>(S);
  if (Sec == Section::Inner) {
    Rec.Where = "the inner ts::domain loop";
    Rec.WhereLoc = toHandle(InnerLoops.back()->getForLoc());
  } else if (G != Guard::Always) {
    Rec.Where = "a first()/last() guard";
  } else if (Sec != Section::Loop) {
    Rec.Where = "the task body outside its loop";
  }
  T.Settles.push_back(std::move(Rec));
}

void Walker::checkSettles(const CompoundStmt *Body) {
  SettleCalls Calls;
  Calls.walk(Body);
  std::vector<const Stmt *> Loops{Loop};
  Loops.insert(Loops.end(), InnerLoops.begin(), InnerLoops.end());
  for (const CXXMemberCallExpr *C : Calls.Found) {
    if (AcceptedSettles.count(C))
      continue;
    SettleCall Rec = settleRecord(C);
    Rec.OpIndex = 0;
    PositionCause Cause = positionCause(Ctx, C, Body, Loops);
    Rec.Where = Cause.What.empty() ? "an expression that may not evaluate it"
                                   : Cause.What;
    Rec.WhereLoc = toHandle(Cause.Where);
    T.Settles.push_back(std::move(Rec));
  }
}

} // namespace walk
} // namespace ts
