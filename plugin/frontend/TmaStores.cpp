//===- TmaStores.cpp - A task's statements around TMA stores --------------===//
#include "frontend/TmaStores.h"
#include "frontend/BoundValue.h"
#include "frontend/DiagEmitter.h"
#include "frontend/HiddenCalls.h"
#include "frontend/LoopTrips.h"
#include "frontend/Variance.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace ts {

namespace {

const unsigned kMaxDepth = 8;

/// What an access reaches: a variable's memory and the steps from it to
/// the part named, outermost first (an index step keeps its expression).
struct Key {
  const VarDecl *Root = nullptr;
  struct Step {
    const FieldDecl *Field = nullptr;
    const Expr *Index = nullptr;
  };
  std::vector<Step> Steps;
  bool Wild = false; ///< Through a pointer the key does not follow.
};

/// An `if`'s condition, conjunct by conjunct: one that selects threads
/// (the issuer), comparisons of a loop counter with a constant (evaluated
/// per iteration), constants, and anything else (may hold or not).
struct Condition {
  bool Thread = false;
  bool Never = false; ///< A constant conjunct is false.
  bool Unknown = false;
  std::vector<StoreEvent> Known; ///< If events of the counter comparisons.
  bool always() const { return !Thread && !Never && !Unknown && Known.empty(); }
};

class Builder {
public:
  Builder(ASTContext &Ctx, Task &T) : Ctx(Ctx), T(T) {}
  void function(const FunctionDecl *F, unsigned Depth);
  void finish();

private:
  void stmt(const Stmt *S);
  void expr(const Expr *E);
  void call(const CallExpr *C);
  bool libtsCall(const CallExpr *C, const FunctionDecl *F);
  void forLoop(const ForStmt *F);
  void loop(const VarDecl *Var, std::optional<ConstantLoop> L,
            const Stmt *Body);
  void guarded(const Stmt *S);
  Condition condition(const Expr *E) const;
  void conjunct(const Expr *E, Condition &C) const;
  std::optional<StoreEvent> comparison(const Expr *E) const;
  int branch(const Stmt *S, const Condition &C, bool Then, SourceLocation L,
             int ThenIf = -1);
  void write(const Expr *Target, SourceLocation L);
  void push(StoreEvent::Kind K, SourceLocation L, const Expr *Target = nullptr);
  Key keyOf(const Expr *E, unsigned Depth, bool Value = false) const;
  Key pointerArrayKey(const VarDecl *V, unsigned Depth) const;
  StoreIndex indexOf(const Expr *E) const;
  int bufferOf(const VarDecl *V);

  ASTContext &Ctx;
  Task &T;
  const Stmt *Body = nullptr; ///< Of the function being walked.
  unsigned Depth = 0;
  bool Guarded = false;
  std::map<const VarDecl *, Key> Params; ///< Of inlined functions.
  std::map<const VarDecl *, int> LoopOf; ///< Counter -> its Loop event.
  std::map<const VarDecl *, int> Buffers;
  std::vector<const VarDecl *> StageBuffers;
};

const FunctionDecl *bodyOf(const FunctionDecl *F) {
  const FunctionDecl *Def = nullptr;
  return F && F->hasBody(Def) ? Def : nullptr;
}

void Builder::function(const FunctionDecl *F, unsigned D) {
  const Stmt *Saved = Body;
  unsigned SavedDepth = Depth;
  Body = F->getBody();
  Depth = D;
  stmt(Body);
  Body = Saved;
  Depth = SavedDepth;
}

void Builder::stmt(const Stmt *S) {
  if (!S)
    return;
  if (const auto *E = dyn_cast<Expr>(S))
    return expr(E);
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    stmt(If->getInit());
    expr(If->getCond());
    Condition C = condition(If->getCond());
    int ThenIf = branch(If->getThen(), C, true, If->getBeginLoc());
    branch(If->getElse(), C, false, If->getBeginLoc(), ThenIf);
    return;
  }
  if (const auto *F = dyn_cast<ForStmt>(S))
    return forLoop(F);
  if (const auto *FR = dyn_cast<CXXForRangeStmt>(S)) {
    stmt(FR->getRangeStmt());
    return loop(FR->getLoopVariable(), std::nullopt, FR->getBody());
  }
  if (const auto *W = dyn_cast<WhileStmt>(S)) {
    expr(W->getCond());
    return loop(nullptr, std::nullopt, W->getBody());
  }
  if (const auto *Do = dyn_cast<DoStmt>(S)) { // once, then any number more
    stmt(Do->getBody());
    return loop(nullptr, std::nullopt, Do->getBody());
  }
  if (isa<SwitchStmt>(S))
    return guarded(cast<SwitchStmt>(S)->getBody());
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    StringRef Text = A->getAsmString()->getString();
    if (Text.contains("fence.proxy.async"))
      push(StoreEvent::Kind::Fence, A->getAsmLoc());
    if (Text.contains("bar.sync") || Text.contains("barrier.sync"))
      push(StoreEvent::Kind::Barrier, A->getAsmLoc());
    return;
  }
  for (const Stmt *Child : S->children())
    stmt(Child);
}

