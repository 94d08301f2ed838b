//===- Schedule.cpp - Task body to head/loop/tail ops ---------------------===//
#include "frontend/Schedule.h"
#include "frontend/AddressOnly.h"
#include "frontend/AstWalk.h"
#include "frontend/AsyncStores.h"
#include "frontend/BoundValue.h"
#include "frontend/DiagEmitter.h"
#include "frontend/HandleEscape.h"
#include "frontend/HiddenCalls.h"
#include "frontend/Position.h"
#include "frontend/TmaLoads.h"
#include "frontend/Variance.h"
#include "frontend/Vocabulary.h"
#include "frontend/Walker.h"
#include "frontend/Wgmma.h"

#include "clang/AST/Attr.h"
#include "clang/AST/StmtCXX.h"

#include <functional>
#include <set>

using namespace clang;

namespace ts {
namespace walk {

const char *const PositionHint =
    "pipeline operations may stand only at the top level of the task body, "
    "directly in the body of its ts::domain loop or of a ts::domain loop "
    "directly in that one (a k-loop), or under 'if (i.first())', "
    "'if (i.last())' or their negations in the innermost of those loops";

namespace {

std::optional<OpKind> opKindOf(StringRef Method, Role R) {
  if (R == Role::Turn) {
    if (Method == "take")
      return OpKind::Take;
    if (Method == "pass")
      return OpKind::Pass;
  } else if (R == Role::Producer) {
    if (Method == "acquire")
      return OpKind::Acquire;
    if (Method == "try_acquire")
      return OpKind::TryAcquire;
    if (Method == "commit")
      return OpKind::Commit;
  } else {
    if (Method == "wait")
      return OpKind::Wait;
    if (Method == "try_wait")
      return OpKind::TryWait;
    if (Method == "release" || Method == "release_oldest")
      return OpKind::Release;
  }
  return std::nullopt;
}

/// Every member call on a handle parameter, and every other use of one.
struct HandleUses : AstWalk {
  const std::map<const ParmVarDecl *, HandleParam> &Handles;
  std::vector<const CXXMemberCallExpr *> Calls;
  std::set<const DeclRefExpr *> ObjectRefs;
  std::vector<const DeclRefExpr *> Refs;

  explicit HandleUses(const std::map<const ParmVarDecl *, HandleParam> &H)
      : Handles(H) {}

  const ParmVarDecl *handleOf(const Expr *E) {
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
            E ? E->IgnoreParenImpCasts() : nullptr))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (Handles.count(P))
          return P;
    return nullptr;
  }
  bool visitCXXMemberCallExpr(CXXMemberCallExpr *C) override {
    if (handleOf(C->getImplicitObjectArgument())) {
      Calls.push_back(C);
      ObjectRefs.insert(cast<DeclRefExpr>(
          C->getImplicitObjectArgument()->IgnoreParenImpCasts()));
    }
    return true;
  }
  bool visitDeclRefExpr(DeclRefExpr *E) override {
    if (handleOf(E))
      Refs.push_back(E);
    return true;
  }
};

/// Every call of ts::pdl_wait / ts::pdl_launch_dependents in a body.
struct PdlCalls : AstWalk {
  std::vector<const CallExpr *> Found;
  bool visitCallExpr(CallExpr *C) override {
    bool IsWait = false;
    if (asPdlCall(C, IsWait))
      Found.push_back(C);
    return true;
  }
};

} // namespace

/// References to stage variables inside one statement.
struct StageRefs : AstWalk {
  const std::map<const VarDecl *, HandleParam> &Stages;
  std::vector<std::pair<const VarDecl *, SourceLocation>> Found;
  explicit StageRefs(const std::map<const VarDecl *, HandleParam> &S)
      : Stages(S) {}
  bool visitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl()))
      if (Stages.count(V))
        Found.push_back({V, E->getLocation()});
    return true;
  }
};

namespace {

/// Stage variables that do not come from an op, and stages used inside
/// lambdas: either hides when the stage is touched.
struct StageEscapes : AstWalk {
  const std::map<const VarDecl *, HandleParam> &Stages;
  std::function<bool(const Expr *)> IsOp;
  unsigned LambdaDepth = 0;
  std::vector<const VarDecl *> Unbound;
  std::vector<const DeclRefExpr *> InLambda;

  StageEscapes(const std::map<const VarDecl *, HandleParam> &S,
               std::function<bool(const Expr *)> IsOp)
      : Stages(S), IsOp(std::move(IsOp)) {}

  bool enterLambda(LambdaExpr *) override {
    ++LambdaDepth;
    return true;
  }
  void leaveLambda(LambdaExpr *) override { --LambdaDepth; }
  bool visitVarDecl(VarDecl *V) override {
    QualType T = V->getType();
    while (const ArrayType *AT = T->getAsArrayTypeUnsafe())
      T = AT->getElementType();
    if (tsRecord(T, "stage") && !Stages.count(V) &&
        !(V->hasInit() && IsOp(V->getInit())))
      Unbound.push_back(V);
    return true;
  }
  bool visitDeclRefExpr(DeclRefExpr *E) override {
    if (LambdaDepth)
      if (const auto *V = dyn_cast<VarDecl>(E->getDecl()); V && Stages.count(V))
        InLambda.push_back(E);
    return true;
  }
};

} // namespace

