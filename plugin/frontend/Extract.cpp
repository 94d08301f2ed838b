//===- Extract.cpp - AST to model ------------------------------------------===//
//
// Reads the recorded [[ts::...]] attributes: resources first (tasks refer to
// them), then tasks, then kernels. Every malformed input becomes a ts-syntax
// diagnostic at the offending expression with a note saying how to fix it.
//
//===----------------------------------------------------------------------===//
#include "frontend/Extract.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Schedule.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <set>

using namespace clang;

namespace ts {
namespace {

class Extractor {
public:
  Extractor(ASTContext &Ctx, bool Generated) : Ctx(Ctx), Generated(Generated) {}
  Extraction run(const std::vector<SeenAttr> &Attrs);

private:
  void resource(const SeenAttr &A);
  void task(const SeenAttr &A);
  void kernel(const SeenAttr &A);
  std::optional<APValue> evaluate(const Expr *E, const char *What);
  std::vector<const Expr *> exprArgs(const SeenAttr &A, const char *What);
  std::optional<unsigned> resourceOf(QualType T, SourceLocation Loc);
  void error(SourceLocation L, std::string Msg, std::string Note,
             SourceLocation NoteLoc = SourceLocation());
  std::string qualified(const NamedDecl *D) const;
  static int64_t field(const APValue &V, unsigned I) {
    return V.getStructField(I).getInt().getExtValue();
  }

  ASTContext &Ctx;
  bool Generated;
  Extraction X;
  std::map<const Decl *, unsigned> ResourceIndex;
  /// Structs carrying [[ts::resource]], valid or not: a rejected one was
  /// reported at its attribute, not again at every use.
  std::set<const Decl *> Attributed;
  std::map<const Decl *, unsigned> TaskIndex;
};

/// "::a::name", leaving out anonymous namespaces (which cannot be spelled;
/// lookup finds their members from the enclosing scope).
std::string Extractor::qualified(const NamedDecl *D) const {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressUnwrittenScope = true;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  D->printQualifiedName(OS, Policy);
  return "::" + OS.str();
}

void Extractor::error(SourceLocation L, std::string Msg, std::string Note,
                      SourceLocation NoteLoc) {
  Diag D{Check::Syntax, toHandle(L), std::move(Msg), {}};
  if (!Note.empty())
    D.Notes.push_back({toHandle(NoteLoc.isValid() ? NoteLoc : L), std::move(Note)});
  X.Diags.push_back(std::move(D));
}

std::vector<const Expr *> Extractor::exprArgs(const SeenAttr &A, const char *What) {
  std::vector<const Expr *> Out;
  for (const SeenArg &Arg : A.Args) {
    if (Arg.E)
      Out.push_back(Arg.E);
    else
      error(Arg.Loc, "unexpected name '" + Arg.Spelling + "' in [[" + What + "]]",
            std::string("[[") + What + "]] takes ts:: values such as ts::stages(4)");
  }
  return Out;
}

std::optional<APValue> Extractor::evaluate(const Expr *E, const char *What) {
  Expr::EvalResult R;
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects) {
    error(E->getExprLoc(),
          std::string("argument of ") + What + " is not a constant expression",
          "write the value as a literal or a constexpr expression");
    return std::nullopt;
  }
  return R.Val;
}

std::optional<unsigned> Extractor::resourceOf(QualType T, SourceLocation Loc) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (RD) {
    if (auto It = ResourceIndex.find(RD->getCanonicalDecl());
        It != ResourceIndex.end())
      return It->second;
    const CXXRecordDecl *Pattern = RD;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (const ClassTemplateDecl *TD = Spec->getSpecializedTemplate())
        Pattern = TD->getTemplatedDecl();
    if (Attributed.count(RD->getCanonicalDecl()) ||
        Attributed.count(Pattern->getCanonicalDecl()))
      return std::nullopt;
  }
  error(Loc,
        "'" + (T.isNull() ? std::string("?") : T.getAsString(Ctx.getPrintingPolicy())) +
            "' is not a libts resource",
        "declare it as 'struct [[ts::resource(ts::tma_async, ts::stages(N))]] "
        "Name { ... };' (or ts::gmem, ts::async_async)");
  return std::nullopt;
}

