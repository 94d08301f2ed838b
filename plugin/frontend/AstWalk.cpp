//===- AstWalk.cpp - The front end's one RecursiveASTVisitor --------------===//
#include "frontend/AstWalk.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace ts {

namespace {

/// Forwards every hook of AstWalk; the only instantiation of the template.
class Adapter : public RecursiveASTVisitor<Adapter> {
public:
  explicit Adapter(AstWalk &W) : W(W) {}

#define LIBTS_FORWARD(Kind)                                                    \
  bool Visit##Kind(Kind *N) { return W.visit##Kind(N); }
  LIBTS_FORWARD(Stmt)
  LIBTS_FORWARD(DeclRefExpr)
  LIBTS_FORWARD(CallExpr)
  LIBTS_FORWARD(CXXMemberCallExpr)
  LIBTS_FORWARD(CXXOperatorCallExpr)
  LIBTS_FORWARD(CXXConstructExpr)
  LIBTS_FORWARD(AsmStmt)
  LIBTS_FORWARD(GCCAsmStmt)
  LIBTS_FORWARD(UnaryOperator)
  LIBTS_FORWARD(BinaryOperator)
  LIBTS_FORWARD(ArraySubscriptExpr)
  LIBTS_FORWARD(CastExpr)
  LIBTS_FORWARD(ImplicitCastExpr)
  LIBTS_FORWARD(VarDecl)
  LIBTS_FORWARD(CXXForRangeStmt)
  LIBTS_FORWARD(ReturnStmt)
#undef LIBTS_FORWARD

  bool TraverseLambdaExpr(LambdaExpr *L) {
    if (!W.enterLambda(L))
      return true;
    bool Go = RecursiveASTVisitor::TraverseLambdaExpr(L);
    W.leaveLambda(L);
    return Go;
  }

private:
  AstWalk &W;
};

} // namespace

AstWalk::~AstWalk() = default;

bool AstWalk::walk(const Stmt *S) {
  Adapter A(*this);
  return A.TraverseStmt(const_cast<Stmt *>(S));
}

} // namespace ts
