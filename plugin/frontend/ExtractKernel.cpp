//===- ExtractKernel.cpp - [[ts::kernel]] to Kernel -----------------------===//
#include "frontend/DiagEmitter.h"
#include "frontend/Extractor.h"
#include "frontend/GridConstant.h"
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
      std::string Name =
          NS->isAnonymousNamespace() ? "" : NS->getNameAsString();
      if (NS->isNested()) {
        Inner = "::" + Name + Inner;
        continue;
      }
      Scopes.insert(Scopes.begin(),
                    std::string(NS->isInline() ? "inline " : "") + "namespace" +
                        (Name.empty() ? "" : " " + Name) + Inner);
      Inner.clear();
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(DC);
               LS && LS->hasBraces()) { // `extern "C" decl;` opens no scope
      Scopes.insert(Scopes.begin(),
                    LS->getLanguage() == LinkageSpecLanguageIDs::C
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

/// What [[ts::kernel]] takes, for the notes of its argument errors.
static const char *KernelArgsHint =
    "ts::edge<Upstream, Downstream>, ts::alias<...>, ts::grid_dependent<...>, "
    "ts::pdl_waited, ts::trip_bound(N), ts::cluster_shape(x, y, z), "
    "ts::smem_capacity(bytes), ts::target(arch) or ts::tmem_capacity(columns)";

bool Extractor::kernelDeclarationOk(const FunctionDecl *FD, const Kernel &K) {
  const SourceManager &SM = Ctx.getSourceManager();
  bool Ok = true;
  auto Fail = [&](SourceLocation L, std::string Msg, std::string Note,
                  SourceLocation NoteLoc = SourceLocation()) {
    error(L, std::move(Msg), std::move(Note), NoteLoc);
    Ok = false;
  };
  std::string Name = "ts::kernel '" + K.Name + "'";
  // Clang 19's NVPTX backend aborts on such symbol names.
  if (!FD->getIdentifier() ||
      !llvm::all_of(K.Name, [](unsigned char C) { return C < 0x80; }))
    Fail(FD->getLocation(),
         "ts::kernel name '" + K.Name + "' is not plain ASCII",
         "name the kernel with ASCII letters, digits and '_'");
  if (!FD->hasAttr<CUDAGlobalAttr>())
    Fail(FD->getLocation(), Name + " is not a __global__ function",
         "declare it '__global__ void " + K.Name + "(...);'");
  if (!Generated && !FD->doesThisDeclarationHaveABody() &&
      FD->getDefinition() &&
      !isGeneratedLoc(SM, FD->getDefinition()->getLocation()))
    Fail(FD->getDefinition()->getLocation(),
         Name + " has a hand-written definition",
         "libts generates the body; remove this definition", FD->getLocation());
  if (Generated && !FD->getDefinition())
    Fail(
        FD->getLocation(),
        Name + " has no generated body although __LIBTS_GENERATED__ is defined",
        "__LIBTS_GENERATED__ marks a file libts already rewrote; do not "
        "define it yourself, and compile the original file through the plugin");
  if (FD->doesThisDeclarationHaveABody())
    Fail(FD->getLocation(), Name + " must not have a body",
         "libts generates the body; end the declaration with ';'");
  if (!SM.isInMainFile(FD->getLocation()))
    Fail(FD->getLocation(), Name + " must be declared in the main file",
         "libts appends the generated body to the file being compiled");
  if (isa<CXXMethodDecl>(FD) ||
      FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    Fail(FD->getLocation(), Name + " must be a non-template free function",
         "declare it at namespace scope");
  if (const auto *LB = FD->getAttr<CUDALaunchBoundsAttr>())
    Fail(LB->getLocation(), Name + " has its own __launch_bounds__",
         "remove it: libts derives __launch_bounds__(threads, 1) from the "
         "tasks' warps "
         "(ts::kernel_traits<" +
             K.Name + ">::threads)");
  if (FD->isVariadic())
    Fail(FD->getLocation(), Name + " is variadic",
         "a __global__ function takes a fixed parameter list");
  return Ok;
}

bool Extractor::descriptorParamOk(const ParmVarDecl *P) {
  std::optional<std::string> Map = tensorMapIn(P->getType());
  if (!Map || writtenGridConstant(P, Ctx, PP))
    return true;
  std::string Name = P->getNameAsString();
  error(P->getLocation(),
        "kernel parameter '" + Name + "' holds a TMA descriptor ('" + Name +
            *Map + "') but is not __grid_constant__",
        "declare it 'const __grid_constant__ " +
            P->getType().getUnqualifiedType().getAsString() + " " + Name +
            "': TMA reads the descriptor through its address, which "
            "without __grid_constant__ is a local copy's (the TMA unit "
            "faults)");
  return false;
}

std::optional<std::string> Extractor::kernelParamText(const ParmVarDecl *P) {
  std::string Text = sourceText(Ctx, P->getSourceRange());
  if (Text.empty()) // Written in a macro: spell the type from the AST.
    Text = std::string(writtenGridConstant(P, Ctx, PP) ? "__grid_constant__ "
                                                       : "") +
           TypeName::getFullyQualifiedName(P->getType(), Ctx,
                                           Ctx.getPrintingPolicy(),
                                           /*WithGlobalNsPrefix=*/true) +
           " " + P->getNameAsString();
  // The generated definition must not repeat a default argument.
  if (!P->hasDefaultArg() && !P->hasUninstantiatedDefaultArg())
    return Text;
  SourceRange DR = P->getDefaultArgRange();
  std::string Arg = DR.isValid() ? sourceText(Ctx, DR) : "";
  size_t At = Arg.empty() ? std::string::npos : Text.rfind(Arg);
  if (At == std::string::npos) {
    error(P->getLocation(),
          "cannot separate the default argument of kernel parameter '" +
              P->getNameAsString() + "'",
          "remove the default argument, or write it outside any macro");
    return std::nullopt;
  }
  Text.erase(At);
  while (!Text.empty() && (Text.back() == ' ' || Text.back() == '\t' ||
                           Text.back() == '\n' || Text.back() == '\r'))
    Text.pop_back();
  if (!Text.empty() && Text.back() == '=')
    Text.pop_back();
  while (!Text.empty() && (Text.back() == ' ' || Text.back() == '\t'))
    Text.pop_back();
  return Text;
}

KernelSource Extractor::kernelSource(const FunctionDecl *FD, const Kernel &K,
                                     bool &Ok) {
  KernelSource KS;
  KS.Name = K.Name;
  KS.QualifiedName = K.QualifiedName;
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
            "kernel parameter '" + P->getNameAsString() +
                "' uses the reserved prefix 'ts_'",
            "rename it; libts names the locals of the generated body ts_*");
      Ok = false;
      continue;
    }
    Ok &= descriptorParamOk(P);
    KS.ParamNames.push_back(P->getNameAsString());
    std::optional<std::string> Text = kernelParamText(P);
    Ok &= Text.has_value();
    if (Text)
      KS.ParamsText += (KS.ParamsText.empty() ? "" : ", ") + *Text;
  }
  KS.Scopes = scopesOf(FD);
  KS.Address = "&" + K.QualifiedName;
  // An overloaded name needs its type to name the one function.
  unsigned Functions = 0;
  for (const NamedDecl *ND :
       FD->getDeclContext()->getRedeclContext()->lookup(FD->getDeclName()))
    Functions += isa<FunctionDecl>(ND) || isa<FunctionTemplateDecl>(ND);
  if (Functions > 1)
    KS.Address =
        "static_cast<" +
        TypeName::getFullyQualifiedName(Ctx.getPointerType(FD->getType()), Ctx,
                                        Ctx.getPrintingPolicy(), true) +
        ">(" + KS.Address + ")";
  KS.Trailing = exceptionSpec(Ctx, FD);
  return KS;
}