void Walker::error(SourceLocation L, std::string Msg, std::string Note,
                   SourceLocation NoteLoc) {
  Diag D{Check::Syntax, toHandle(L), std::move(Msg), {}};
  D.Notes.push_back(
      {toHandle(NoteLoc.isValid() ? NoteLoc : L), std::move(Note)});
  Diags.push_back(std::move(D));
}

std::optional<Walker::OpCall> Walker::asOp(const Expr *E) {
  const auto *C = dyn_cast_or_null<CXXMemberCallExpr>(stripExpr(E));
  if (!C)
    return std::nullopt;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
      C->getImplicitObjectArgument()
          ? C->getImplicitObjectArgument()->IgnoreParenImpCasts()
          : nullptr);
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  auto It = P ? Handles.find(P) : Handles.end();
  if (It == Handles.end() || !C->getMethodDecl() ||
      !C->getMethodDecl()->getIdentifier())
    return std::nullopt;
  auto K = opKindOf(C->getMethodDecl()->getName(), It->second.R);
  if (!K)
    return std::nullopt;
  return OpCall{C, It->second, *K};
}

std::optional<Walker::OpCall> Walker::statementOp(const Stmt *S,
                                                  const VarDecl *&Bound) {
  Bound = nullptr;
  if (const auto *E = dyn_cast<Expr>(S))
    return asOp(E);
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    if (!DS->isSingleDecl())
      return std::nullopt;
    const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!V || !V->hasInit())
      return std::nullopt;
    auto Op = asOp(V->getInit());
    if (Op)
      Bound = V;
    return Op;
  }
  return std::nullopt;
}

/// The ts::domain expression of a range-for, through `.nonempty()`.
static const Expr *domainExpr(const CXXForRangeStmt *FR, bool &NonEmpty) {
  const Expr *Init = stripExpr(FR->getRangeInit());
  NonEmpty = false;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Init))
    if (MC->getMethodDecl() && MC->getMethodDecl()->getIdentifier() &&
        MC->getMethodDecl()->getName() == "nonempty" &&
        tsRecord(MC->getImplicitObjectArgument()->getType(), "domain")) {
      NonEmpty = true;
      Init = stripExpr(MC->getImplicitObjectArgument());
    }
  return Init;
}

const CXXForRangeStmt *Walker::asDomainLoop(const Stmt *S) {
  const auto *FR = dyn_cast<CXXForRangeStmt>(S);
  if (!FR || !FR->getRangeInit())
    return nullptr;
  bool NonEmpty;
  const Expr *Init = domainExpr(FR, NonEmpty);
  if (tilesCall(FR))
    return FR;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    return tsRecord(CE->getType(), "domain") ? FR : nullptr;
  if (const auto *Call = dyn_cast<CallExpr>(Init))
    return isTsDecl(Call->getDirectCallee(), "domain") ? FR : nullptr;
  return nullptr;
}

std::optional<Guard> Walker::asGuard(const IfStmt *If) {
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConsteval())
    return std::nullopt;
  const Expr *Cond = stripExpr(If->getCond())->IgnoreParenImpCasts();
  const auto *Not = dyn_cast<UnaryOperator>(Cond);
  bool Negated = Not && Not->getOpcode() == UO_LNot;
  if (Negated)
    Cond = Not->getSubExpr();
  const auto *C = dyn_cast<CXXMemberCallExpr>(stripExpr(Cond));
  if (!C || !C->getMethodDecl() || !C->getMethodDecl()->getIdentifier())
    return std::nullopt;
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
      C->getImplicitObjectArgument()->IgnoreParenImpCasts());
  if (!DRE || DRE->getDecl() != LoopVar)
    return std::nullopt;
  StringRef M = C->getMethodDecl()->getName();
  if (M == "first")
    return Negated ? Guard::NotFirstIter : Guard::FirstIter;
  if (M == "last")
    return Negated ? Guard::NotLastIter : Guard::LastIter;
  return std::nullopt;
}