void Builder::guarded(const Stmt *S) {
  bool Saved = Guarded;
  Guarded = true;
  stmt(S);
  Guarded = Saved;
}

Condition Builder::condition(const Expr *E) const {
  Condition C;
  conjunct(E, C);
  return C;
}

void Builder::conjunct(const Expr *E, Condition &C) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_LAnd) {
    conjunct(B->getLHS(), C);
    return conjunct(B->getRHS(), C);
  }
  if (auto V = E->getIntegerConstantExpr(Ctx)) {
    C.Never = C.Never || V->isZero();
    return;
  }
  if (std::optional<StoreEvent> If = comparison(E))
    return C.Known.push_back(*If);
  Reads R = readsOf(Ctx, {E});
  bool ThreadOnly = R.Complete && !R.Varies.empty() &&
                    std::all_of(R.Varies.begin(), R.Varies.end(), perThread);
  (ThreadOnly ? C.Thread : C.Unknown) = true;
}

/// `j < 3`, `2 <= j`, `(j & 1) == 0`, `j`, `!j`: a loop counter's rotation
/// against a constant.
std::optional<StoreEvent> Builder::comparison(const Expr *E) const {
  using Cmp = StoreEvent::Cmp;
  E = E->IgnoreParenImpCasts();
  StoreEvent If;
  If.K = StoreEvent::Kind::If;
  If.CondKnown = true;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_LNot) {
    std::optional<StoreEvent> Inner = comparison(U->getSubExpr());
    if (!Inner)
      return std::nullopt;
    static const Cmp Negated[] = {Cmp::Ge, Cmp::Gt, Cmp::Le,
                                  Cmp::Lt, Cmp::Ne, Cmp::Eq};
    Inner->Op = Negated[int(Inner->Op)];
    return Inner;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B || !B->isComparisonOp() || B->getOpcode() == BO_Cmp) {
    If.Cond = indexOf(E); // `if (j)`: j != 0
    if (!If.Cond.Known || If.Cond.Loop < 0)
      return std::nullopt;
    return If;
  }
  static const std::pair<BinaryOperatorKind, Cmp> Ops[] = {
      {BO_LT, Cmp::Lt}, {BO_LE, Cmp::Le}, {BO_GT, Cmp::Gt},
      {BO_GE, Cmp::Ge}, {BO_EQ, Cmp::Eq}, {BO_NE, Cmp::Ne}};
  static const Cmp Swapped[] = {Cmp::Gt, Cmp::Ge, Cmp::Lt,
                                Cmp::Le, Cmp::Eq, Cmp::Ne};
  for (auto [Kind, Op] : Ops)
    if (B->getOpcode() == Kind)
      If.Op = Op;
  const Expr *Counter = B->getLHS(), *Bound = B->getRHS();
  if (!Bound->getIntegerConstantExpr(Ctx)) {
    std::swap(Counter, Bound);
    If.Op = Swapped[int(If.Op)];
  }
  auto Rhs = Bound->getIntegerConstantExpr(Ctx);
  If.Cond = indexOf(Counter);
  if (!Rhs || !If.Cond.Known || If.Cond.Loop < 0)
    return std::nullopt;
  If.Rhs = Rhs->getExtValue();
  return If;
}

