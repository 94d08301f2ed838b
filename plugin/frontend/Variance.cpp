//===- Variance.cpp - Values that differ between CTAs or threads ----------===//
//
// A small abstract interpretation over the AST: an expression's value is
// the join of the special registers it reads. Locals contribute their
// initialiser and every assignment; calls contribute what their returns
// read, with parameters bound to the arguments' reads. `blockIdx.x / C`
// stays exact while only divided, so verify/Cluster.cpp can tell a loop
// over clusters from one over CTAs. Anything unseen (memory, opaque calls,
// escaped locals) clears Reads::Complete instead of guessing.
//
//===----------------------------------------------------------------------===//
#include "frontend/Variance.h"
#include "frontend/AstWalk.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <memory>
#include <set>

using namespace clang;

namespace ts {
namespace {

/// A read; Exact while the value is still blockIdx/threadIdx.<Dim> / Divisor.
struct Found {
  Varying V;
  bool Exact = false;
};
using FoundList = std::vector<Found>;

void join(FoundList &Into, const FoundList &From, bool KeepExact = false) {
  for (Found F : From) {
    F.Exact &= KeepExact;
    Into.push_back(std::move(F));
  }
}

/// A special register by its PTX name ("ctaid.x" or "ctaid_x"); false when
/// the name is unknown. Uniform registers leave Out empty.
bool specialRegister(std::string Name, std::optional<Varying> &Out) {
  for (char &C : Name)
    C = C == '.' ? '_' : C;
  auto Is = [&](StringRef P) { return StringRef(Name).starts_with(P); };
  Out.reset();
  if (Is("ctaid_")) {
    Out = Varying{
        Varying::Source::CtaIndex, unsigned(Name.back() - 'x'), 1, 0, "", 0};
    return Name.size() == 7 && Name.back() >= 'x' && Name.back() <= 'z';
  }
  if (Is("cluster_ctarank") || Is("cluster_ctaid_")) {
    Out = Varying{Varying::Source::ClusterRank, 0, 1, 0, "", 0};
    return true;
  }
  if (Is("tid_")) {
    Out = Varying{
        Varying::Source::ThreadIndex, unsigned(Name.back() - 'x'), 1, 0, "", 0};
    return Name.size() == 5 && Name.back() >= 'x' && Name.back() <= 'z';
  }
  for (StringRef P :
       {"laneid", "warpid", "lanemask_", "clock", "globaltimer", "smid"})
    if (Is(P)) {
      Out = Varying{Varying::Source::Thread, 0, 1, 0, "", 0};
      return true;
    }
  for (StringRef P :
       {"nctaid_", "ntid_", "clusterid_", "nclusterid_", "cluster_nctarank",
        "cluster_nctaid_", "is_explicit_cluster", "gridid", "nsmid", "nwarpid"})
    if (Is(P))
      return true;
  return false;
}

/// Functions whose value the analysis does not look through: they live in
/// the CUDA, CCCL or libts headers, so a read inside is shown at the call.
bool isLibrary(const FunctionDecl *F, const SourceManager &SM) {
  if (SM.isInSystemHeader(F->getLocation()))
    return true;
  const DeclContext *DC = F->getDeclContext();
  const NamespaceDecl *Top = nullptr;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Top = NS;
  return Top && Top->getIdentifier() &&
         (Top->getName() == "ts" || Top->getName() == "cuda");
}

/// Per function: how its locals are written.
struct LocalWrites {
  std::map<const VarDecl *, std::vector<const Expr *>> Assigned;
  std::map<const VarDecl *, std::vector<const GCCAsmStmt *>> AsmOut;
  std::set<const VarDecl *> Escaped; ///< Address or non-const reference taken.
  /// Calls that take the local by non-const reference: parameter index.
  std::map<const VarDecl *, std::vector<std::pair<const CallExpr *, unsigned>>>
      OutArgs;
  /// Range-for variables: their values come from the range (a ts::domain's
  /// bounds), not from the iterator the loop hides.
  std::map<const VarDecl *, const Expr *> RangeOf;
};

struct RefCollector : AstWalk {
  std::vector<const DeclRefExpr *> Refs;
  std::map<const VarDecl *, const Expr *> RangeOf;
  bool visitCXXForRangeStmt(CXXForRangeStmt *FR) override {
    RangeOf[FR->getLoopVariable()] = FR->getRangeInit();
    return true;
  }
  bool visitDeclRefExpr(DeclRefExpr *E) override {
    if (const auto *V = dyn_cast<VarDecl>(E->getDecl());
        V && V->hasLocalStorage())
      Refs.push_back(E);
    return true;
  }
};

/// How call or construction C takes Arg: as a value, through a reference
/// the callee may write (parameter Index of a direct call), or unseen.
enum class ArgUse { Value, OutParam, Unknown };

ArgUse argUse(const Stmt *C, const Expr *Arg, unsigned &Index) {
  const FunctionDecl *F = nullptr;
  llvm::ArrayRef<const Expr *> Args;
  if (const auto *Call = dyn_cast<CallExpr>(C)) {
    F = Call->getDirectCallee();
    Args = llvm::ArrayRef(Call->getArgs(), Call->getNumArgs());
  } else if (const auto *CE = dyn_cast<CXXConstructExpr>(C)) {
    F = CE->getConstructor();
    Args = llvm::ArrayRef(CE->getArgs(), CE->getNumArgs());
  }
  if (!F)
    return ArgUse::Unknown;
  unsigned Shift = isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) ? 1 : 0;
  for (unsigned I = Shift; I < Args.size() && I - Shift < F->getNumParams();
       ++I)
    if (Args[I]->IgnoreParens() == Arg) {
      QualType T = F->getParamDecl(I - Shift)->getType();
      if (!T->isReferenceType() || T.getNonReferenceType().isConstQualified())
        return ArgUse::Value;
      Index = I - Shift;
      return isa<CallExpr>(C) ? ArgUse::OutParam : ArgUse::Unknown;
    }
  return ArgUse::Unknown; // the object of a member call, or a variadic argument
}

void classifyRef(const DeclRefExpr *Ref, ParentMap &PM, LocalWrites &W) {
  const auto *V = cast<VarDecl>(Ref->getDecl());
  const Stmt *P = PM.getParentIgnoreParens(Ref);
  if (const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
      IC && (IC->getCastKind() == CK_LValueToRValue ||
             IC->getCastKind() == CK_ArrayToPointerDecay))
    return;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
      BO && BO->isAssignmentOp() && BO->getLHS()->IgnoreParens() == Ref) {
    W.Assigned[V].push_back(BO->getRHS());
    return;
  }
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(P);
      UO && UO->isIncrementDecrementOp())
    return;
  if (const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(P)) {
    W.AsmOut[V].push_back(Asm);
    return;
  }
  unsigned Index = 0;
  ArgUse Use = isa_and_nonnull<CallExpr, CXXConstructExpr>(P)
                   ? argUse(P, Ref, Index)
                   : ArgUse::Unknown;
  if (Use == ArgUse::OutParam)
    W.OutArgs[V].push_back({cast<CallExpr>(P), Index});
  else if (Use == ArgUse::Unknown)
    W.Escaped.insert(V); // its address, a reference to it, a member of it
}