void Extractor::resource(const SeenAttr &A) {
  const auto *RD = cast<CXXRecordDecl>(A.D);
  Attributed.insert(RD->getCanonicalDecl());
  if (!RD->isThisDeclarationADefinition()) {
    error(A.Range.getBegin(), "[[ts::resource]] must be on the struct's definition",
          "move the attribute to the definition of '" + RD->getNameAsString() + "'");
    return;
  }
  Resource R;
  R.Name = RD->getNameAsString();
  R.TypeName = qualified(RD);
  if (isa<ClassTemplateSpecializationDecl>(RD)) { // spell the template arguments
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressUnwrittenScope = true;
    R.TypeName = TypeName::getFullyQualifiedName(Ctx.getRecordType(RD), Ctx, Policy,
                                                 /*WithGlobalNsPrefix=*/true);
  }
  R.Loc = toHandle(RD->getLocation());
  bool HaveKind = false, HaveTx = false;
  for (const Expr *E : exprArgs(A, "ts::resource")) {
    QualType T = E->getType().getCanonicalType().getUnqualifiedType();
    SourceLocation L = E->getExprLoc();
    const auto *ET = T->getAs<EnumType>();
    if (ET && isTsDecl(ET->getDecl(), "pipeline_kind")) {
      auto V = evaluate(E, "ts::resource");
      if (!V)
        continue;
      if (HaveKind)
        error(L, "resource kind given twice", "keep one of ts::gmem, ts::async_async, ts::tma_async");
      HaveKind = true;
      int64_t K = V->getInt().getExtValue();
      R.Kind = K == 2 ? PipelineKind::TmaAsync
               : K == 1 ? PipelineKind::AsyncAsync
                        : PipelineKind::Gmem;
    } else if (tsRecord(T, "stages_t")) {
      if (auto V = evaluate(E, "ts::stages")) {
        int64_t N = field(*V, 0);
        if (N < 1 || N > 64)
          error(L, "ts::stages(" + std::to_string(N) + ") is out of range",
                "a pipeline has between 1 and 64 stages");
        else
          R.Stages = unsigned(N);
      }
    } else if (tsRecord(T, "tx_bytes_t")) {
      if (auto V = evaluate(E, "ts::tx_bytes")) {
        HaveTx = true;
        R.TxBytes = uint64_t(std::max<int64_t>(0, field(*V, 0)));
        if (field(*V, 0) <= 0)
          error(L, "ts::tx_bytes must be positive", "give the bytes one stage's TMA copies deliver");
      }
    } else if (tsRecord(T, "align_t")) {
      if (auto V = evaluate(E, "ts::align")) {
        int64_t N = field(*V, 0);
        if (N < 16 || (N & (N - 1)))
          error(L, "ts::align(" + std::to_string(N) + ") is not a power of two of at least 16",
                "use 16, 32, 64, 128, 256, 512 or 1024");
        else
          R.Align = unsigned(N);
      }
    } else if (tsRecord(T, "swizzled_t")) {
      R.Swizzled = true;
    } else {
      error(L, "unexpected argument to [[ts::resource]]",
            "expected ts::gmem, ts::async_async or ts::tma_async, ts::stages(N), "
            "ts::tx_bytes(B), ts::align(B) or ts::swizzled");
    }
  }
  if (!HaveKind)
    error(A.Range.getBegin(), "[[ts::resource]] needs a kind",
          "add ts::gmem, ts::async_async or ts::tma_async");
  if (RD->isInvalidDecl())
    return;
  if (RD->isDependentContext()) {
    error(RD->getLocation(),
          "[[ts::resource]] struct '" + R.Name + "' is a template or inside one",
          "declare a non-template struct for each payload type (an alias of a "
          "template specialization is not a resource)");
    return;
  }
  // Stages are raw shared memory, never constructed: the payload must be
  // plain data with a size that covers all of it.
  if (RD->isPolymorphic() || RD->getNumVBases()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name + "' has virtual functions or virtual bases",
          "a stage is raw shared memory that is never constructed; keep the "
          "payload plain data without virtual members");
    return;
  }
  for (const FieldDecl *F : RD->fields()) {
    if (F->getType()->isReferenceType()) {
      error(F->getLocation(),
            "payload of resource '" + R.Name + "' has a reference member",
            "a stage is raw shared memory that is never constructed; hold a "
            "pointer or the data itself");
      return;
    }
    if (F->hasInClassInitializer()) {
      error(F->getLocation(),
            "member '" + F->getNameAsString() + "' of resource '" + R.Name +
                "' has a default value that is never applied",
            "a stage is raw shared memory that is never constructed; remove "
            "the initializer and write the value in the producer's work");
      return;
    }
  }
  if (!RD->hasTrivialDefaultConstructor() || !RD->hasTrivialDestructor()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name +
              "' has a constructor or destructor that never runs",
          "a stage is raw shared memory that is never constructed or "
          "destroyed; keep the payload trivially constructible plain data");
    return;
  }
  if (RD->hasFlexibleArrayMember()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name + "' ends in a flexible array member",
          "give the array its size: one stage holds exactly sizeof(payload) bytes");
    return;
  }
  R.PayloadBytes = uint64_t(Ctx.getTypeSizeInChars(Ctx.getRecordType(RD)).getQuantity());
  if (RD->isEmpty())
    R.PayloadBytes = 0;
  if (isPipelined(R.Kind) && R.PayloadBytes == 0)
    error(RD->getLocation(), "pipelined resource '" + R.Name + "' has no payload",
          "give the struct the members one stage holds");
  if (R.Kind == PipelineKind::TmaAsync) {
    if (!HaveTx)
      R.TxBytes = R.PayloadBytes;
    else if (R.TxBytes > R.PayloadBytes)
      error(A.Range.getBegin(),
            "ts::tx_bytes(" + std::to_string(R.TxBytes) + ") exceeds the payload of " +
                std::to_string(R.PayloadBytes) + " bytes",
            "TMA cannot deliver more bytes than a stage holds");
  } else if (HaveTx) {
    error(A.Range.getBegin(), "ts::tx_bytes applies only to ts::tma_async resources",
          "remove it, or make the resource ts::tma_async");
  }
  if (HaveKind && !isPipelined(R.Kind) && R.Stages != 1)
    error(A.Range.getBegin(), "a ts::gmem resource has no stages",
          "remove ts::stages, or make the resource a pipeline");
  if (R.Swizzled)
    R.Align = std::max(R.Align, 1024u);
  ResourceIndex[RD->getCanonicalDecl()] = unsigned(X.P.Resources.size());
  X.P.Resources.push_back(std::move(R));
}