/// A branch of an `if`: one that selects threads is the issuer's; counter
/// comparisons are evaluated per iteration; any other condition may hold
/// or not. The else branch of a condition with parts runs when any part
/// fails, which only an unknown condition describes.
/// The branch's events under the If events of its condition; the index of
/// its one If event, if one (an `else` then runs exactly when it did not).
int Builder::branch(const Stmt *S, const Condition &C, bool Then,
                    SourceLocation L, int ThenIf) {
  if (!S || (Then && C.Never) || (!Then && C.always()))
    return -1;
  std::vector<StoreEvent> Ifs;
  if (Then) {
    Ifs = C.Known;
  } else if (C.Never) {
    stmt(S);
    return -1;
  }
  if ((Then && C.Unknown) || (!Then && (C.Unknown || !C.Known.empty()))) {
    StoreEvent Maybe;
    Maybe.K = StoreEvent::Kind::If;
    Maybe.Else = Then ? -1 : ThenIf;
    Ifs.push_back(Maybe);
  }
  std::vector<size_t> At;
  for (StoreEvent &If : Ifs) {
    If.Guarded = Guarded;
    If.Loc = toHandle(L);
    At.push_back(T.StoreEvents.size());
    T.StoreEvents.push_back(If);
  }
  bool Saved = Guarded;
  Guarded = Guarded || C.Thread;
  stmt(S);
  Guarded = Saved;
  for (size_t I : At)
    T.StoreEvents[I].End = int(T.StoreEvents.size());
  return At.size() == 1 ? int(At[0]) : -1;
}

void Builder::forLoop(const ForStmt *F) {
  stmt(F->getInit());
  std::optional<ConstantLoop> L = constantLoop(Ctx, F);
  const VarDecl *Var = L ? L->Var : nullptr;
  if (!Var)
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
        DS && DS->isSingleDecl())
      Var = dyn_cast<VarDecl>(DS->getSingleDecl());
  loop(Var, L, F->getBody());
}

/// A counter that is not constant counts from 0: a rotation over K buffers
/// repeats every K iterations wherever it starts.
void Builder::loop(const VarDecl *Var, std::optional<ConstantLoop> L,
                   const Stmt *LoopBody) {
  int At = int(T.StoreEvents.size());
  StoreEvent Ev;
  Ev.K = StoreEvent::Kind::Loop;
  if (L) {
    Ev.Trips = int64_t(L->Trips);
    Ev.Init = L->Init;
    Ev.Step = L->Step;
  }
  T.StoreEvents.push_back(Ev);
  if (Var)
    LoopOf[Var] = At;
  stmt(LoopBody);
  if (Var)
    LoopOf.erase(Var);
  T.StoreEvents[At].End = int(T.StoreEvents.size());
}

void Builder::expr(const Expr *E) {
  if (!E || isa<LambdaExpr>(E))
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->isLogicalOp()) { // the right side may not run
      expr(B->getLHS());
      return guarded(B->getRHS());
    }
    expr(B->getRHS());
    expr(B->getLHS());
    if (B->isAssignmentOp())
      write(B->getLHS(), B->getOperatorLoc());
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    expr(U->getSubExpr());
    if (U->isIncrementDecrementOp())
      write(U->getSubExpr(), U->getOperatorLoc());
    return;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    expr(C->getCond());
    guarded(C->getTrueExpr());
    return guarded(C->getFalseExpr());
  }
  for (const Stmt *Child : E->children())
    stmt(Child);
  if (const auto *C = dyn_cast<CallExpr>(E))
    call(C);
}