void Walker::recordDomain(const CXXForRangeStmt *FR, Domain &D) {
  D.Present = true;
  D.Loc = toHandle(FR->getForLoc());
  if (const CallExpr *C = tilesCall(FR))
    return recordTiles(C, D);
  const Expr *Init = domainExpr(FR, D.NonEmpty);
  std::vector<const Expr *> Args;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Init))
    Args.assign(CE->arg_begin(), CE->arg_end());
  else if (const auto *Call = dyn_cast<CallExpr>(Init))
    Args.assign(Call->arg_begin(), Call->arg_end());
  auto Bound = [&](unsigned I, std::string &Text, std::optional<int64_t> &V,
                   int64_t Default) {
    if (I >= Args.size() || isa<CXXDefaultArgExpr>(Args[I])) {
      Text = std::to_string(Default);
      V = Default;
      return;
    }
    Text = exprText(Ctx, Args[I]);
    Expr::EvalResult R;
    if (!Args[I]->isValueDependent() && Args[I]->EvaluateAsInt(R, Ctx))
      V = R.Val.getInt().getExtValue();
  };
  // `symbol + constant`: domains that differ by a constant compare exactly.
  std::function<void(const Expr *, std::string &, std::string &, int64_t &)>
      Split = [&](const Expr *E, std::string &Sym, std::string &Key,
                  int64_t &Off) {
        E = stripExpr(E)->IgnoreParenImpCasts();
        Expr::EvalResult R;
        if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
          Off += R.Val.getInt().getExtValue();
          return;
        }
        if (const auto *BO = dyn_cast<BinaryOperator>(E))
          if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
            Expr::EvalResult C;
            const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
            if (!RHS->isValueDependent() && RHS->EvaluateAsInt(C, Ctx)) {
              int64_t Val = C.Val.getInt().getExtValue();
              Off += BO->getOpcode() == BO_Add ? Val : -Val;
              Split(BO->getLHS(), Sym, Key, Off);
              return;
            }
            // `1 + p.n` as `p.n + 1`.
            const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
            if (BO->getOpcode() == BO_Add && !LHS->isValueDependent() &&
                LHS->EvaluateAsInt(C, Ctx)) {
              Off += C.Val.getInt().getExtValue();
              Split(BO->getRHS(), Sym, Key, Off);
              return;
            }
          }
        Sym = exprText(Ctx, E);
        OpaqueLocal Why;
        Key = boundValue(Ctx, E, TaskBody, LoopVar, &Why);
        if (Why.Var && !D.OpaqueLoc) {
          std::string Name = "'" + Why.Var->getNameAsString() + "'";
          bool Written = Why.Write.isValid();
          D.OpaqueLoc = toHandle(Written ? Why.Write : Why.Var->getLocation());
          D.OpaqueNote = Name +
                         (Written ? " may change here after its declaration"
                                  : " has no initializer") +
                         ", so a bound that reads it matches no other task's; "
                         "compute it once, in a const local";
        }
        D.PerTile |= Key.find("<tile>") != std::string::npos;
      };
  // A constant bound counts as the int the domain receives (4294967296
  // converts to 0 there), as the runtime sees it.
  auto SplitArg = [&](unsigned I, std::string &Sym, std::string &Key,
                      int64_t &Off) {
    if (I >= Args.size() || isa<CXXDefaultArgExpr>(Args[I]))
      return;
    Expr::EvalResult R;
    if (!Args[I]->isValueDependent() && Args[I]->EvaluateAsInt(R, Ctx))
      Off += R.Val.getInt().getExtValue();
    else
      Split(Args[I], Sym, Key, Off);
  };
  if (Args.size() == 1) { // domain(end): start 0
    D.StartText = "0";
    D.Start = 0;
    Bound(0, D.EndText, D.End, 0);
    SplitArg(0, D.EndSym, D.EndKey, D.EndOff);
    D.StepText = "1";
    D.Step = 1;
  } else {
    Bound(0, D.StartText, D.Start, 0);
    Bound(1, D.EndText, D.End, 0);
    Bound(2, D.StepText, D.Step, 1);
    SplitArg(0, D.StartSym, D.StartKey, D.StartOff);
    SplitArg(1, D.EndSym, D.EndKey, D.EndOff);
    if (D.Start == 0 && D.Step == 1)
      D.Segments = segmentsOf(Args[1]);
  }
  D.Bounds = readsOf(Ctx, Args);
  if (D.Step && *D.Step <= 0)
    error(FR->getForLoc(), "ts::domain step must be positive",
          "iterate with a positive step; the verifier models "
          "'for (i = start; i < end; i += step)'");
}

void Walker::body(const Stmt *B) {
  if (const auto *CS = dyn_cast<CompoundStmt>(B))
    for (const Stmt *S : CS->body())
      statement(S);
  else
    statement(B);
}

/// A domain loop in the domain loop's body: a k-loop of a tile loop (a tile
/// may run several, one after the other). Its ops are Section::Inner, with
/// Op::Loop its index; guards in it test its own variable.
void Walker::innerLoop(const CXXForRangeStmt *FR) {
  unsigned Index = unsigned(T.Inners.size());
  InnerLoops.push_back(FR);
  T.Inners.emplace_back();
  const std::optional<HandleParam> Queue = TileQueue;
  recordDomain(FR, T.Inners.back());
  if (tilesCall(FR)) { // its queue exchanges belong to the tile loop
    error(FR->getForLoc(), "a ts::tiles loop is nested in the task's loop",
          "make it the task's loop, directly in the task body: the tiles "
          "come one per iteration of it");
    TileQueue = Queue; // walked on as a k-loop, for its body's findings
  }
  size_t First = T.Ops.size();
  const VarDecl *Outer = LoopVar;
  LoopVar = FR->getLoopVariable();
  Sec = Section::Inner;
  body(FR->getBody());
  Sec = Section::Loop;
  LoopVar = Outer;
  for (size_t I = First; I < T.Ops.size(); ++I)
    T.Ops[I].Loop = Index;
}