class Finder {
public:
  Finder(ASTContext &Ctx) : Ctx(Ctx), SM(Ctx.getSourceManager()) {}
  FoundList expr(const Expr *E);
  bool Complete = true;

private:
  struct Frame {
    std::map<const ParmVarDecl *, FoundList> Params;
    FoundList This;
  };
  FoundList access(const Expr *E);
  FoundList builtinVar(const PseudoObjectExpr *E);
  FoundList call(const CallExpr *C);
  FoundList knownCall(const CallExpr *C, const FunctionDecl *F, bool &Known);
  FoundList broadcast(const CallExpr *C, const std::string &What);
  bool enter(const CallExpr *C, const FunctionDecl *F, const FunctionDecl *Def);
  void leave(const FunctionDecl *Def, bool Anchor);
  FoundList inlineCall(const CallExpr *C, const FunctionDecl *F,
                       const FunctionDecl *Def);
  FoundList outArgument(const CallExpr *C, unsigned I);
  FoundList written(const VarDecl *V, const LocalWrites &W, bool &Single);
  FoundList binary(const BinaryOperator *B);
  FoundList declRef(const DeclRefExpr *E);
  FoundList local(const VarDecl *V);
  FoundList asmOutput(const GCCAsmStmt *Asm);
  FoundList children(const Stmt *S);
  Found source(Varying::Source Src, unsigned Dim, std::string What,
               SourceLocation L);
  const LocalWrites &writes(const FunctionDecl *F);

  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<Frame> Frames;
  std::set<const VarDecl *> Visiting;
  std::set<const FunctionDecl *> Active;
  std::map<const FunctionDecl *, LocalWrites> Writes;
  /// The outermost library call being looked through: reads inside it are
  /// reported there, as that call.
  SourceLocation AnchorLoc;
  std::string AnchorName;
};