/// Declared in ts::tma.
bool inTma(const FunctionDecl *F) {
  const auto *NS = dyn_cast<NamespaceDecl>(F->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "tma" && inLibts(F);
}

void Builder::call(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F)
    return;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(C);
      Op && Op->isAssignmentOp() && Op->getNumArgs() > 0)
    return write(Op->getArg(0), Op->getOperatorLoc());
  if (libtsCall(C, F))
    return;
  StringRef Name = F->getIdentifier() ? F->getName() : "";
  if (Name == "__syncthreads" || (Name == "__syncwarp" && T.NumWarps == 1))
    return push(StoreEvent::Kind::Barrier, C->getBeginLoc());
  if (Name == "fence_proxy_async")
    return push(StoreEvent::Kind::Fence, C->getBeginLoc());
  const FunctionDecl *Def = bodyOf(userCallee(C));
  if (Def && Depth < kMaxDepth) {
    for (unsigned I = 0; I < C->getNumArgs() && I < Def->getNumParams(); ++I)
      Params[Def->getParamDecl(I)] = keyOf(C->getArg(I), 0, /*Value=*/true);
    return function(Def, Depth + 1);
  }
  // A function whose body is not here writes what it may write.
  for (unsigned I = 0; I < C->getNumArgs() && I < F->getNumParams(); ++I) {
    QualType P = F->getParamDecl(I)->getType();
    if ((P->isPointerType() || P->isReferenceType()) &&
        !P->getPointeeType().isConstQualified())
      write(C->getArg(I), C->getBeginLoc());
  }
}

/// libts's functions: the TMA store calls and barriers are events, a
/// consumer's release retires its stage; the rest write no buffer.
bool Builder::libtsCall(const CallExpr *C, const FunctionDecl *F) {
  if (!inLibts(F))
    return false;
  StringRef Name = F->getIdentifier() ? F->getName() : "";
  SourceLocation L = C->getBeginLoc();
  using K = StoreEvent::Kind;
  if (inTma(F) && (Name == "store" || Name == "issue_store") &&
      C->getNumArgs() == 3)
    push(Name == "store" ? K::WarpStore : K::Issue, L, C->getArg(2));
  else if (inTma(F) && Name == "store_fence")
    push(K::Fence, L);
  else if (inTma(F) && Name == "wait_store_reads") {
    const TemplateArgumentList *Args = F->getTemplateSpecializationArgs();
    push(K::Wait, L);
    T.StoreEvents.back().Pending =
        Args && Args->size() == 1 &&
                Args->get(0).getKind() == TemplateArgument::Integral
            ? int(Args->get(0).getAsIntegral().getExtValue())
            : 0;
  } else if (Name == "sync_warpgroup" ||
             (Name == "sync" && !inTma(F))) // ts::cluster::sync
    push(K::Barrier, L);
  else if (const auto *M = dyn_cast<CXXMemberCallExpr>(C);
           M && (Name == "release" || Name == "release_oldest") &&
           tsRecord(M->getImplicitObjectArgument()->getType(), "consumer"))
    for (const VarDecl *V : StageBuffers)
      if (Name == "release_oldest" || keyOf(C->getArg(0), 0).Root == V) {
        push(K::Retire, L);
        T.StoreEvents.back().Buffer = Buffers.at(V);
      }
  return true;
}

void Builder::write(const Expr *Target, SourceLocation L) {
  const Expr *E = Target->IgnoreParenImpCasts();
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) // a variable, not memory
    if (const auto *V = dyn_cast<VarDecl>(R->getDecl());
        V && !V->getType()->isReferenceType())
      return;
  push(StoreEvent::Kind::Write, L, Target);
}

void Builder::push(StoreEvent::Kind K, SourceLocation L, const Expr *Target) {
  StoreEvent Ev;
  Ev.K = K;
  Ev.Guarded = Guarded;
  Ev.Loc = toHandle(L);
  if (Target) {
    Key X = keyOf(Target, 0);
    if (!X.Root && !X.Wild) // not memory: a member of `this`, a function
      return;
    Ev.Buffer = X.Wild ? AnyBuffer : bufferOf(X.Root);
    Ev.Text = sourceText(Ctx, Target->getSourceRange());
    for (const Key::Step &S : X.Steps)
      Ev.Path.push_back(StoreStep{S.Field ? S.Field->getNameAsString() : "",
                                  S.Index ? indexOf(S.Index) : StoreIndex{}});
  }
  T.StoreEvents.push_back(Ev);
}

int Builder::bufferOf(const VarDecl *V) {
  auto [It, New] = Buffers.try_emplace(V, int(T.StoreBuffers.size()));
  if (New) {
    T.StoreBuffers.push_back(V->getNameAsString());
    if (tsRecord(V->getType(), "stage"))
      StageBuffers.push_back(V);
  }
  return It->second;
}

