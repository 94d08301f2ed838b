//===- BoundValue.cpp - Domain bounds compared by value -------------------===//
#include "frontend/BoundValue.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <tuple>
#include <vector>

using namespace clang;

namespace ts {

namespace {

bool isRef(const Expr *E, const VarDecl *V) {
  const auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return R && R->getDecl() == V;
}

struct Writes : RecursiveASTVisitor<Writes> {
  const VarDecl *V;
  bool Found = false;
  bool VisitUnaryOperator(UnaryOperator *U) {
    Found |= (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
             isRef(U->getSubExpr(), V);
    return !Found;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    Found |= B->isAssignmentOp() && isRef(B->getLHS(), V);
    return !Found;
  }
  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *F = C->getDirectCallee();
    for (unsigned I = 0; F && I < C->getNumArgs() && I < F->getNumParams();
         ++I) {
      QualType T = F->getParamDecl(I)->getType();
      Found |= T->isLValueReferenceType() &&
               !T->getPointeeType().isConstQualified() &&
               isRef(C->getArg(I), V);
    }
    return !Found;
  }
};

struct Refs : RecursiveASTVisitor<Refs> {
  std::vector<const DeclRefExpr *> Found;
  bool VisitDeclRefExpr(DeclRefExpr *R) {
    Found.push_back(R);
    return true;
  }
};

/// Spells a bound from its AST, not its text, so that the same value
/// written in a macro expansion and written out gives the same key.
class Renderer {
public:
  Renderer(ASTContext &Ctx, const Stmt *Body, const VarDecl *Tile)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Body(Body), Tile(Tile) {}

  std::string render(const Expr *E, unsigned Depth) {
    E = E->IgnoreParenImpCasts();
    if (Depth > 8)
      return unique(E->getBeginLoc());
    if (auto V = E->isValueDependent() ? std::nullopt
                                       : E->getIntegerConstantExpr(Ctx))
      return V->isSigned() ? std::to_string(V->getExtValue())
                           : std::to_string(V->getZExtValue());
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      return replacement(R, Depth).value_or(
          R->getDecl()->getQualifiedNameAsString());
    if (const auto *B = dyn_cast<BinaryOperator>(E))
      return "(" + render(B->getLHS(), Depth) + " " + B->getOpcodeStr().str() +
             " " + render(B->getRHS(), Depth) + ")";
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && !U->isPostfix())
      return UnaryOperator::getOpcodeStr(U->getOpcode()).str() + "(" +
             render(U->getSubExpr(), Depth) + ")";
    if (const auto *M = dyn_cast<MemberExpr>(E))
      return render(M->getBase(), Depth) + (M->isArrow() ? "->" : ".") +
             M->getMemberDecl()->getNameAsString();
    if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
      return "(" + C->getTypeAsWritten().getCanonicalType().getAsString() +
             ")(" + render(C->getSubExpr(), Depth) + ")";
    if (const auto *C = dyn_cast<ConditionalOperator>(E))
      return "(" + render(C->getCond(), Depth) + " ? " +
             render(C->getTrueExpr(), Depth) + " : " +
             render(C->getFalseExpr(), Depth) + ")";
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      return render(A->getBase(), Depth) + "[" + render(A->getIdx(), Depth) +
             "]";
    if (const auto *C = dyn_cast<CallExpr>(E); C && !isa<CUDAKernelCallExpr>(C))
      return call(C, Depth);
    if (const auto *D = dyn_cast<CXXDefaultArgExpr>(E))
      return render(D->getExpr(), Depth);
    Refs Rs; // anything else: its text, unless it reads a local
    Rs.TraverseStmt(const_cast<Expr *>(E));
    if (anyLocal(Rs))
      return unique(E->getBeginLoc());
    std::string Text; // printed from the AST: a macro's text could differ
    llvm::raw_string_ostream OS(Text);
    E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
    return OS.str();
  }

private:
  std::string call(const CallExpr *C, unsigned Depth) {
    const FunctionDecl *F = C->getDirectCallee();
    std::string Text =
        F ? F->getQualifiedNameAsString() : render(C->getCallee(), Depth);
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(C))
      Text = render(M->getImplicitObjectArgument(), Depth) + "." +
             (F ? F->getNameAsString() : Text);
    Text += "(";
    for (unsigned I = 0; I < C->getNumArgs(); ++I)
      Text += (I ? ", " : "") + render(C->getArg(I), Depth);
    return Text + ")";
  }
  std::optional<std::string> replacement(const DeclRefExpr *Ref,
                                         unsigned Depth) {
    const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
    if (!V)
      return std::nullopt;
    if (V == Tile)
      return std::string("<tile>");
    if (!V->isLocalVarDecl() || isa<ParmVarDecl>(V))
      return std::nullopt;
    if (!V->getInit() || writesVar(Body, V))
      return unique(V->getLocation());
    return render(V->getInit(), Depth + 1); // operators carry their parentheses
  }
  bool anyLocal(const Refs &Rs) const {
    return std::any_of(Rs.Found.begin(), Rs.Found.end(),
                       [&](const DeclRefExpr *R) {
                         const auto *V = dyn_cast<VarDecl>(R->getDecl());
                         return V && (V == Tile || V->isLocalVarDecl());
                       });
  }
  std::string unique(SourceLocation L) const {
    return "<local@" + std::to_string(SM.getFileOffset(SM.getFileLoc(L))) + ">";
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const Stmt *Body;
  const VarDecl *Tile;
};

} // namespace

bool writesVar(const Stmt *S, const VarDecl *V) {
  Writes W;
  W.V = V;
  W.TraverseStmt(const_cast<Stmt *>(S));
  return W.Found;
}

std::string boundValue(ASTContext &Ctx, const Expr *E, const Stmt *Body,
                       const VarDecl *Tile) {
  return Renderer(Ctx, Body, Tile).render(E, 0);
}

} // namespace ts