void Extractor::task(const SeenAttr &A) {
  const auto *FD = cast<FunctionDecl>(A.D);
  const FunctionDecl *Def = FD->getDefinition();
  Task T;
  T.Name = FD->getNameAsString();
  T.Loc = toHandle(FD->getLocation());
  bool HaveWarps = false;
  for (const Expr *E : exprArgs(A, "ts::task")) {
    QualType Ty = E->getType();
    SourceLocation L = E->getExprLoc();
    if (tsRecord(Ty, "warps_t")) {
      HaveWarps = true; // reported below if malformed, never as missing
      if (auto V = evaluate(E, "ts::warps")) {
        int64_t First = field(*V, 0), Count = field(*V, 1);
        if (First < 0 || Count < 1 || First + Count > 32)
          error(L, "ts::warps(" + std::to_string(First) + ", " + std::to_string(Count) +
                       ") is not a warp range inside a block",
                "a block has at most 32 warps: ts::warps(first, count) needs "
                "first >= 0, count >= 1, first + count <= 32");
        else {
          T.FirstWarp = unsigned(First);
          T.NumWarps = unsigned(Count);
        }
      }
    } else if (tsRecord(Ty, "regs_t")) {
      if (auto V = evaluate(E, "ts::regs")) {
        if (field(*V, 0) < 0)
          error(L, "ts::regs(" + std::to_string(field(*V, 0)) + ") is negative",
                "setmaxnreg takes a multiple of 8 between 24 and 256");
        else
          T.Regs = unsigned(field(*V, 0));
      }
    } else if (tsRecord(Ty, "cta_t")) {
      if (auto V = evaluate(E, "ts::cta")) {
        if (field(*V, 0) < 0)
          error(L, "ts::cta rank must not be negative", "give a CTA rank within the cluster");
        else
          T.Cta = unsigned(field(*V, 0));
      }
    } else {
      error(L, "unexpected argument to [[ts::task]]",
            "expected ts::warps(first, count), ts::regs(N) or ts::cta(rank)");
    }
  }
  if (!HaveWarps)
    error(A.Range.getBegin(), "[[ts::task]] needs a warp range",
          "add ts::warps(first, count)");
  if (!Def) {
    error(FD->getLocation(), "task '" + T.Name + "' has no definition in this file",
          "define the task function in the translation unit that declares its kernel");
    return;
  }
  if (isa<CXXMethodDecl>(FD) || FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate) {
    error(FD->getLocation(), "task '" + T.Name + "' must be a non-template free function",
          "make it a plain __device__ function");
    return;
  }
  if (FD->isVariadic()) {
    error(FD->getLocation(), "task '" + T.Name + "' is variadic",
          "list the parameters the task takes; they bind to kernel parameters by name");
    return;
  }
  if (!Def->hasAttr<CUDADeviceAttr>())
    error(FD->getLocation(), "task '" + T.Name + "' is not a __device__ function",
          "declare it '__device__ void " + T.Name + "(...)'");

  std::map<const ParmVarDecl *, HandleParam> Handles;
  for (const ParmVarDecl *P : Def->parameters()) {
    TaskParam TP;
    TP.Name = P->getNameAsString();
    TP.Loc = toHandle(P->getLocation());
    QualType PT = P->getType();
    bool IsProd = tsRecord(PT, "producer"), IsCons = tsRecord(PT, "consumer");
    if (IsProd || IsCons) {
      Role R = IsProd ? Role::Producer : Role::Consumer;
      if (PT->isReferenceType()) {
        error(P->getLocation(), "take pipeline handles by value",
              "write 'ts::" + std::string(IsProd ? "producer" : "consumer") +
                  "<R> " + TP.Name + "'");
        continue;
      }
      auto Res = resourceOf(tsTemplateArg(PT, IsProd ? "producer" : "consumer"),
                            P->getLocation());
      if (!Res)
        continue;
      TP.K = TaskParam::Kind::Handle;
      TP.R = R;
      TP.Resource = *Res;
      std::vector<unsigned> &Side = IsProd ? T.Produces : T.Consumes;
      if (std::find(Side.begin(), Side.end(), *Res) != Side.end()) {
        error(P->getLocation(), "task '" + T.Name + "' has two " +
                                    (IsProd ? "producer" : "consumer") +
                                    " handles for '" + X.P.Resources[*Res].Name + "'",
              "one handle per resource and role");
        continue;
      }
      Side.push_back(*Res);
      Handles[P] = {R, *Res};
    } else if (TP.Name.empty()) {
      error(P->getLocation(), "task parameter needs a name",
            "non-handle parameters bind to the kernel parameter of the same name");
      continue;
    }
    T.Params.push_back(std::move(TP));
  }
  extractSchedule(Ctx, Def, Handles, T, X.Diags);

  TaskIndex[FD->getCanonicalDecl()] = unsigned(X.P.Tasks.size());
  X.TaskSrc.push_back({qualified(FD)});
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Inline = Def->getTypeSpecStartLoc();
  X.TaskInline.push_back(Inline.isValid() && Inline.isFileID() &&
                                 SM.isInMainFile(Inline) &&
                                 !Def->hasAttr<AlwaysInlineAttr>()
                             ? Inline
                             : SourceLocation());
  X.P.Tasks.push_back(std::move(T));
}

