//===- CarriedStages.cpp - Stage variables that outlive an iteration ------===//
#include "frontend/CarriedStages.h"
#include "frontend/AstWalk.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Vocabulary.h"
#include "frontend/Walker.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace ts {

const VarDecl *carriedStageDecl(const Stmt *S) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  const auto *V = DS && DS->isSingleDecl()
                      ? dyn_cast<VarDecl>(DS->getSingleDecl())
                      : nullptr;
  if (!V || !tsRecord(V->getType(), "stage") || V->getType()->isReferenceType())
    return nullptr;
  const auto *CE = dyn_cast_or_null<CXXConstructExpr>(V->getInit());
  return CE && CE->getNumArgs() == 0 ? V : nullptr;
}

std::optional<StageAssign> asStageAssign(const Stmt *S) {
  const auto *E = dyn_cast_or_null<Expr>(S);
  const auto *OC =
      E ? dyn_cast<CXXOperatorCallExpr>(E->IgnoreImplicit()) : nullptr;
  if (!OC || OC->getOperator() != OO_Equal || OC->getNumArgs() != 2)
    return std::nullopt;
  const auto *DRE = dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!V || !tsRecord(V->getType(), "stage"))
    return std::nullopt;
  return StageAssign{OC, V, OC->getArg(1), OC->getOperatorLoc()};
}

const ParmVarDecl *handleForStage(ArrayRef<const ParmVarDecl *> Params,
                                  QualType T, bool &Ambiguous) {
  Ambiguous = false;
  QualType Payload = tsTemplateArg(T, "stage");
  if (Payload.isNull())
    return nullptr;
  const ParmVarDecl *Found = nullptr;
  for (const ParmVarDecl *P : Params)
    for (const char *Role : {"producer", "consumer"}) {
      QualType R = tsTemplateArg(P->getType(), Role);
      if (R.isNull() || R.getCanonicalType().getUnqualifiedType() !=
                            Payload.getCanonicalType().getUnqualifiedType())
        continue;
      Ambiguous |= Found != nullptr;
      Found = P;
    }
  return Found;
}

namespace walk {
namespace {

/// All assignments to stage variables in a body, wherever they stand.
struct StageAssigns : AstWalk {
  std::vector<const CXXOperatorCallExpr *> Found;
  bool visitCXXOperatorCallExpr(CXXOperatorCallExpr *C) override {
    if (asStageAssign(C))
      Found.push_back(C);
    return true;
  }
};

} // namespace

/// `ts::stage<R> prev;` and `prev = s;` (frontend/CarriedStages.h).
bool Walker::carryStatement(const Stmt *S) {
  if (const VarDecl *V = carriedStageDecl(S)) {
    declareCarried(V);
    return true;
  }
  std::optional<StageAssign> A = asStageAssign(S);
  if (A)
    assignCarried(*A);
  return A.has_value();
}

void Walker::pushCarry(SourceLocation L, std::string Text, const VarDecl *To,
                       int From) {
  ts::Op Rec;
  Rec.Kind = OpKind::Carry;
  Rec.Resource = ts::Op::NoResource;
  Rec.R = Stages.at(To).R;
  Rec.Sec = Sec;
  Rec.G = G;
  Rec.Loc = toHandle(L);
  Rec.Text = std::move(Text);
  Rec.Stage = StageIds.at(To);
  Rec.From = From;
  T.Ops.push_back(std::move(Rec));
}

void Walker::declareCarried(const VarDecl *V) {
  std::vector<const ParmVarDecl *> Params;
  for (const auto &[P, H] : Handles)
    Params.push_back(P);
  bool Ambiguous = false;
  const ParmVarDecl *P = handleForStage(Params, V->getType(), Ambiguous);
  if (!P || Ambiguous) {
    Rejected.insert(V);
    QualType R = tsTemplateArg(V->getType(), "stage");
    std::string Res = R->getAsRecordDecl()
                          ? R->getAsRecordDecl()->getNameAsString()
                          : R.getAsString();
    error(V->getLocation(),
          "stage variable '" + V->getNameAsString() + "' holds stages of '" +
              Res + "', but the task has " + (P ? "two handles" : "no handle") +
              " of it",
          P ? "a task may carry stages of a resource it either produces or "
              "consumes"
            : "carry stages of a resource the task takes a ts::producer or "
              "ts::consumer handle of");
    return;
  }
  Stages[V] = Handles.at(P);
  StageIds[V] = newStageId();
  Carried.insert(V);
  pushCarry(V->getLocation(), sourceText(Ctx, V->getSourceRange()), V,
            ts::Op::NoStage);
}

void Walker::assignCarried(const StageAssign &A) {
  AcceptedAssigns.insert(A.Call);
  if (Rejected.count(A.To))
    return; // declareCarried reported it
  // A carried variable has one resource type, which only one handle of the
  // task hands out (declareCarried), so any stage variable assigned fits.
  const VarDecl *From = stageVar(A.From);
  const std::string To = A.To->getNameAsString();
  if (!From && A.From)
    if (auto Op = asOp(A.From)) {
      takenIntoExisting(A, *Op);
      return;
    }
  if (!Carried.count(A.To) || !From) {
    error(A.Loc,
          Carried.count(A.To)
              ? "stage variable '" + To +
                    "' may be assigned only a stage variable"
              : "assignment to stage '" + To + "', which an operation bound",
          "declare 'ts::stage<R> prev;' where pipeline operations may stand "
          "and assign it "
          "a stage the task took: 'prev = s;'");
    return;
  }
  pushCarry(A.Loc, To + " = " + From->getNameAsString(), A.To,
            StageIds.at(From));
}

/// `s = rows.wait();`: a stage an operation takes starts a variable of its
/// own. One error, at the assignment, with the two ways to write it (the
/// operation is not reported again as hidden in the call).
void Walker::takenIntoExisting(const StageAssign &A, const OpCall &Op) {
  Accepted.insert(Op.Call);
  const std::string To = A.To->getNameAsString();
  const std::string Taken = sourceText(Ctx, Op.Call->getSourceRange());
  error(A.Loc,
        "'" + To + " = " + Taken +
            "' puts a stage the operation takes into an existing variable",
        "write 'auto s = " + Taken +
            ";' (a variable of its own, in the iteration that releases or "
            "commits it); to keep a stage past its iteration, declare "
            "'ts::stage<R> prev;' before the loop and copy it: 'prev = s;'");
}

/// An assignment the walk did not take as a Carry op (inside a condition, a
/// nested loop, an expression) would change what a variable holds unseen.
void Walker::checkStageAssigns(const CompoundStmt *Body) {
  StageAssigns All;
  All.walk(Body);
  for (const CXXOperatorCallExpr *C : All.Found)
    if (!AcceptedAssigns.count(C))
      misplaced(C, Body,
                "assignment to stage '" +
                    asStageAssign(C)->To->getNameAsString() + "'",
                PositionHint);
}

} // namespace walk
} // namespace ts