Found Finder::source(Varying::Source Src, unsigned Dim, std::string What,
                     SourceLocation L) {
  if (AnchorLoc.isValid()) {
    What = AnchorName;
    L = AnchorLoc;
  }
  return Found{Varying{Src, Dim, 1, 0, std::move(What), toHandle(L)}, true};
}

const LocalWrites &Finder::writes(const FunctionDecl *F) {
  auto It = Writes.find(F);
  if (It != Writes.end())
    return It->second;
  LocalWrites &W = Writes[F];
  if (Stmt *Body = F->getBody()) {
    ParentMap PM(Body);
    RefCollector RC;
    RC.walk(Body);
    for (const DeclRefExpr *Ref : RC.Refs)
      classifyRef(Ref, PM, W);
    W.RangeOf = std::move(RC.RangeOf);
  }
  return W;
}

FoundList Finder::children(const Stmt *S) {
  FoundList Out;
  for (const Stmt *Child : S->children())
    if (const auto *E = dyn_cast_or_null<Expr>(Child))
      join(Out, expr(E));
  return Out;
}

FoundList Finder::expr(const Expr *E) {
  if (!E)
    return {};
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return expr(Cast->getSubExpr());
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    return expr(M->getSubExpr());
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return expr(FE->getSubExpr());
  if (const auto *BT = dyn_cast<CXXBindTemporaryExpr>(E))
    return expr(BT->getSubExpr());
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return expr(DA->getExpr());
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return expr(OV->getSourceExpr());
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(R, Ctx))
    return {};
  // Stage addresses are offsets of one layout, the same in every CTA.
  for (const char *Handle : {"stage", "producer", "consumer", "tma_barrier"})
    if (tsRecord(E->getType(), Handle))
      return {};
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return builtinVar(PO);
  if (const auto *C = dyn_cast<CallExpr>(E))
    return call(C);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRef(DRE);
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return binary(B);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    bool Cond;
    if (!CO->getCond()->isValueDependent() &&
        CO->getCond()->EvaluateAsBooleanCondition(Cond, Ctx))
      return expr(Cond ? CO->getTrueExpr() : CO->getFalseExpr());
    return children(E);
  }
  if (isa<CXXThisExpr>(E))
    return Frames.empty() ? FoundList{} : Frames.back().This;
  if (isa<LambdaExpr, StmtExpr, BlockExpr>(E)) {
    Complete = false;
    return {};
  }
  return access(E);
}

/// Members, dereferences and subscripts: an address is what its parts
/// read; a value loaded from memory is unseen.
FoundList Finder::access(const Expr *E) {
  if (const auto *M = dyn_cast<MemberExpr>(E)) {
    // A field through a pointer is memory (an array field is an address).
    if (M->isArrow() &&
        !isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()) &&
        !M->getType()->isArrayType())
      Complete = false;
    return expr(M->getBase());
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    if (U->getOpcode() == UO_Deref &&
        isa<CXXThisExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
      return expr(U->getSubExpr()); // *this: the object, not a load
    if (U->getOpcode() == UO_Deref)
      Complete = false;
    if (U->getOpcode() == UO_AddrOf)
      if (const auto *AS =
              dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens()))
        return children(AS); // &a[i] is an address, not a load
    return children(E);
  }
  if (isa<ArraySubscriptExpr>(E) && !E->getType()->isArrayType())
    Complete = false; // an element: memory
  return children(E);
}