/// A PDL call standing as a statement of the head or the tail: one op with
/// no resource. In the domain loop it would repeat every iteration.
bool Walker::pdlStatement(const Stmt *S) {
  bool IsWait = false;
  const auto *E = dyn_cast<Expr>(S);
  const CallExpr *C = E ? asPdlCall(E, IsWait) : nullptr;
  if (!C)
    return false;
  AcceptedPdl.insert(C);
  if (Sec == Section::Loop || Sec == Section::Inner) {
    error(
        C->getExprLoc(),
        std::string(IsWait ? "ts::pdl_wait()" : "ts::pdl_launch_dependents()") +
            " inside the ts::domain loop",
        IsWait ? "wait once, before the domain loop"
               : "let dependents launch once, after the domain loop");
    return true;
  }
  ts::Op Rec;
  Rec.Kind = IsWait ? OpKind::PdlWait : OpKind::PdlLaunch;
  Rec.Resource = ts::Op::NoResource;
  Rec.Sec = Sec;
  Rec.Loc = toHandle(C->getExprLoc());
  Rec.Text = sourceText(Ctx, C->getSourceRange());
  T.Ops.push_back(std::move(Rec));
  return true;
}

/// `ts::wgmma::commit_group()` / `wait_group<N>()` as a statement: an op
/// with no resource, anywhere a pipeline op may stand. Elsewhere (under a
/// condition) it is not counted, so a release that needs it is reported.
bool Walker::mmaGroupStatement(const Stmt *S) {
  OpKind Kind = OpKind::Work;
  unsigned Pending = 0;
  const auto *E = dyn_cast<Expr>(S);
  const CallExpr *C = E ? asMmaGroupCall(E, Kind, Pending) : nullptr;
  if (!C)
    return false;
  ts::Op Rec;
  Rec.Kind = Kind;
  Rec.Pending = Pending;
  Rec.Resource = ts::Op::NoResource;
  Rec.Sec = Sec;
  Rec.G = G;
  Rec.Loc = toHandle(C->getExprLoc());
  Rec.Text = sourceText(Ctx, C->getSourceRange());
  T.Ops.push_back(std::move(Rec));
  return true;
}

/// An op the walk did not accept: the error names what hides it.
void Walker::misplaced(const Stmt *Call, const CompoundStmt *Body,
                       const std::string &What, const char *Hint) {
  std::vector<const Stmt *> Loops{Loop};
  Loops.insert(Loops.end(), InnerLoops.begin(), InnerLoops.end());
  PositionCause Cause = positionCause(Ctx, Call, Body, Loops);
  SourceLocation At = cast<Expr>(Call)->getExprLoc();
  if (Cause.What.empty()) {
    error(At, What + " is in a position libts cannot verify", Hint);
    return;
  }
  error(At,
        What + " is inside " + Cause.What + ", where libts cannot verify it",
        Cause.What + " starts here", Cause.Where);
  Diags.back().Notes.push_back({toHandle(At), Hint});
}

/// A handle used other than to call its operations. Passed to a helper,
/// the error names the helper and what to move into the task.
void Walker::escapedHandle(const DeclRefExpr *R) {
  std::string Name = R->getDecl()->getName().str();
  HandlePassed To = handlePassed(Ctx, R);
  if (!To.Callee) {
    error(R->getLocation(), "pipeline handle '" + Name + "' escapes the task",
          "use the handle only to call its operations; passing or copying "
          "it hides operations from the verifier");
    return;
  }
  std::string Helper = To.Callee->getNameAsString();
  std::string Ops;
  for (const std::string &Op : To.Ops)
    Ops += (Ops.empty() ? "" : ", ") + Name + "." + Op + "()";
  const auto *P = dyn_cast<ParmVarDecl>(R->getDecl());
  bool Producer = P && Handles.count(P) && Handles.at(P).R == Role::Producer;
  std::string Example = Producer
                            ? "'auto s = " + Name + ".acquire(); " + Helper +
                                  "(..., s); " + Name + ".commit(s);'"
                            : "'auto s = " + Name + ".wait(); " + Helper +
                                  "(..., s); " + Name + ".release(s);'";
  error(R->getLocation(),
        "pipeline handle '" + Name + "' is passed to '" + Helper +
            "': libts follows pipeline operations only in the task body",
        (Ops.empty() ? std::string("call the handle's operations in the task")
                     : "inline them: move " + Ops + " out of '" + Helper +
                           "' into the task") +
            ", and pass '" + Helper +
            "' the stage instead of the handle (for example " + Example + ")");
}

void Walker::checkPdlPositions(const CompoundStmt *Body) {
  PdlCalls Calls;
  Calls.walk(Body);
  for (const CallExpr *C : Calls.Found)
    if (!AcceptedPdl.count(C))
      misplaced(C, Body, "'" + C->getDirectCallee()->getNameAsString() + "'",
                "call it as a statement of its own at the top level of the "
                "task body, "
                "before or after the ts::domain loop, not inside a block, "
                "condition or "
                "lambda");
}

