//===- TmaLoads.cpp - TMA loads into a stage in one statement -------------===//
#include "frontend/TmaLoads.h"
#include "frontend/DiagEmitter.h"
#include "frontend/LoopTrips.h"
#include "frontend/TmaBox.h"
#include "frontend/Vocabulary.h"

#include <algorithm>

using namespace clang;

namespace ts {

bool TmaLoads::isTmaLoad(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() ||
      !llvm::is_contained(
          {"load", "load_multicast", "load_with_barrier", "load_im2col"},
          F->getName()))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(F->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "tma" &&
         isa<NamespaceDecl>(NS->getDeclContext()) &&
         cast<NamespaceDecl>(NS->getDeclContext())->getIdentifier() &&
         cast<NamespaceDecl>(NS->getDeclContext())->getName() == "ts";
}
/// The stage variable whose s.barrier() (possibly converted, possibly
/// kept in a local) is the load's barrier argument.
const VarDecl *TmaLoads::barrierStage(const Expr *Bar) const {
  for (int Depth = 0; Depth < 4; ++Depth) {
    Bar = stripExpr(Bar)->IgnoreCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Bar))
      if (const auto *Local = dyn_cast<VarDecl>(Ref->getDecl());
          Local && Local->isLocalVarDecl() && Local->getInit()) {
        Bar = Local->getInit();
        continue;
      }
    Bar = stripExpr(Bar)->IgnoreCasts();
    const auto *Conv = dyn_cast<CXXMemberCallExpr>(Bar);
    if (!Conv || !isa_and_nonnull<CXXConversionDecl>(Conv->getMethodDecl()))
      break;
    Bar = Conv->getImplicitObjectArgument();
  }
  const auto *MC = dyn_cast<CXXMemberCallExpr>(stripExpr(Bar));
  const auto *DRE =
      MC ? dyn_cast<DeclRefExpr>(
               MC->getImplicitObjectArgument()->IgnoreParenImpCasts())
         : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}
std::optional<std::string> TmaLoads::payloadMember(const Expr *Dst) {
  const MemberExpr *Top = nullptr;
  for (int Depth = 0; Dst && Depth < 16; ++Depth) {
    Dst = stripExpr(Dst)->IgnoreParenCasts();
    if (const auto *M = dyn_cast<MemberExpr>(Dst)) {
      Top = M;
      Dst = M->getBase();
    } else if (const auto *B = dyn_cast<BinaryOperator>(Dst);
               B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
      Dst = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
    } else if (const auto *U = dyn_cast<UnaryOperator>(Dst);
               U && U->getOpcode() == UO_AddrOf) {
      Dst = U->getSubExpr();
    } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Dst)) {
      Dst = AS->getBase();
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(Dst);
               MC &&
               tsRecord(MC->getImplicitObjectArgument()->getType(), "stage")) {
      return Top ? Top->getMemberDecl()->getNameAsString()
                 : std::string(); // s.get()
    } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Dst);
               OC && OC->getNumArgs() &&
               tsRecord(OC->getArg(0)->getType(), "stage")) {
      return Top ? Top->getMemberDecl()->getNameAsString()
                 : std::string(); // s->, *s
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}
/// The CTA mask written as load_multicast's template argument, if any.
std::optional<uint64_t> TmaLoads::maskArgument(const CallExpr *C) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreImpCasts());
  if (!Ref || Ref->getNumTemplateArgs() == 0)
    return std::nullopt;
  const TemplateArgument &A = Ref->template_arguments()[0].getArgument();
  if (A.getKind() == TemplateArgument::Integral)
    return A.getAsIntegral().getZExtValue();
  if (A.getKind() == TemplateArgument::Expression)
    if (std::optional<llvm::APSInt> V =
            A.getAsExpr()->getIntegerConstantExpr(Ctx))
      return V->getZExtValue();
  return std::nullopt;
}
/// A destination that is a whole object of the stage: a member array
/// (`s->a`, `s->ab.lo`), its address (`&s->b`) or the stage (`s.get()`).
/// Offsets and element addresses name a part of unknown size (null).
QualType TmaLoads::destinationType(const Expr *Dst) const {
  if (!payloadMember(Dst))
    return QualType(); // not into the stage
  const Expr *E = stripExpr(Dst)->IgnoreParenImpCasts();
  QualType T;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf &&
      isa<MemberExpr>(U->getSubExpr()->IgnoreParens()))
    T = U->getSubExpr()->getType();
  else if (isa<MemberExpr>(E) && E->getType()->isConstantArrayType())
    T = E->getType();
  else if (isa<CXXMemberCallExpr>(E) && E->getType()->isPointerType())
    T = E->getType()->getPointeeType(); // s.get()
  if (T.isNull() || T->isDependentType() || T->isIncompleteType())
    return QualType();
  return T;
}