void Extractor::kernel(const SeenAttr &A) {
  const auto *FD = cast<FunctionDecl>(A.D);
  Kernel K;
  K.Name = FD->getNameAsString();
  K.QualifiedName = qualified(FD);
  K.Loc = toHandle(FD->getLocation());
  const SourceManager &SM = Ctx.getSourceManager();
  bool Ok = true;
  if (!FD->getIdentifier() || !llvm::all_of(K.Name, [](unsigned char C) {
        return C < 0x80;
      })) {
    // Clang 19's NVPTX backend aborts on such symbol names.
    error(FD->getLocation(), "ts::kernel name '" + K.Name + "' is not plain ASCII",
          "name the kernel with ASCII letters, digits and '_'");
    Ok = false;
  }
  if (!FD->hasAttr<CUDAGlobalAttr>()) {
    error(FD->getLocation(), "ts::kernel '" + K.Name + "' is not a __global__ function",
          "declare it '__global__ void " + K.Name + "(...);'");
    Ok = false;
  }
  if (!Generated && !FD->doesThisDeclarationHaveABody() && FD->getDefinition()) {
    error(FD->getDefinition()->getLocation(),
          "ts::kernel '" + K.Name + "' has a hand-written definition",
          "libts generates the body; remove this definition",
          FD->getLocation());
    Ok = false;
  }
  if (Generated && !FD->getDefinition()) {
    error(FD->getLocation(),
          "ts::kernel '" + K.Name + "' has no generated body although "
          "__LIBTS_GENERATED__ is defined",
          "__LIBTS_GENERATED__ marks a file libts already rewrote; do not "
          "define it yourself, and compile the original file through the plugin");
    Ok = false;
  }
  if (FD->doesThisDeclarationHaveABody()) {
    error(FD->getLocation(), "ts::kernel '" + K.Name + "' must not have a body",
          "libts generates the body; end the declaration with ';'");
    Ok = false;
  }
  if (!SM.isInMainFile(FD->getLocation())) {
    error(FD->getLocation(), "ts::kernel '" + K.Name + "' must be declared in the main file",
          "libts appends the generated body to the file being compiled");
    Ok = false;
  }
  if (isa<CXXMethodDecl>(FD) || FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate) {
    error(FD->getLocation(), "ts::kernel '" + K.Name + "' must be a non-template free function",
          "declare it at namespace scope");
    Ok = false;
  }
  if (FD->isVariadic()) {
    error(FD->getLocation(), "ts::kernel '" + K.Name + "' is variadic",
          "a __global__ function takes a fixed parameter list");
    Ok = false;
  }
  KernelSource KS;
  KS.Name = K.Name;
  KS.QualifiedName = K.QualifiedName;
  std::vector<std::string> Params;
  for (const ParmVarDecl *P : FD->parameters()) {
    if (P->getName().empty()) {
      error(P->getLocation(), "kernel parameter needs a name",
            "tasks bind their parameters to kernel parameters by name");
      Ok = false;
      continue;
    }
    KS.ParamNames.push_back(P->getNameAsString());
    // The generated definition must not repeat a default argument.
    std::string Text = sourceText(Ctx, P->getSourceRange());
    if (P->hasDefaultArg() || P->hasUninstantiatedDefaultArg()) {
      SourceRange DR = P->getDefaultArgRange();
      std::string Arg = DR.isValid() ? sourceText(Ctx, DR) : "";
      size_t At = Arg.empty() ? std::string::npos : Text.rfind(Arg);
      if (At != std::string::npos) {
        Text.erase(At);
        while (!Text.empty() && (Text.back() == ' ' || Text.back() == '\t' ||
                                 Text.back() == '\n' || Text.back() == '\r'))
          Text.pop_back();
        if (!Text.empty() && Text.back() == '=')
          Text.pop_back();
        while (!Text.empty() && (Text.back() == ' ' || Text.back() == '\t'))
          Text.pop_back();
      } else {
        error(P->getLocation(),
              "cannot separate the default argument of kernel parameter '" +
                  P->getNameAsString() + "'",
              "remove the default argument, or write it outside any macro");
        Ok = false;
      }
    }
    Params.push_back(Text);
  }
  for (size_t I = 0; I < Params.size(); ++I)
    KS.ParamsText += (I ? ", " : "") + Params[I];
  for (const DeclContext *DC = FD->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      KS.Scopes.insert(KS.Scopes.begin(),
                       std::string(NS->isInline() ? "inline " : "") + "namespace" +
                           (NS->isAnonymousNamespace() ? "" : " " + NS->getNameAsString()));
    else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC);
             LS && LS->hasBraces()) // `extern "C" decl;` opens no scope
      KS.Scopes.insert(KS.Scopes.begin(),
                       LS->getLanguage() == LinkageSpecLanguageIDs::C ? "extern \"C\""
                                                                      : "extern \"C++\"");
  }

  std::vector<const ParmVarDecl *> KParams(FD->param_begin(), FD->param_end());
  for (const SeenArg &Arg : A.Args) {
    const Expr *E = Arg.E;
    SourceLocation L = Arg.Loc;
    const NamedDecl *Named = Arg.Named;
    if (E)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        Named = DRE->getDecl();
    if (!E && !Named) {
      if (Arg.Overloaded)
        error(L, "task name '" + Arg.Spelling + "' is ambiguous",
              "tasks must not be overloaded; rename one of the functions");
      else
        error(L, "unknown name '" + Arg.Spelling + "' in [[ts::kernel]]",
              "declare the task function before the kernel");
      continue;
    }
    QualType Ty = E ? E->getType() : QualType();
    if (const auto *TF = dyn_cast_or_null<FunctionDecl>(Named)) {
      auto It = TaskIndex.find(TF->getCanonicalDecl());
      if (It == TaskIndex.end()) {
        error(L, "'" + TF->getNameAsString() + "' is not a task",
              "mark it [[ts::task(ts::warps(first, count))]]", TF->getLocation());
        continue;
      }
      if (std::find(K.Tasks.begin(), K.Tasks.end(), It->second) != K.Tasks.end()) {
        error(L, "task '" + TF->getNameAsString() + "' is listed twice", "list each task once");
        continue;
      }
      K.Tasks.push_back(It->second);
      // Value parameters bind to kernel parameters by name and type.
      const Task &T = X.P.Tasks[It->second];
      const FunctionDecl *Def = TF->getDefinition();
      for (const TaskParam &TP : T.Params) {
        if (TP.K != TaskParam::Kind::Value)
          continue;
        const ParmVarDecl *TPD = nullptr;
        for (const ParmVarDecl *P : Def->parameters())
          if (P->getName() == TP.Name)
            TPD = P;
        const ParmVarDecl *KP = nullptr;
        for (const ParmVarDecl *P : KParams)
          if (P->getName() == TP.Name)
            KP = P;
        if (!KP) {
          error(fromHandle(TP.Loc),
                "task parameter '" + TP.Name + "' matches no parameter of kernel '" +
                    K.Name + "'",
                "task parameters bind to kernel parameters of the same name",
                FD->getLocation());
          continue;
        }
        QualType A1 = TPD->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
        QualType B1 = KP->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
        if (A1 != B1)
          error(fromHandle(TP.Loc),
                "task parameter '" + TP.Name + "' has type '" + TPD->getType().getAsString() +
                    "' but kernel parameter '" + TP.Name + "' has type '" +
                    KP->getType().getAsString() + "'",
                "give both the same type (references and const are fine)",
                KP->getLocation());
      }
    } else if (!E) {
      error(L, "'" + Arg.Spelling + "' is not a task function",
            "list task functions, ts::edge<Upstream, Downstream> or ts::smem_capacity(bytes)");
    } else if (const auto *ULE =
                   dyn_cast<UnresolvedLookupExpr>(E->IgnoreParenImpCasts())) {
      bool Template = std::any_of(ULE->decls_begin(), ULE->decls_end(), [](NamedDecl *D) {
        return isa<FunctionTemplateDecl>(D->getUnderlyingDecl());
      });
      if (Template)
        error(L, "'" + ULE->getName().getAsString() + "' names a function template, not a task",
              "tasks must be plain, non-template __device__ functions");
      else
        error(L, "task name is ambiguous", "tasks must not be overloaded");
    } else if (tsRecord(Ty, "edge_t")) {
      auto From = resourceOf(tsTemplateArg(Ty, "edge_t", 0), L);
      auto To = resourceOf(tsTemplateArg(Ty, "edge_t", 1), L);
      if (From && To)
        K.DeclaredEdges.push_back({*From, *To, toHandle(L)});
    } else if (tsRecord(Ty, "smem_capacity_t")) {
      if (auto V = evaluate(E, "ts::smem_capacity")) {
        if (field(*V, 0) <= 0)
          error(L, "ts::smem_capacity must be positive", "give the target's bytes per block");
        else if (field(*V, 0) > int64_t(UINT32_MAX))
          error(L, "ts::smem_capacity(" + std::to_string(field(*V, 0)) +
                       ") exceeds the 32-bit shared-memory window",
                "give the target's bytes per block (232448 on sm_90)");
        else
          K.SmemCapacity = uint64_t(field(*V, 0));
      }
    } else {
      error(L, "unexpected argument to [[ts::kernel]]",
            "expected task functions, ts::edge<Upstream, Downstream> or "
            "ts::smem_capacity(bytes)");
    }
  }
  if (A.Args.empty()) {
    error(A.Range.getBegin(), "ts::kernel '" + K.Name + "' lists no tasks",
          "write [[ts::kernel(task1, task2, ...)]]");
    Ok = false;
  }
  if (!Ok || K.Tasks.empty())
    return;
  // The traits go right after the declaration's ';' on the same line.
  SourceLocation Semi = Lexer::findLocationAfterToken(
      FD->getEndLoc(), tok::semi, SM, Ctx.getLangOpts(), false);
  if (Semi.isInvalid() || !Semi.isFileID()) {
    std::optional<Token> Next =
        Lexer::findNextToken(FD->getEndLoc(), SM, Ctx.getLangOpts());
    if (Next && Next->is(tok::comma))
      error(Next->getLocation(),
            "ts::kernel '" + K.Name + "' shares its declaration with another declarator",
            "declare the kernel on its own: '__global__ void " + K.Name + "(...);'");
    else
      error(FD->getEndLoc(), "cannot find the ';' ending kernel '" + K.Name + "'",
            "end the declaration with ';' outside any macro");
    return;
  }
  X.KernelSemi.push_back(Semi);
  X.P.Kernels.push_back(std::move(K));
  X.KernelSrc.push_back(std::move(KS));
}