void Walker::statement(const Stmt *S) {
  if (pdlStatement(S) || mmaGroupStatement(S) || carryStatement(S))
    return;
  settleStatement(S);
  const VarDecl *Bound = nullptr;
  if (auto Op = statementOp(S, Bound)) {
    Accepted.insert(Op->Call);
    ts::Op Rec;
    Rec.Kind = Op->Kind;
    Rec.Resource = Op->H.Resource;
    Rec.R = Op->H.R;
    Rec.Sec = Sec;
    Rec.G = G;
    Rec.Loc = toHandle(Op->Call->getExprLoc());
    Rec.Text = sourceText(Ctx, Op->Call->getSourceRange());
    bindOperands(*Op, Bound, Rec);
    T.Ops.push_back(std::move(Rec));
    return;
  }
  // A plain block runs once, where it stands: its statements are ops of the
  // enclosing sequence (its variables end with it, which no op outlives).
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *X : CS->body())
      statement(X);
    return;
  }
  if (Sec == Section::Loop && G == Guard::Always)
    if (const CXXForRangeStmt *FR = asDomainLoopWithHints(S)) {
      innerLoop(FR);
      return;
    }
  // Guards do not nest: 'first' inside 'last' is not 'last'.
  if ((Sec == Section::Loop || Sec == Section::Inner) && G == Guard::Always)
    if (auto Gd = asGuard(dyn_cast<IfStmt>(S))) {
      guardedBody(cast<IfStmt>(S)->getThen(), *Gd);
      return;
    }
  // Any other statement: it is work on every stage it mentions.
  StageRefs Refs(Stages);
  Refs.walk(S);
  if (!Refs.Found.empty() &&
      (addressAssigned(S) || addressPassedOut(S) || hiddenAsync(S)))
    return;
  deriveStages(S, Refs);
  TmaLoads Loads(Ctx, Stages, S);
  if (!Refs.Found.empty())
    Loads.walk(S);
  bool Mma = !Refs.Found.empty() && issuesMma(S);
  bool Umma = !Refs.Found.empty() && issuesUmma(S);
  bool Stores = !Refs.Found.empty() && mayStoreAsync(S);
  // One op per stage: a statement may name it through several variables
  // (the stage and a pointer, a barrier or a descriptor array made from it).
  std::vector<int> Seen;
  for (auto &[V, Loc] : Refs.Found) {
    HandleParam H = Stages[V];
    if (std::find(Seen.begin(), Seen.end(), StageIds[V]) != Seen.end())
      continue;
    Seen.push_back(StageIds[V]);
    ts::Op Rec;
    Rec.Kind = OpKind::Work;
    Rec.Resource = H.Resource;
    Rec.R = H.R;
    Rec.Sec = Sec;
    Rec.G = G;
    Rec.Loc = toHandle(Loc);
    Rec.Text = "work";
    Rec.Stage = StageIds[V];
    Rec.AsyncRead = Mma;
    Rec.UmmaAccess = Umma;
    Rec.MayStoreAsync = Stores;
    Rec.AddressOnly =
        addressOnly(S, [&](const VarDecl *X) { return Stages.count(X) != 0; });
    for (const TmaLoads::Load &Ld : Loads.Found) {
      if (Ld.Resource != H.Resource || H.R != Role::Producer)
        continue;
      (Ld.Always ? Rec.TmaLoad : Rec.TmaLoadMaybeSkipped) = true;
      if (!Ld.Field)
        Rec.LoadFieldsKnown = false;
      else // a load that may be skipped fills nothing for sure
        (Ld.Always ? Rec.LoadFields : Rec.SkippableLoadFields)
            .push_back(*Ld.Field);
      Rec.LoadPerWarp |= Ld.PerWarp;
      Rec.Boxes.push_back(Ld.Box);
      if (Ld.Multicast && !Rec.TmaMulticast) {
        Rec.TmaMulticast = true;
        Rec.McastMask = Ld.Mask;
        Rec.McastLoc = toHandle(Ld.Loc);
        Rec.McastDst = Ld.Dst;
        Rec.McastCoords = Ld.Coords;
        Rec.McastStride = Ld.ShareStride;
        Rec.McastExtent = Ld.ShareExtent;
      }
    }
    T.Ops.push_back(std::move(Rec));
  }
}

/// A pointer or reference initialised from a stage points into it, and a
/// ts::wgmma descriptor made from one describes it: their later uses are
/// uses of that stage, however they are spelled.
void Walker::deriveStages(const Stmt *S, const StageRefs &Refs) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || Refs.Found.empty())
    return;
  const VarDecl *From = Refs.Found.front().first;
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->hasInit())
      continue;
    // A copy of a stage handle, or an array of them, is refused where it
    // is used (robustness/stage-escape.cu); anything else that carries the
    // stage's address is the stage.
    QualType Elem(V->getType()->getPointeeOrArrayElementType(), 0);
    bool Handle = tsRecord(V->getType(), "stage") || tsRecord(Elem, "stage");
    if (Handle || !(carriesAddress(V->getType(), V->getInit()) ||
                    aggregateCarries(V->getType(), V->getInit())))
      continue;
    Stages[V] = Stages.at(From);
    StageIds[V] = StageIds.at(From);
  }
}