FoundList Finder::builtinVar(const PseudoObjectExpr *E) {
  const auto *Prop =
      dyn_cast<MSPropertyRefExpr>(E->getSyntacticForm()->IgnoreParens());
  const auto *Base =
      Prop ? dyn_cast<DeclRefExpr>(Prop->getBaseExpr()->IgnoreParenImpCasts())
           : nullptr;
  if (!Base || !Base->getDecl()->getIdentifier())
    return expr(E->getResultExpr());
  StringRef Var = Base->getDecl()->getName();
  StringRef Field = Prop->getPropertyDecl()->getName();
  std::string What = (Var + "." + Field).str();
  unsigned Dim = Field.empty() ? 0 : unsigned(Field.back() - 'x') % 3;
  if (Var == "blockIdx")
    return {source(Varying::Source::CtaIndex, Dim, What, E->getExprLoc())};
  if (Var == "threadIdx")
    return {source(Varying::Source::ThreadIndex, Dim, What, E->getExprLoc())};
  return {}; // gridDim, blockDim: the same in every CTA
}

FoundList Finder::knownCall(const CallExpr *C, const FunctionDecl *F,
                            bool &Known) {
  Known = true;
  std::string Name = F->getIdentifier() ? F->getName().str() : "";
  std::string What = F->getQualifiedNameAsString() + "()";
  StringRef N(Name);
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && N.consume_front("__fetch_builtin_") &&
      M->getParent()->getIdentifier()) {
    // blockIdx.x and friends, as clang's CUDA headers spell them.
    StringRef Var = M->getParent()->getName();
    Var.consume_front("__cuda_builtin_");
    Var.consume_back("_t");
    unsigned Dim = N.empty() ? 0 : unsigned(N.back() - 'x') % 3;
    std::string Read = (Var + "." + N).str();
    if (Var == "blockIdx")
      return {source(Varying::Source::CtaIndex, Dim, Read, C->getExprLoc())};
    if (Var == "threadIdx")
      return {source(Varying::Source::ThreadIndex, Dim, Read, C->getExprLoc())};
    return {};
  }
  if (N.starts_with("get_sreg_") || N.starts_with("__nvvm_read_ptx_sreg_")) {
    std::optional<Varying> V;
    if (specialRegister(N.substr(N.find("sreg_") + 5).str(), V)) {
      if (!V)
        return {};
      return {source(V->Src, V->Dim, What, C->getExprLoc())};
    }
  }
  if (N == "__shfl_sync")
    return broadcast(C, What);
  bool Atomic = N.starts_with("atomic") || N.starts_with("__nvvm_atom") ||
                N.starts_with("__atomic_") || N.starts_with("__sync_fetch");
  if (Atomic && (F->getBuiltinID() || isLibrary(F, SM) ||
                 SM.isInSystemHeader(F->getLocation())))
    return {source(Varying::Source::Thread, 0, What, C->getExprLoc())};
  Known = false;
  return {};
}

/// `__shfl_sync(mask, v, lane[, width])` from a constant lane over the
/// whole warp: every thread gets the lane's v, so what differed between
/// threads differs only between warps. Any other lane or width: v's reads.
FoundList Finder::broadcast(const CallExpr *C, const std::string &What) {
  if (C->getNumArgs() < 3)
    return children(C);
  FoundList Out = expr(C->getArg(1));
  Expr::EvalResult Lane, Width;
  const Expr *L = C->getArg(2),
             *W = C->getNumArgs() > 3 ? C->getArg(3) : nullptr;
  bool Whole = !W || isa<CXXDefaultArgExpr>(W) ||
               (!W->isValueDependent() && W->EvaluateAsInt(Width, Ctx) &&
                Width.Val.getInt().getExtValue() >= 32);
  if (!Whole || L->isValueDependent() || !L->EvaluateAsInt(Lane, Ctx))
    return Out;
  for (Found &F : Out)
    if (perThread(F.V)) {
      F.V.Src = Varying::Source::Warp;
      F.V.What += " (one value per warp, broadcast by " + What + ")";
      F.Exact = false;
    }
  return Out;
}

