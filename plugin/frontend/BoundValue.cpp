//===- BoundValue.cpp - Domain bounds compared by value -------------------===//
#include "frontend/BoundValue.h"
#include "frontend/AstWalk.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>
#include <tuple>
#include <vector>

using namespace clang;

namespace ts {

namespace {

/// The variable whose own storage an lvalue is part of: `t`, `t.g`,
/// `t.a[2]` all give `t`; none through a pointer (`p->g`, `p[0]`, `*p`
/// write the pointee, not `p`).
const VarDecl *rootVar(const Expr *E) {
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *R = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(R->getDecl());
    if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow())
      E = M->getBase();
    else if (const auto *A = dyn_cast<ArraySubscriptExpr>(E);
             A && A->getBase()->IgnoreParenImpCasts()->getType()->isArrayType())
      E = A->getBase()->IgnoreParenImpCasts();
    else
      return nullptr;
  }
  return nullptr;
}

bool isRef(const Expr *E, const VarDecl *V) { return rootVar(E) == V; }

bool mutableRef(QualType T) {
  return T->isReferenceType() && !T.getNonReferenceType().isConstQualified();
}

/// Every way a body may change V or a part of it: assignments, increments,
/// its address taken, a non-const reference bound to it (a parameter or a
/// local alias), a non-const member function called on it.
struct Writes : AstWalk {
  const VarDecl *V;
  SourceLocation At; // the first write found
  bool hit(bool Found, SourceLocation L) {
    if (Found && At.isInvalid())
      At = L.isValid() ? L : V->getLocation();
    return At.isInvalid(); // stop at the first
  }
  bool visitUnaryOperator(UnaryOperator *U) override {
    return hit((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
                   isRef(U->getSubExpr(), V),
               U->getExprLoc());
  }
  bool visitBinaryOperator(BinaryOperator *B) override {
    return hit(B->isAssignmentOp() && isRef(B->getLHS(), V), B->getExprLoc());
  }
  // An array decayed to a pointer other than to index it: a write through
  // the pointer would go unseen. Parents are visited first.
  llvm::SmallPtrSet<const Expr *, 8> Indexed;
  bool visitArraySubscriptExpr(ArraySubscriptExpr *A) override {
    Indexed.insert(A->getBase()->IgnoreParens());
    return true;
  }
  bool visitImplicitCastExpr(ImplicitCastExpr *C) override {
    return hit(C->getCastKind() == CK_ArrayToPointerDecay &&
                   !Indexed.count(C) && isRef(C->getSubExpr(), V),
               C->getExprLoc());
  }
  bool visitVarDecl(VarDecl *D) override {
    return hit(D != V && mutableRef(D->getType()) && D->getInit() &&
                   isRef(D->getInit(), V),
               D->getLocation());
  }
  bool visitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    const CXXMethodDecl *M = C->getMethodDecl();
    return hit(M && !M->isConst() && !M->isStatic() &&
                   isRef(C->getImplicitObjectArgument(), V),
               C->getExprLoc());
  }
  bool visitCallExpr(CallExpr *C) override {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      return true;
    // A member operator's object is argument 0 and has no parameter.
    unsigned Shift = 0;
    bool Found = false;
    if (const auto *M = dyn_cast<CXXMethodDecl>(F);
        M && isa<CXXOperatorCallExpr>(C) && !M->isStatic()) {
      Shift = 1;
      Found = !M->isConst() && C->getNumArgs() && isRef(C->getArg(0), V);
    }
    for (unsigned I = Shift;
         I < C->getNumArgs() && I - Shift < F->getNumParams(); ++I)
      Found |= mutableRef(F->getParamDecl(I - Shift)->getType()) &&
               isRef(C->getArg(I), V);
    return hit(Found, C->getExprLoc());
  }
};

struct Refs : AstWalk {
  std::vector<const DeclRefExpr *> Found;
  bool visitDeclRefExpr(DeclRefExpr *R) override {
    Found.push_back(R);
    return true;
  }
};

/// Spells a bound from its AST, not its text, so that the same value
/// written in a macro expansion and written out gives the same key.
class Renderer {
public:
  Renderer(ASTContext &Ctx, const Stmt *Body, const VarDecl *Tile,
           OpaqueLocal *Why)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Body(Body), Tile(Tile), Why(Why) {
  }

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
      return binary(B, Depth);
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
    Rs.walk(E);
    if (anyLocal(Rs))
      return unique(E->getBeginLoc());
    std::string Text; // printed from the AST: a macro's text could differ
    llvm::raw_string_ostream OS(Text);
    E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
    return OS.str();
  }

private:
  /// `1 + p.n` and `p.n + 1` are one value: a commutative operator's
  /// operands are spelled in a fixed order.
  std::string binary(const BinaryOperator *B, unsigned Depth) {
    std::string L = render(B->getLHS(), Depth), R = render(B->getRHS(), Depth);
    switch (B->getOpcode()) {
    case BO_Add:
    case BO_Mul:
    case BO_And:
    case BO_Or:
    case BO_Xor:
    case BO_EQ:
    case BO_NE:
      if (R < L)
        std::swap(L, R);
      break;
    default:
      break;
    }
    return "(" + L + " " + B->getOpcodeStr().str() + " " + R + ")";
  }

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
    SourceLocation Write =
        V->getInit() ? firstWrite(Body, V) : SourceLocation();
    if (!V->getInit() || Write.isValid()) {
      if (Why && !Why->Var)
        *Why = OpaqueLocal{V, Write};
      return unique(V->getLocation());
    }
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
  OpaqueLocal *Why;
};

} // namespace

SourceLocation firstWrite(const Stmt *S, const VarDecl *V) {
  Writes W;
  W.V = V;
  W.walk(S);
  return W.At;
}

bool writesVar(const Stmt *S, const VarDecl *V) {
  return firstWrite(S, V).isValid();
}

std::string boundValue(ASTContext &Ctx, const Expr *E, const Stmt *Body,
                       const VarDecl *Tile, OpaqueLocal *Why) {
  return Renderer(Ctx, Body, Tile, Why).render(E, 0);
}

} // namespace ts