namespace {
struct LoadCalls : AstWalk {
  std::vector<const CallExpr *> Found;
  bool visitCallExpr(CallExpr *C) override {
    if (TmaLoads::isTmaLoad(C->getDirectCallee()) && C->getNumArgs() > 0)
      Found.push_back(C);
    return true;
  }
};
} // namespace

/// One run of C's box into the stage: its typed box, else its whole
/// destination; none for multicast or a part of unknown size.
std::optional<uint64_t> TmaLoads::loadBytes(const CallExpr *C) const {
  if (C->getDirectCallee()->getName() != "load" &&
      C->getDirectCallee()->getName() != "load_im2col")
    return std::nullopt;
  if (auto Box = typedBoxBytes(Ctx, C->getArg(1)))
    return Box;
  QualType Dst = destinationType(C->getArg(0));
  if (Dst.isNull())
    return std::nullopt;
  return uint64_t(Ctx.getTypeSizeInChars(Dst).getQuantity());
}

std::optional<std::vector<TmaLoads::BranchLoad>>
TmaLoads::branchLoads(const Stmt *S) const {
  LoadCalls Calls;
  Calls.walk(S);
  std::vector<BranchLoad> Out;
  for (const CallExpr *C : Calls.Found) {
    const VarDecl *V = barrierStage(C->getArg(C->getNumArgs() - 1));
    if (!Stages.count(V))
      continue;
    Branches In;
    std::optional<uint64_t> Times = timesRun(S, C, In);
    std::optional<std::string> Field = payloadMember(C->getArg(0));
    std::optional<uint64_t> Bytes = loadBytes(C);
    if (!Times || In.Alternative || !Field || !Bytes)
      return std::nullopt;
    // The stage too: alike branches must fill the same stage.
    Out.emplace_back(V, *Field, *Bytes * *Times);
  }
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// How often C runs on every path through S: S is C, a block holding a
/// statement that runs it, an `if` whose condition is a constant (`if
/// constexpr (D > 64)`) taking the branch that runs it, or a loop of
/// constant trip count (with or without `#pragma unroll`) whose body runs
/// it; none when it may be skipped. An if-else of unknown condition whose
/// branches load the same bytes into the same members runs the then
/// branch's loads on every path, and the else branch's exactly where those
/// do not (Alternative: their bytes are the then branch's).
std::optional<uint64_t> TmaLoads::timesRun(const Stmt *S, const CallExpr *C,
                                           Branches &B) const {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    return stripExpr(E) == C ? std::optional<uint64_t>(1) : std::nullopt;
  if (const auto *A = dyn_cast_or_null<AttributedStmt>(S))
    return timesRun(A->getSubStmt(), C, B);
  if (const auto *I = dyn_cast_or_null<IfStmt>(S)) {
    if (I->getInit() || I->getConditionVariable())
      return std::nullopt;
    bool Taken = false;
    if (!I->getCond()->isValueDependent() &&
        I->getCond()->EvaluateAsBooleanCondition(Taken, Ctx))
      return timesRun(Taken ? I->getThen() : I->getElse(), C, B);
    if (!I->getElse())
      return std::nullopt;
    std::optional<uint64_t> N = timesRun(I->getThen(), C, B);
    bool InElse = false;
    if (!N) {
      N = timesRun(I->getElse(), C, B);
      InElse = true;
    }
    auto Then = N ? branchLoads(I->getThen()) : std::nullopt;
    auto Else = Then ? branchLoads(I->getElse()) : std::nullopt;
    if (!Else || *Then != *Else) {
      // Loads on both sides that differ (an else without loads is a skip).
      B.Unalike |= N && (!Then || !Else || (!Then->empty() && !Else->empty()));
      return std::nullopt;
    }
    B.Alternative |= InElse;
    return N;
  }
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S)) {
    for (const Stmt *X : Block->body())
      if (auto N = timesRun(X, C, B))
        return N;
    return std::nullopt;
  }
  const auto *F = dyn_cast_or_null<ForStmt>(S);
  std::optional<uint64_t> Trips;
  if (auto L = F ? constantLoop(Ctx, F) : std::nullopt)
    Trips = L->Trips;
  std::optional<uint64_t> Body =
      Trips && *Trips > 0 ? timesRun(F->getBody(), C, B) : std::nullopt;
  return Body ? std::optional<uint64_t>(*Trips * *Body) : std::nullopt;
}