/// Follows casts, members and subscripts to the variable whose memory E
/// names. Pointer arithmetic stays inside the array the pointer points into
/// (beyond it is undefined), so it drops only the steps below that array. A
/// local pointer initialised once stands for what it points to, a parameter
/// of an inlined function for its argument. Value: E is a pointer that will
/// be read through (an argument, an initialiser), not a place written.
Key Builder::keyOf(const Expr *E, unsigned D, bool Value) const {
  std::vector<Key::Step> Below; // innermost first
  bool Loaded = Value;          // a pointer value was read on the way
  while (E && D <= kMaxDepth) {
    E = E->IgnoreParens();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(A->getBase());
      if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay)
        Below.push_back({nullptr, A->getIdx()});
      else
        Below.clear();
      E = A->getBase();
    } else if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      Below.clear();
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *F = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!F)
        return {};
      Below.push_back({F, nullptr});
      E = M->getBase();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      Loaded |= C->getCastKind() == CK_LValueToRValue;
      E = C->getSubExpr();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E))
      E = U->getSubExpr();
    else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      E = MC->getImplicitObjectArgument(); // s.get()
    else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
             Op && Op->getNumArgs() > 0)
      E = Op->getArg(0); // s->a, *s
    else if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
      E = MT->getSubExpr();
    else if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(R->getDecl());
      Key Base;
      if (!V)
        return {};
      if (const auto *AT = Ctx.getAsConstantArrayType(V->getType());
          AT && AT->getElementType()->isPointerType() && V->hasLocalStorage())
        return Loaded ? pointerArrayKey(V, D) // what its elements point to
                      : Key{};                // the array itself, a local
      bool Local =
          V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
          (V->getType()->isPointerType() || V->getType()->isReferenceType());
      if (auto It = Params.find(V); It != Params.end())
        Base = It->second;
      else if (Local && V->getInit() && !writesVar(Body, V))
        Base = keyOf(V->getInit(), D + 1, /*Value=*/true);
      else if (Local)
        Base.Wild = true; // assigned later: it may point anywhere
      else
        Base.Root = V;
      if (Base.Root)
        Base.Steps.insert(Base.Steps.end(), Below.rbegin(), Below.rend());
      return Base;
    } else
      return Key{nullptr, {}, /*Wild=*/true}; // a call's result, a ?:
  }
  return {};
}

/// A local array of pointers stands for what its elements point to: their
/// common buffer and path, when the elements are const and initialised in
/// a list (`T *const p[2] = {s->a, s->b};`); anything else may point
/// anywhere.
Key Builder::pointerArrayKey(const VarDecl *V, unsigned D) const {
  const auto *AT = Ctx.getAsConstantArrayType(V->getType());
  const auto *List = dyn_cast_or_null<InitListExpr>(
      V->getInit() ? V->getInit()->IgnoreImplicit() : nullptr);
  Key Wild{nullptr, {}, /*Wild=*/true};
  if (!AT->getElementType().isConstQualified() || !List ||
      List->getNumInits() == 0 ||
      List->getNumInits() != AT->getSize().getZExtValue())
    return Wild;
  std::optional<Key> Common;
  for (const Expr *Init : List->inits()) {
    Key K = keyOf(Init, D + 1);
    if (K.Wild || !K.Root || (Common && Common->Root != K.Root))
      return Wild;
    if (!Common) {
      Common = K;
      continue;
    }
    size_t N = 0; // the common prefix of the two paths
    while (N < Common->Steps.size() && N < K.Steps.size() &&
           Common->Steps[N].Field == K.Steps[N].Field &&
           !Common->Steps[N].Index && !K.Steps[N].Index)
      ++N;
    Common->Steps.resize(N);
  }
  return *Common;
}

