//===- BoundValue.cpp - Domain bounds compared by value -------------------===//
#include "frontend/BoundValue.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

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

class Renderer {
public:
  Renderer(ASTContext &Ctx, const Stmt *Body, const VarDecl *Tile)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Body(Body), Tile(Tile) {}

  std::string render(const Expr *E, unsigned Depth) {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(E->getSourceRange()), SM,
        Ctx.getLangOpts());
    Refs Rs;
    Rs.TraverseStmt(const_cast<Expr *>(E));
    if (R.isInvalid() || Depth > 8) // inside a macro: no text to edit
      return anyLocal(Rs) ? unique(E->getBeginLoc()) : exprText(Ctx, E);
    unsigned Begin = SM.getFileOffset(R.getBegin()),
             End = SM.getFileOffset(R.getEnd());
    std::vector<std::tuple<unsigned, unsigned, std::string>> Edits;
    for (const DeclRefExpr *Ref : Rs.Found) {
      std::optional<std::string> By = replacement(Ref, Depth);
      if (!By)
        continue;
      SourceLocation L = Ref->getLocation();
      if (L.isMacroID())
        return unique(L);
      unsigned At = SM.getFileOffset(L);
      if (At < Begin || At >= End)
        return unique(L);
      Edits.emplace_back(At, Ref->getNameInfo().getAsString().size(), *By);
    }
    std::string Text = sourceText(Ctx, E->getSourceRange());
    std::sort(Edits.rbegin(), Edits.rend());
    for (auto &[At, Len, By] : Edits)
      Text.replace(At - Begin, Len, By);
    return Text;
  }

private:
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
    return "(" + render(V->getInit(), Depth + 1) + ")";
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