void Extractor::bindTaskParams(const Task &T, const FunctionDecl *TF,
                               const FunctionDecl *FD, const Kernel &K) {
  // Value parameters bind to kernel parameters by name and type.
  auto Named = [](auto Params, const std::string &Name) -> const ParmVarDecl * {
    const ParmVarDecl *Found = nullptr;
    for (const ParmVarDecl *P : Params)
      if (P->getName() == Name)
        Found = P;
    return Found;
  };
  for (const TaskParam &TP : T.Params) {
    if (TP.K != TaskParam::Kind::Value)
      continue;
    const ParmVarDecl *TPD = Named(TF->getDefinition()->parameters(), TP.Name);
    const ParmVarDecl *KP = Named(FD->parameters(), TP.Name);
    if (!KP) {
      error(fromHandle(TP.Loc),
            "task parameter '" + TP.Name +
                "' matches no parameter of kernel '" + K.Name + "'",
            "task parameters bind to kernel parameters of the same name",
            FD->getLocation());
      continue;
    }
    QualType A1 = TPD->getType()
                      .getNonReferenceType()
                      .getCanonicalType()
                      .getUnqualifiedType();
    QualType B1 = KP->getType()
                      .getNonReferenceType()
                      .getCanonicalType()
                      .getUnqualifiedType();
    if (A1 != B1)
      error(fromHandle(TP.Loc),
            "task parameter '" + TP.Name + "' has type '" +
                TPD->getType().getAsString() + "' but kernel parameter '" +
                TP.Name + "' has type '" + KP->getType().getAsString() + "'",
            "give both the same type (references and const are fine)",
            KP->getLocation());
  }
}