/// ((Mul * counter + Add) mod Mod) for the index spellings of a rotation:
/// constants, a loop counter, + - * by constants, `% K` and `& (2^n - 1)`.
StoreIndex Builder::indexOf(const Expr *E) const {
  StoreIndex X;
  if (auto C = E->getIntegerConstantExpr(Ctx)) {
    X.Known = true;
    X.Add = C->getExtValue();
    return X;
  }
  E = E->IgnoreParenCasts();
  if (const auto *M = dyn_cast<CXXMemberCallExpr>(E);
      M && isa<CXXConversionDecl>(M->getMethodDecl()))
    return indexOf(M->getImplicitObjectArgument());
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    return indexOf(F->getSubExpr());
  if (const auto *R = dyn_cast<DeclRefExpr>(E)) {
    auto It = LoopOf.find(dyn_cast<VarDecl>(R->getDecl()));
    if (It != LoopOf.end()) {
      X.Known = true;
      X.Loop = It->second;
    }
    return X;
  }
  const auto *B = dyn_cast<BinaryOperator>(E);
  if (!B)
    return X;
  auto Const = B->getRHS()->getIntegerConstantExpr(Ctx);
  StoreIndex L = indexOf(B->getLHS());
  if (!Const || !L.Known || L.Mod)
    return X;
  int64_t C = Const->getExtValue();
  switch (B->getOpcode()) {
  case BO_Add:
    L.Add += C;
    return L;
  case BO_Sub:
    L.Add -= C;
    return L;
  case BO_Mul:
    L.Mul *= C;
    L.Add *= C;
    return L;
  case BO_Rem:
    L.Mod = C;
    return C > 0 ? L : X;
  case BO_And:
    L.Mod = C + 1;
    return C >= 0 && (C & (C + 1)) == 0 ? L : X;
  default:
    return X;
  }
}

/// Keeps only the writes into buffers a store reads, and the loops around
/// events; none at all when the task issues no store.
/// A loop or a branch: it only says how the events in it run.
bool structural(const StoreEvent &Ev) {
  return Ev.K == StoreEvent::Kind::Loop || Ev.K == StoreEvent::Kind::If;
}

void Builder::finish() {
  std::vector<StoreEvent> &E = T.StoreEvents;
  std::vector<bool> Stored(T.StoreBuffers.size());
  for (const StoreEvent &Ev : E)
    if (Ev.K == StoreEvent::Kind::Issue || Ev.K == StoreEvent::Kind::WarpStore)
      Stored[Ev.Buffer] = true;
  auto Dropped = [&](const StoreEvent &Ev) {
    return Ev.Buffer >= 0 && !Stored[Ev.Buffer];
  };
  // Effects[I]: events before I that act; a loop or branch without one
  // in it changes nothing, and left in, a branch would cost the verifier
  // a choice per run.
  std::vector<int> Effects(E.size() + 1, 0);
  for (size_t I = 0; I < E.size(); ++I)
    Effects[I + 1] = Effects[I] + (!structural(E[I]) && !Dropped(E[I]));
  auto Empty = [&](size_t I) {
    return structural(E[I]) && Effects[E[I].End] == Effects[I + 1];
  };
  std::vector<int> NewAt(E.size() + 1, 0);
  std::vector<StoreEvent> Kept;
  for (size_t I = 0; I <= E.size(); ++I) {
    NewAt[I] = int(Kept.size());
    if (I == E.size())
      break;
    if (Dropped(E[I]) || Empty(I))
      continue;
    Kept.push_back(E[I]);
    if (Kept.back().Else >= 0 && Empty(size_t(Kept.back().Else)))
      Kept.back().Else = -1; // its then is gone: it may run or not
  }
  for (StoreEvent &Ev : Kept) {
    if (Ev.K == StoreEvent::Kind::Loop || Ev.K == StoreEvent::Kind::If)
      Ev.End = NewAt[Ev.End];
    if (Ev.Cond.Loop >= 0)
      Ev.Cond.Loop = NewAt[Ev.Cond.Loop];
    if (Ev.Else >= 0) // its then is kept: an If is never dropped
      Ev.Else = NewAt[Ev.Else];
    for (StoreStep &S : Ev.Path)
      if (S.Index.Loop >= 0)
        S.Index.Loop = NewAt[S.Index.Loop];
  }
  bool Any = std::find(Stored.begin(), Stored.end(), true) != Stored.end();
  E = Any ? std::move(Kept) : std::vector<StoreEvent>{};
  if (!Any)
    T.StoreBuffers.clear();
}

} // namespace

void extractStores(ASTContext &Ctx, const FunctionDecl *FD, Task &T) {
  if (!FD || !FD->getBody())
    return;
  Builder B(Ctx, T);
  B.function(FD, 0);
  B.finish();
}

} // namespace ts