FoundList Finder::call(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F) {
    Complete = false;
    return children(C);
  }
  bool Known;
  FoundList Out = knownCall(C, F, Known);
  if (Known)
    return Out;
  const FunctionDecl *Def = nullptr;
  if (F->hasBody(Def) && Frames.size() < 8 && !Active.count(Def))
    return inlineCall(C, F, Def);
  // Builtins and libdevice (__nv_*) are functions of their arguments, but
  // for loads; other calls are opaque.
  StringRef N = F->getIdentifier() ? F->getName() : "";
  bool Pure =
      (F->getBuiltinID() || N.starts_with("__nv_")) && !N.contains("ld");
  if (!Pure)
    Complete = false;
  return children(C);
}

bool Finder::enter(const CallExpr *C, const FunctionDecl *F,
                   const FunctionDecl *Def) {
  Frame Fr;
  unsigned First = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    Fr.This = expr(MC->getImplicitObjectArgument());
  else if (isa<CXXOperatorCallExpr>(C) && isa<CXXMethodDecl>(F) &&
           C->getNumArgs()) {
    Fr.This = expr(C->getArg(0));
    First = 1;
  }
  for (unsigned I = First;
       I < C->getNumArgs() && I - First < Def->getNumParams(); ++I)
    Fr.Params[Def->getParamDecl(I - First)] = expr(C->getArg(I));
  bool Anchor = AnchorLoc.isInvalid() && isLibrary(Def, SM);
  if (Anchor) {
    AnchorLoc = C->getExprLoc();
    AnchorName = F->getQualifiedNameAsString() + "()";
  }
  Frames.push_back(std::move(Fr));
  Active.insert(Def);
  return Anchor;
}

void Finder::leave(const FunctionDecl *Def, bool Anchor) {
  Active.erase(Def);
  Frames.pop_back();
  if (Anchor)
    AnchorLoc = SourceLocation();
}

FoundList Finder::inlineCall(const CallExpr *C, const FunctionDecl *F,
                             const FunctionDecl *Def) {
  bool Anchor = enter(C, F, Def);
  struct Returns : AstWalk {
    std::vector<const Expr *> Values;
    bool visitReturnStmt(ReturnStmt *R) override {
      Values.push_back(R->getRetValue());
      return true;
    }
    bool enterLambda(LambdaExpr *) override { return false; }
  } Rets;
  Rets.walk(Def->getBody());
  FoundList Out;
  for (const Expr *V : Rets.Values)
    join(Out, expr(V), /*KeepExact=*/Rets.Values.size() == 1);
  leave(Def, Anchor);
  return Out;
}

/// What call C writes to its reference parameter I (`tile_coords(..., mb)`).
FoundList Finder::outArgument(const CallExpr *C, unsigned I) {
  const FunctionDecl *F = C->getDirectCallee(), *Def = nullptr;
  if (!F || !F->hasBody(Def) || Frames.size() >= 8 || Active.count(Def) ||
      I >= Def->getNumParams()) {
    Complete = false;
    return {};
  }
  bool Anchor = enter(C, F, Def);
  bool Single;
  FoundList Out = written(Def->getParamDecl(I), writes(Def), Single);
  leave(Def, Anchor);
  return Out;
}

/// `blockIdx.x / C`, `>> C` stay exact with a larger divisor; `% M` and
/// `& (M - 1)` keep the modulus (how many values the read can take).
FoundList Finder::binary(const BinaryOperator *B) {
  Expr::EvalResult R;
  const Expr *RHS = B->getRHS();
  BinaryOperatorKind Op = B->getOpcode();
  bool Known = Op == BO_Div || Op == BO_Shr || Op == BO_Rem || Op == BO_And;
  if (!Known || RHS->isValueDependent() || !RHS->EvaluateAsInt(R, Ctx))
    return children(B);
  int64_t C = R.Val.getInt().getExtValue();
  FoundList Out = expr(B->getLHS());
  for (Found &F : Out) {
    bool Index = F.V.Src == Varying::Source::CtaIndex ||
                 F.V.Src == Varying::Source::ThreadIndex;
    if (!F.Exact || !Index || C <= 0 || (Op == BO_Shr && C >= 63))
      continue;
    if (Op == BO_Div || Op == BO_Shr) {
      F.V.Divisor *= Op == BO_Div ? uint64_t(C) : uint64_t(1) << C;
      continue;
    }
    bool Mask = Op == BO_And && (uint64_t(C) & uint64_t(C + 1)) == 0;
    if (Op == BO_Rem || Mask)
      F.V.Modulus = Op == BO_Rem ? uint64_t(C) : uint64_t(C) + 1;
    F.Exact = false;
  }
  return Out;
}