void Extractor::kernelTask(const FunctionDecl *TF, SourceLocation L,
                           const FunctionDecl *FD, Kernel &K) {
  auto It = TaskIndex.find(TF->getCanonicalDecl());
  if (It == TaskIndex.end()) {
    error(L, "'" + TF->getNameAsString() + "' is not a task",
          "mark it [[ts::task(ts::warps(first, count))]]", TF->getLocation());
    return;
  }
  if (std::find(K.Tasks.begin(), K.Tasks.end(), It->second) != K.Tasks.end()) {
    error(L, "task '" + TF->getNameAsString() + "' is listed twice",
          "list each task once");
    return;
  }
  K.Tasks.push_back(It->second);
  bindTaskParams(X.P.Tasks[It->second], TF, FD, K);
}

/// The name of a task the argument refers to, unresolved or not.
static const NamedDecl *argNamed(const SeenArg &Arg) {
  if (Arg.E)
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Arg.E->IgnoreParenImpCasts()))
      return DRE->getDecl();
  return Arg.Named;
}

void Extractor::kernelArg(const SeenArg &Arg, const FunctionDecl *FD, Kernel &K,
                          std::map<std::string, SourceLocation> &Given) {
  const Expr *E = Arg.E;
  SourceLocation L = Arg.Loc;
  const NamedDecl *Named = argNamed(Arg);
  std::string NotATask = "'" + Arg.Spelling + "' is not a task function";
  if (!E && Arg.NotAValue)
    return error(L, NotATask,
                 std::string("list task functions, ") + KernelArgsHint);
  if (!E && !Named) {
    if (Arg.Overloaded)
      return error(L, "task name '" + Arg.Spelling + "' is ambiguous",
                   "tasks must not be overloaded; rename one of the functions");
    return error(L, "unknown name '" + Arg.Spelling + "' in [[ts::kernel]]",
                 "declare the task function before the kernel");
  }
  QualType Ty = E ? E->getType() : QualType();
  if (const auto *TF = dyn_cast_or_null<FunctionDecl>(Named))
    return kernelTask(TF, L, FD, K);
  if (!E)
    return error(L, NotATask,
                 std::string("list task functions, ") + KernelArgsHint);
  if (const auto *ULE =
          dyn_cast<UnresolvedLookupExpr>(E->IgnoreParenImpCasts())) {
    const FunctionTemplateDecl *Template = nullptr;
    for (const NamedDecl *D : ULE->decls())
      if (const auto *FT =
              dyn_cast<FunctionTemplateDecl>(D->getUnderlyingDecl()))
        Template = FT;
    if (Template)
      return error(L,
                   "'" + ULE->getName().getAsString() +
                       "' names a function template, not a task",
                   "tasks must be plain, non-template __device__ functions; " +
                       templateTaskNote(Template->getTemplatedDecl()));
    return error(L, "task name is ambiguous", "tasks must not be overloaded");
  }
  if (kernelOption(E, L, K))
    return;
  if (tsRecord(Ty, "edge_t")) {
    auto From = resourceOf(tsTemplateArg(Ty, "edge_t", 0), L);
    auto To = resourceOf(tsTemplateArg(Ty, "edge_t", 1), L);
    if (From && To)
      K.DeclaredEdges.push_back({*From, *To, toHandle(L)});
  } else if (!intOption(kernelIntOptions(), E, L, K, Given)) {
    error(L, "unexpected argument to [[ts::kernel]]",
          std::string("expected task functions, ") + KernelArgsHint);
  }
}

