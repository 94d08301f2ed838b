//===- ExtractKernel.cpp - [[ts::kernel]] to Kernel -----------------------===//
#include "frontend/Extractor.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Inject.h"
#include "frontend/Schedule.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ts {

/// The scopes a generated definition must reopen, outermost first; a
/// nested namespace definition (`namespace a::b`) is one scope.
static std::vector<std::string> scopesOf(const FunctionDecl *FD) {
  std::vector<std::string> Scopes;
  std::string Inner; // "::b" of nested namespaces met so far.
  for (const DeclContext *DC = FD->getDeclContext(); !DC->isTranslationUnit();
       DC = DC->getParent()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      std::string Name = NS->isAnonymousNamespace() ? "" : NS->getNameAsString();
      if (NS->isNested()) {
        Inner = "::" + Name + Inner;
        continue;
      }
      Scopes.insert(Scopes.begin(), std::string(NS->isInline() ? "inline " : "") +
                                        "namespace" + (Name.empty() ? "" : " " + Name) +
                                        Inner);
      Inner.clear();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC);
               LS && LS->hasBraces()) { // `extern "C" decl;` opens no scope
      Scopes.insert(Scopes.begin(), LS->getLanguage() == LinkageSpecLanguageIDs::C
                                        ? "extern \"C\""
                                        : "extern \"C++\"");
    }
  }
  return Scopes;
}

/// The declaration's exception specification, repeated on the definition.
static std::string exceptionSpec(ASTContext &Ctx, const FunctionDecl *FD) {
  switch (FD->getExceptionSpecType()) {
  case EST_None:
    return "";
  case EST_BasicNoexcept:
    return " noexcept";
  case EST_NoexceptTrue:
    return " noexcept(true)";
  case EST_NoexceptFalse:
    return " noexcept(false)";
  case EST_DynamicNone:
    return " throw()";
  default:
    return " " + sourceText(Ctx, FD->getExceptionSpecSourceRange());
  }
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
  if (!Generated && !FD->doesThisDeclarationHaveABody() && FD->getDefinition() &&
      !isGeneratedLoc(SM, FD->getDefinition()->getLocation())) {
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
  if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>()) {
    error(LB->getLocation(), "ts::kernel '" + K.Name + "' has its own __launch_bounds__",
          "remove it: libts derives __launch_bounds__(threads, 1) from the tasks' warps "
          "(ts::kernel_traits<" + K.Name + ">::threads)");
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
    if (P->getName().starts_with("ts_")) {
      // The generated body declares ts_warp, ts_smem, ts_pipe_N, ...
      error(P->getLocation(),
            "kernel parameter '" + P->getNameAsString() + "' uses the reserved prefix 'ts_'",
            "rename it; libts names the locals of the generated body ts_*");
      Ok = false;
      continue;
    }
    KS.ParamNames.push_back(P->getNameAsString());
    // The generated definition must not repeat a default argument.
    std::string Text = sourceText(Ctx, P->getSourceRange());
    if (Text.empty()) // Written in a macro: spell the type from the AST.
      Text = TypeName::getFullyQualifiedName(P->getType(), Ctx, Ctx.getPrintingPolicy(),
                                             /*WithGlobalNsPrefix=*/true) +
             " " + P->getNameAsString();
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
  KS.Scopes = scopesOf(FD);
  KS.Address = "&" + K.QualifiedName;
  // An overloaded name needs its type to name the one function.
  unsigned Functions = 0;
  for (const NamedDecl *ND : FD->getDeclContext()->getRedeclContext()->lookup(FD->getDeclName()))
    Functions += isa<FunctionDecl>(ND) || isa<FunctionTemplateDecl>(ND);
  if (Functions > 1)
    KS.Address = "static_cast<" +
                 TypeName::getFullyQualifiedName(Ctx.getPointerType(FD->getType()), Ctx,
                                                 Ctx.getPrintingPolicy(), true) +
                 ">(" + KS.Address + ")";
  KS.Trailing = exceptionSpec(Ctx, FD);

  std::vector<const ParmVarDecl *> KParams(FD->param_begin(), FD->param_end());
  std::map<std::string, SourceLocation> KernelGiven;
  for (const SeenArg &Arg : A.Args) {
    const Expr *E = Arg.E;
    SourceLocation L = Arg.Loc;
    const NamedDecl *Named = Arg.Named;
    if (E)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
        Named = DRE->getDecl();
    if (!E && Arg.NotAValue) {
      error(L, "'" + Arg.Spelling + "' is not a task function",
            "list task functions, ts::edge<Upstream, Downstream>, ts::alias<...>, "
            "ts::grid_dependent<...>, ts::pdl_waited, ts::trip_bound(N), "
            "ts::cluster_shape(x, y, z) or ts::smem_capacity(bytes)");
      continue;
    }
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
            "list task functions, ts::edge<Upstream, Downstream>, ts::alias<...>, "
            "ts::grid_dependent<...>, ts::pdl_waited, ts::trip_bound(N), "
            "ts::cluster_shape(x, y, z) or ts::smem_capacity(bytes)");
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
    } else if (kernelOption(E, L, K)) {
    } else if (tsRecord(Ty, "edge_t")) {
      auto From = resourceOf(tsTemplateArg(Ty, "edge_t", 0), L);
      auto To = resourceOf(tsTemplateArg(Ty, "edge_t", 1), L);
      if (From && To)
        K.DeclaredEdges.push_back({*From, *To, toHandle(L)});
    } else if (tsRecord(Ty, "smem_capacity_t")) {
      if (!firstTime(KernelGiven, "ts::smem_capacity", L))
        continue;
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
            "expected task functions, ts::edge<Upstream, Downstream>, ts::alias<...>, "
            "ts::grid_dependent<...>, ts::pdl_waited, ts::trip_bound(N), "
            "ts::cluster_shape(x, y, z) or ts::smem_capacity(bytes)");
    }
  }
  if (A.Args.empty()) {
    error(A.Range.getBegin(), "ts::kernel '" + K.Name + "' lists no tasks",
          "write [[ts::kernel(task1, task2, ...)]]");
    Ok = false;
  }
  if (!Ok || K.Tasks.empty())
    return;
  // The traits go right after the declaration's ';' on the same line; for
  // a kernel declared by a macro, after the macro use (and its ';').
  SourceLocation End = FD->getEndLoc();
  SourceLocation Semi;
  if (End.isMacroID()) {
    End = SM.getExpansionRange(End).getEnd();
    Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.getLangOpts(), false);
    if (Semi.isInvalid())
      Semi = Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  } else {
    Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.getLangOpts(), false);
  }
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

} // namespace ts