FoundList Finder::declRef(const DeclRefExpr *E) {
  const auto *V = dyn_cast<VarDecl>(E->getDecl());
  if (!V)
    return {};
  if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
    for (auto It = Frames.rbegin(); It != Frames.rend(); ++It)
      if (auto Found = It->Params.find(P); Found != It->Params.end())
        return Found->second;
    return {}; // a task parameter: bound to a kernel parameter
  }
  if (V->hasLocalStorage())
    return local(V);
  if (!V->getType().isConstQualified())
    Complete = false; // a global variable: memory
  return V->getInit() ? expr(V->getInit()) : FoundList{};
}

/// The values written to V after its declaration: assignments, asm
/// outputs and calls that take it by reference. Single: none.
FoundList Finder::written(const VarDecl *V, const LocalWrites &W,
                          bool &Single) {
  FoundList Out;
  Single = true;
  if (!Visiting.insert(V).second)
    return Out;
  if (auto It = W.Assigned.find(V); It != W.Assigned.end())
    for (const Expr *RHS : It->second) {
      join(Out, expr(RHS));
      Single = false;
    }
  if (auto It = W.AsmOut.find(V); It != W.AsmOut.end())
    for (const GCCAsmStmt *Asm : It->second)
      join(Out, asmOutput(Asm), /*KeepExact=*/true);
  if (auto It = W.OutArgs.find(V); It != W.OutArgs.end())
    for (auto [Call, I] : It->second) {
      join(Out, outArgument(Call, I));
      Single = false;
    }
  if (W.Escaped.count(V))
    Complete = false;
  Visiting.erase(V);
  return Out;
}

FoundList Finder::local(const VarDecl *V) {
  const auto *F =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!F || Visiting.count(V))
    return {};
  const LocalWrites &W = writes(F);
  FoundList Out;
  if (auto Range = W.RangeOf.find(V); Range != W.RangeOf.end()) {
    join(Out, expr(Range->second)); // start + i * step: not exact
    return Out;
  }
  Visiting.insert(V);
  Out = expr(V->getInit());
  Visiting.erase(V);
  bool Single;
  FoundList After = written(V, W, Single);
  join(Out, After);
  for (Found &Fd : Out)
    Fd.Exact &= Single;
  return Out;
}

/// `asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v))`: v reads that register.
FoundList Finder::asmOutput(const GCCAsmStmt *Asm) {
  std::string Text = Asm->getAsmString()->getString().str();
  size_t At = Text.find("%%");
  std::optional<Varying> Reg;
  if (At == std::string::npos || Text.find("mov") == std::string::npos) {
    Complete = false;
    return {};
  }
  size_t End = Text.find_first_of(";, \t\n", At + 2);
  if (!specialRegister(Text.substr(At + 2, End - At - 2), Reg)) {
    Complete = false;
    return {};
  }
  if (!Reg)
    return {};
  return {source(Reg->Src, Reg->Dim, "%" + Text.substr(At + 2, End - At - 2),
                 Asm->getAsmLoc())};
}

} // namespace

Reads readsOf(ASTContext &Ctx, llvm::ArrayRef<const Expr *> Es) {
  Finder F(Ctx);
  Reads Out;
  for (const Expr *E : Es)
    for (Found &Fd : F.expr(E)) {
      bool Seen = false;
      for (const Varying &V : Out.Varies)
        Seen |= V.Src == Fd.V.Src && V.Dim == Fd.V.Dim &&
                V.Divisor == Fd.V.Divisor && V.Modulus == Fd.V.Modulus &&
                V.Loc == Fd.V.Loc;
      if (!Seen)
        Out.Varies.push_back(std::move(Fd.V));
    }
  Out.Complete = F.Complete;
  return Out;
}

} // namespace ts
