//===- Position.cpp - Why an operation is where the model cannot see it ---===//
#include "frontend/Position.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace ts {
namespace {

/// A phrase for constructs that hide an op; "" for those that do not
/// (a compound statement that is the body of a construct, casts, ...).
std::string classify(const Stmt *S, const Stmt *Parent) {
  if (isa<LambdaExpr>(S))
    return "a lambda";
  if (isa<WhileStmt>(S))
    return "a 'while' loop";
  if (isa<DoStmt>(S))
    return "a 'do' loop";
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(S);
      FR && FR->getRangeInit() &&
      tsRecord(FR->getRangeInit()->getType(), "domain"))
    return "a ts::domain loop that is not the task's loop or a k-loop directly "
           "in it";
  if (isa<ForStmt>(S) || isa<CXXForRangeStmt>(S))
    return "a 'for' loop that is not the task's ts::domain loop";
  if (isa<SwitchStmt>(S))
    return "a 'switch'";
  if (isa<IfStmt>(S))
    return "an 'if' other than one 'if (i.first())' / 'if (i.last())' directly "
           "in the "
           "domain loop";
  if (isa<CXXTryStmt>(S))
    return "a 'try' block";
  if (isa<CompoundStmt>(S) && Parent && isa<CompoundStmt>(Parent))
    return "a nested block '{ ... }'";
  if (isa<ConditionalOperator>(S))
    return "a '?:' expression";
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    return "a short-circuit '" + BO->getOpcodeStr().str() + "'";
  if (isa<CallExpr>(S) && !isa<CXXMemberCallExpr>(S))
    return "the arguments of a call";
  return "";
}

} // namespace

PositionCause positionCause(ASTContext &Ctx, const Stmt *Call, const Stmt *Body,
                            ArrayRef<const Stmt *> Loops) {
  // Declarations sit between statements ('auto s = h.acquire();' has the
  // VarDecl as the call's parent): walk every node, classify statements.
  DynTypedNode N = DynTypedNode::create(*Call);
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    DynTypedNodeList Parents = Ctx.getParents(N);
    if (Parents.empty())
      break;
    DynTypedNode Parent = Parents[0];
    const Stmt *S = N.get<Stmt>();
    if (S == Body)
      break;
    if (S && S != Call && !llvm::is_contained(Loops, S)) {
      std::string What = classify(S, Parent.get<Stmt>());
      if (!What.empty())
        return {What, S->getBeginLoc()};
    }
    N = Parent;
  }
  return {"", SourceLocation()};
}

} // namespace ts