/// A value of type T from E stands for a stage's memory: a pointer or
/// reference into it, a ts::wgmma descriptor, or an integer computed from
/// one (descriptor arithmetic `d + 2`, a shared-memory address from
/// `__cvta_generic_to_shared(s->a)`).
bool Walker::carriesAddress(QualType T, const Expr *E) const {
  if (T->isPointerType() || T->isReferenceType() || isWgmmaValue(E))
    return true;
  if (!T->isIntegralOrEnumerationType())
    return false;
  struct Flow : AstWalk {
    const Walker &W;
    bool Found = false;
    explicit Flow(const Walker &W) : W(W) {}
    bool refsStage(const Expr *X) {
      StageRefs R(W.Stages);
      R.walk(X);
      return !R.Found.empty();
    }
    bool visitDeclRefExpr(DeclRefExpr *R) override { // a derived integer
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      Found |=
          V && W.Stages.count(V) && V->getType()->isIntegralOrEnumerationType();
      return !Found;
    }
    bool visitCastExpr(CastExpr *C) override {
      Found |= C->getCastKind() == CK_PointerToIntegral &&
               refsStage(C->getSubExpr());
      return !Found;
    }
    bool visitCallExpr(CallExpr *C) override {
      if (C->getType()->isIntegralOrEnumerationType())
        for (const Expr *A : C->arguments())
          Found |= A->getType()->isPointerType() && refsStage(A);
      return !Found;
    }
  } F(*this);
  F.walk(E);
  return F.Found;
}

/// An array or a struct initialised with what carries a stage's address (a
/// pointer or descriptor element, a ts::stage member): its later uses are
/// uses of the stage too. Element by element for a braced list; any other
/// initialiser of an aggregate that mentions a stage counts.
bool Walker::aggregateCarries(QualType T, const Expr *E) const {
  T = T.getCanonicalType();
  if (!T->isArrayType() && !T->isRecordType())
    return false;
  E = E->IgnoreParenImpCasts();
  const auto *IL = dyn_cast<InitListExpr>(E);
  if (!IL) {
    StageRefs R(Stages);
    R.walk(E);
    return !R.Found.empty();
  }
  auto Carries = [&](QualType ET, const Expr *X) {
    return carriesAddress(ET, X) || aggregateCarries(ET, X);
  };
  if (const ArrayType *AT = T->getAsArrayTypeUnsafe()) {
    for (const Expr *X : IL->inits())
      if (Carries(AT->getElementType(), X))
        return true;
    return false;
  }
  const RecordDecl *RD = T->getAsRecordDecl();
  unsigned I = 0;
  for (const FieldDecl *F : RD->fields())
    if (I < IL->getNumInits() && Carries(F->getType(), IL->getInit(I++)))
      return true;
  return false;
}

/// A call that mentions a stage and may write, through a non-const
/// reference or a pointer to it, a local that can hold an address: the
/// stage's address may come back in it, unseen (`row_of(s, row)`).
bool Walker::addressPassedOut(const Stmt *S) {
  struct Calls : AstWalk {
    std::vector<const CallExpr *> Found;
    bool visitCallExpr(CallExpr *C) override {
      Found.push_back(C);
      return true;
    }
  } Cs;
  Cs.walk(S);
  for (const CallExpr *C : Cs.Found) {
    const FunctionDecl *F = C->getDirectCallee();
    if (!F)
      continue;
    for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I) {
      QualType P = F->getParamDecl(I)->getType();
      if (!(P->isReferenceType() || P->isPointerType()) ||
          P->getPointeeType().isConstQualified())
        continue;
      const Expr *A = C->getArg(I)->IgnoreParenImpCasts();
      if (const auto *U = dyn_cast<UnaryOperator>(A);
          U && U->getOpcode() == UO_AddrOf)
        A = U->getSubExpr()->IgnoreParenImpCasts();
      const auto *R = dyn_cast<DeclRefExpr>(A);
      const auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
      QualType VT = V ? V->getType().getNonReferenceType() : QualType();
      if (!V || !V->isLocalVarDecl() || Stages.count(V) ||
          !(VT->isPointerType() ||
            (VT->isArrayType() &&
             VT->getPointeeOrArrayElementType()->isPointerType())))
        continue;
      error(A->getBeginLoc(),
            "cannot verify: this call may write an address in a stage to '" +
                V->getNameAsString() + "', declared elsewhere",
            "return the address from the helper and declare the variable "
            "where it is initialised ('const float *row = row_of(s);'): the "
            "verifier follows such variables to every use");
      return true;
    }
  }
  return false;
}

/// Inline assembly that issues asynchronous PTX where a stage is used: the
/// verifier cannot see what it reads or when.
bool Walker::hiddenAsync(const Stmt *S) {
  const AsmStmt *A = asyncAsm(S);
  if (!A)
    return false;
  error(S->getBeginLoc(),
        "cannot verify: inline assembly issues asynchronous PTX (wgmma, "
        "cp.async or tcgen05) in a statement that uses a stage",
        "the verifier cannot see which stage it reads or writes, nor when; "
        "use ts::wgmma and ts::tma calls, which it follows, or mark your own "
        "MMA function [[ts::async_reader]] (its reads complete at "
        "ts::wgmma::wait_group)",
        A->getAsmLoc());
  return true;
}