Extraction Extractor::run(const std::vector<SeenAttr> &Attrs) {
  // One attribute of each kind per entity, over all its redeclarations.
  std::map<std::pair<AttrKind, const Decl *>, const SeenAttr *> First;
  std::set<const SeenAttr *> Repeated;
  for (const SeenAttr &A : Attrs) {
    auto [It, New] = First.insert({{A.Kind, A.D->getCanonicalDecl()}, &A});
    if (New)
      continue;
    Repeated.insert(&A);
    const char *Name = A.Kind == AttrKind::Resource ? "ts::resource"
                       : A.Kind == AttrKind::Task   ? "ts::task"
                                                    : "ts::kernel";
    std::string Entity = isa<NamedDecl>(A.D) ? cast<NamedDecl>(A.D)->getNameAsString() : "";
    error(A.Range.getBegin(),
          std::string("[[") + Name + "]] is given twice for '" + Entity + "'",
          std::string("keep only the first [[") + Name + "]]",
          It->second->Range.getBegin());
  }
  for (AttrKind Pass : {AttrKind::Resource, AttrKind::Task, AttrKind::Kernel})
    for (const SeenAttr &A : Attrs)
      if (A.Kind == Pass && !A.D->isInvalidDecl() && !Repeated.count(&A)) {
        if (Pass == AttrKind::Resource)
          resource(A);
        else if (Pass == AttrKind::Task)
          task(A);
        else
          kernel(A);
      }
  return std::move(X);
}

} // namespace

Extraction extract(ASTContext &Ctx, const std::vector<SeenAttr> &Attrs,
                   bool GeneratedMode) {
  return Extractor(Ctx, GeneratedMode).run(Attrs);
}

} // namespace ts