/// `s->m + pos * C1 * C2`: the constant factors of the offset make the
/// stride, the one factor left is the CTA's position; the member's extent
/// counts elements of what `s->m` decays to (rows of a 2-D member).
void TmaLoads::shareStride(const Expr *Dst, Load &L) const {
  const auto *Add =
      dyn_cast<BinaryOperator>(stripExpr(Dst)->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add)
    return;
  const Expr *Base = Add->getLHS()->IgnoreParenImpCasts();
  const auto *Member = dyn_cast<MemberExpr>(Base);
  const auto *Array =
      Member ? Ctx.getAsConstantArrayType(Member->getType()) : nullptr;
  if (!Array || Array->isDependentType())
    return;
  uint64_t Stride = 1;
  unsigned Unknown = 0;
  std::vector<const Expr *> Work{Add->getRHS()};
  while (!Work.empty()) {
    const Expr *E = Work.back()->IgnoreParenImpCasts();
    Work.pop_back();
    if (auto V = E->getIntegerConstantExpr(Ctx); V && V->isStrictlyPositive())
      Stride *= V->getZExtValue();
    else if (const auto *M = dyn_cast<BinaryOperator>(E);
             M && M->getOpcode() == BO_Mul)
      Work.insert(Work.end(), {M->getLHS(), M->getRHS()});
    else
      ++Unknown;
  }
  if (Unknown != 1) // a constant offset, or a sum: not one share per CTA
    return;
  L.ShareStride = Stride;
  L.ShareExtent = Array->getSize().getZExtValue();
}

bool TmaLoads::visitCallExpr(CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!isTmaLoad(F) || C->getNumArgs() == 0)
    return true;
  const VarDecl *V = barrierStage(C->getArg(C->getNumArgs() - 1));
  auto It = V ? Stages.find(V) : Stages.end();
  if (It == Stages.end())
    return true;
  Load L;
  L.Resource = It->second.Resource;
  Branches In;
  std::optional<uint64_t> Times = timesRun(Top, C, In);
  L.Always = Times.has_value();
  L.Multicast = F->getName() == "load_multicast";
  if (L.Multicast)
    L.Mask = maskArgument(C);
  L.Loc = C->getExprLoc();
  L.Field = payloadMember(C->getArg(0));
  QualType Dst = destinationType(C->getArg(0));
  L.Box.Loc = toHandle(C->getArg(1)->getExprLoc());
  L.Box.Map = exprText(Ctx, C->getArg(1));
  L.Box.Box = typedBoxBytes(Ctx, C->getArg(1));
  if (!Dst.isNull()) {
    L.Box.Dst = uint64_t(Ctx.getTypeSizeInChars(Dst).getQuantity());
    L.Box.Suggest = mapTypeFor(Ctx, Dst);
  }
  // An alternative's bytes are counted once, with its then-branch twin.
  L.Box.Times = In.Alternative ? 0 : Times.value_or(0);
  L.Box.UnalikeBranches = In.Unalike;
  L.Box.Multicast = L.Multicast;
  L.Box.Im2col = F->getName() == "load_im2col";
  if (F->getName() == "load" && C->getNumArgs() == 4)
    L.Box.Coords = readsOf(Ctx, {C->getArg(2)});
  L.PerWarp = F->getName() == "load_with_barrier";
  if (L.Multicast && C->getNumArgs() == 4) {
    // (dst, &map, {c0, ...}, barrier)
    L.Dst = readsOf(Ctx, {C->getArg(0)});
    L.Coords = readsOf(Ctx, {C->getArg(2)});
    shareStride(C->getArg(0), L);
  }
  Found.push_back(std::move(L));
  return true;
}

} // namespace ts