/// A stage's address assigned to a variable declared elsewhere: its uses
/// could not be tied to the stage (an MMA reading it after the release).
bool Walker::addressAssigned(const Stmt *S) {
  const auto *B = dyn_cast<BinaryOperator>(S);
  if (!B || B->getOpcode() != BO_Assign)
    return false;
  StageRefs Refs(Stages);
  Refs.walk(B->getRHS());
  if (Refs.Found.empty() ||
      !carriesAddress(B->getLHS()->getType(), B->getRHS()))
    return false;
  error(B->getOperatorLoc(),
        "cannot verify: an address in a stage is assigned to '" +
            sourceText(Ctx, B->getLHS()->getSourceRange()) +
            "', declared elsewhere",
        "declare the variable where it is initialised ('auto *p = s->a;', "
        "'const uint64_t d = ts::wgmma::make_desc_sw128(s->a);'): the "
        "verifier follows such variables to every use");
  return true;
}

const VarDecl *Walker::stageVar(const Expr *E) const {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
      E ? stripExpr(E)->IgnoreImpCasts() : nullptr);
  const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return V && Stages.count(V) ? V : nullptr;
}

/// Which stage variable an op binds or hands back, and where a blocking
/// op's token comes from: the checks follow each stage and token exactly.
void Walker::bindOperands(const OpCall &Op, const VarDecl *Bound, ts::Op &Rec) {
  const CXXMemberCallExpr *C = Op.Call;
  int Index = int(T.Ops.size());
  switch (Op.Kind) {
  case OpKind::Acquire:
  case OpKind::Wait:
    if (Bound) {
      Stages[Bound] = Op.H;
      Rec.Stage = StageIds[Bound] = newStageId();
    }
    if (C->getNumArgs() == 1) {
      const auto *DRE =
          dyn_cast<DeclRefExpr>(stripExpr(C->getArg(0))->IgnoreImpCasts());
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      auto It = V ? TokenOps.find(V) : TokenOps.end();
      bool Same = It != TokenOps.end() &&
                  T.Ops[It->second].Resource == Op.H.Resource &&
                  T.Ops[It->second].R == Op.H.R;
      Rec.Token = Same ? It->second : ts::Op::ForgedToken;
    }
    return;
  case OpKind::TryAcquire:
  case OpKind::TryWait:
    if (Bound)
      TokenOps[Bound] = Index;
    return;
  case OpKind::Take: // a turn binds no stage
  case OpKind::Pass:
    return;
  case OpKind::Commit:
  case OpKind::Release: {
    if (C->getMethodDecl()->getName() == "release_oldest") {
      Rec.Oldest = true;
      return;
    }
    const VarDecl *V = C->getNumArgs() == 1 ? stageVar(C->getArg(0)) : nullptr;
    if (!V)
      return; // StageEscapes reports stages that do not come from an op.
    const HandleParam &H = Stages.at(V);
    if (H.Resource != Op.H.Resource || H.R != Op.H.R) {
      error(
          C->getExprLoc(),
          std::string(opKindName(Op.Kind)) + " takes a stage '" +
              V->getNameAsString() + "' that another handle handed out",
          "commit a stage to the producer handle that acquired it, release it "
          "to the consumer handle that waited for it",
          V->getLocation());
      return;
    }
    Rec.Stage = StageIds.at(V);
    Rec.CarriedStage = Carried.count(V) > 0;
    return;
  }
  case OpKind::Work:
  case OpKind::PdlWait:
  case OpKind::PdlLaunch:
  case OpKind::MmaCommit:
  case OpKind::MmaWait:
  case OpKind::Carry:
    return;
  }
}

void Walker::guardedBody(const Stmt *Then, Guard Gd) {
  Guard Saved = G;
  G = Gd;
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    for (const Stmt *S : CS->body())
      statement(S);
  else
    statement(Then);
  G = Saved;
}

/// Breakable / Continuable: statements between S and the domain loop that a
/// 'break' / 'continue' would leave instead (a switch takes only 'break').
void Walker::checkJumps(const Stmt *S, bool InLoop, unsigned Breakable,
                        unsigned Continuable) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (isa<ReturnStmt>(S) || isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S)) {
    error(S->getBeginLoc(),
          "control flow that leaves a task early cannot be verified",
          "the verifier runs every pipeline operation on every path; guard "
          "the work, not the operations");
    return;
  }
  if ((isa<BreakStmt>(S) && Breakable == 0) ||
      (isa<ContinueStmt>(S) && Continuable == 0)) {
    error(S->getBeginLoc(),
          std::string("'") + (isa<BreakStmt>(S) ? "break" : "continue") +
              "' in the ts::domain loop cannot be verified",
          "every iteration must run the loop body's pipeline operations; "
          "guard the work instead");
    return;
  }
  // Inner domain loops are domain loops too: no jumps out of their bodies.
  bool IsDomain = S == Loop || llvm::is_contained(InnerLoops, S);
  bool NestedLoop = !IsDomain && (isa<ForStmt>(S) || isa<WhileStmt>(S) ||
                                  isa<DoStmt>(S) || isa<CXXForRangeStmt>(S));
  bool Nested = NestedLoop || isa<SwitchStmt>(S);
  for (const Stmt *C : S->children())
    checkJumps(C, InLoop || IsDomain,
               IsDomain ? 0
               : Nested ? Breakable + 1
                        : Breakable,
               IsDomain     ? 0
               : NestedLoop ? Continuable + 1
                            : Continuable);
}