SourceLocation Extractor::kernelSemi(const FunctionDecl *FD, const Kernel &K) {
  // The traits go right after the declaration's ';' on the same line; for
  // a kernel declared by a macro, after the macro use (and its ';').
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation End = FD->getEndLoc();
  SourceLocation Semi;
  if (End.isMacroID()) {
    End = SM.getExpansionRange(End).getEnd();
    Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.getLangOpts(),
                                         false);
    if (Semi.isInvalid())
      Semi = Lexer::getLocForEndOfToken(End, 0, SM, Ctx.getLangOpts());
  } else {
    Semi = Lexer::findLocationAfterToken(End, tok::semi, SM, Ctx.getLangOpts(),
                                         false);
  }
  if (Semi.isValid() && Semi.isFileID())
    return Semi;
  std::optional<Token> Next =
      Lexer::findNextToken(FD->getEndLoc(), SM, Ctx.getLangOpts());
  if (Next && Next->is(tok::comma))
    error(Next->getLocation(),
          "ts::kernel '" + K.Name +
              "' shares its declaration with another declarator",
          "declare the kernel on its own: '__global__ void " + K.Name +
              "(...);'");
  else
    error(FD->getEndLoc(), "cannot find the ';' ending kernel '" + K.Name + "'",
          "end the declaration with ';' outside any macro");
  return SourceLocation();
}

void Extractor::kernel(const SeenAttr &A) {
  const auto *FD = cast<FunctionDecl>(A.D);
  Kernel K;
  K.Name = FD->getNameAsString();
  K.QualifiedName = qualified(FD);
  K.Loc = toHandle(FD->getLocation());
  bool Ok = kernelDeclarationOk(FD, K);
  KernelSource KS = kernelSource(FD, K, Ok);
  std::map<std::string, SourceLocation> Given;
  for (const SeenArg &Arg : A.Args)
    kernelArg(Arg, FD, K, Given);
  if (A.Args.empty()) {
    error(A.Range.getBegin(), "ts::kernel '" + K.Name + "' lists no tasks",
          "write [[ts::kernel(task1, task2, ...)]]");
    Ok = false;
  }
  if (!Ok || K.Tasks.empty())
    return;
  SourceLocation Semi = kernelSemi(FD, K);
  if (Semi.isInvalid())
    return;
  X.KernelSemi.push_back(Semi);
  X.P.Kernels.push_back(std::move(K));
  X.KernelSrc.push_back(std::move(KS));
}

} // namespace ts