/// `#pragma unroll` (any loop hint) on the domain loop changes how it is
/// compiled, not what it runs: the loop is still the domain loop.
const CXXForRangeStmt *Walker::asDomainLoopWithHints(const Stmt *S) {
  const auto *AS = dyn_cast<AttributedStmt>(S);
  if (!AS)
    return asDomainLoop(S);
  for (const Attr *A : AS->getAttrs())
    if (!isa<LoopHintAttr>(A))
      return nullptr;
  return asDomainLoop(AS->getSubStmt());
}

void Walker::run(const CompoundStmt *Body) {
  TaskBody = Body;
  for (const Stmt *S : Body->body()) {
    if (const CXXForRangeStmt *FR = asDomainLoopWithHints(S)) {
      if (Loop) {
        error(FR->getForLoc(), "a task may have only one ts::domain loop",
              "the first ts::domain loop is here", Loop->getForLoc());
        continue;
      }
      recordDomain(FR, T.Dom);
      LoopVar = FR->getLoopVariable();
      Loop = FR;
      Sec = Section::Loop;
      // The next tile at the head of each iteration and the end mark once
      // more; a CLC queue's first tile is the CTA's own, so its exchange
      // (the next tile or the end) closes each iteration.
      bool Clc = TileQueue && TileQueue->ClcQueue;
      if (TileQueue && !Clc)
        tileExchange(FR->getColonLoc());
      body(FR->getBody());
      if (Clc)
        tileExchange(FR->getColonLoc());
      Sec = Section::Tail;
      if (TileQueue && !Clc)
        tileExchange(FR->getColonLoc());
      continue;
    }
    statement(S);
  }

  checkPdlPositions(Body);
  checkSettles(Body);
  for (const HiddenCall &H : hiddenScheduleCalls(Body))
    error(H.Outer->getExprLoc(),
          "'" + H.Outer->getDirectCallee()->getNameAsString() + "' calls '" +
              H.Inner->getDirectCallee()->getQualifiedNameAsString() +
              "', which the verifier cannot follow into a function",
          "call it in the task body, as a statement of its own, where the "
          "schedule "
          "shows when it runs",
          H.Inner->getExprLoc());
  HandleUses Uses(Handles);
  Uses.walk(Body);
  for (const CXXMemberCallExpr *C : Uses.Calls) {
    if (Accepted.count(C))
      continue;
    // Destructors and operators have no identifier: name them as written.
    std::string Name =
        C->getMethodDecl() ? C->getMethodDecl()->getNameAsString() : "call";
    const auto *P = cast<ParmVarDecl>(
        cast<DeclRefExpr>(C->getImplicitObjectArgument()->IgnoreParenImpCasts())
            ->getDecl());
    if (!opKindOf(Name, Handles.at(P).R))
      error(C->getExprLoc(),
            "'" + Name + "' is not a " +
                (Handles.at(P).R == Role::Producer ? "producer" : "consumer") +
                " operation",
            Handles.at(P).R == Role::Producer
                ? "a ts::producer handle offers acquire, try_acquire and commit"
                : "a ts::consumer handle offers wait, try_wait and release");
    else
      misplaced(C, Body, "pipeline operation '" + Name + "'", PositionHint);
  }
  for (const DeclRefExpr *R : Uses.Refs)
    if (!Uses.ObjectRefs.count(R) && !TileQueueRefs.count(R))
      escapedHandle(R);
  StageEscapes Esc(Stages, [&](const Expr *E) { return asOp(E).has_value(); });
  Esc.walk(Body);
  checkStageAssigns(Body);
  for (const VarDecl *V : Esc.Unbound)
    if (!Rejected.count(V))
      error(
          V->getLocation(),
          "stage '" + V->getNameAsString() +
              "' does not come from acquire() or wait()",
          "take each stage as 'auto s = h.acquire();' or 'auto s = h.wait();' "
          "and use that variable; a stage kept for a later iteration is "
          "declared "
          "'ts::stage<R> prev;' where pipeline operations may stand");
  for (const DeclRefExpr *R : Esc.InLambda)
    error(R->getLocation(),
          "stage '" + R->getDecl()->getNameAsString() +
              "' is used inside a lambda",
          "use the stage directly in the task body, where the verifier sees "
          "when it is touched");
  bool HasOps = !Uses.Calls.empty() || !AcceptedPdl.empty();
  if (HasOps)
    for (const Stmt *S : Body->body())
      checkJumps(S, false, S == Loop ? 0 : 1, S == Loop ? 0 : 1);
}

} // namespace walk

void extractSchedule(ASTContext &Ctx, const FunctionDecl *FD,
                     const std::map<const ParmVarDecl *, HandleParam> &Handles,
                     Task &T, DiagList &Diags) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return;
  walk::Walker(Ctx, Handles, T, Diags).run(Body);
}

} // namespace ts
