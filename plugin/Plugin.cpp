//===- Plugin.cpp - libts clang plugin entry -------------------------------===//
//
// `clang++ -fplugin=libts.so` registers the [[ts::...]] attributes and runs
// before the main action. When code is generated, each kernel's definition
// is parsed right after its declaration in the same parse (Inject.h);
// -fsyntax-only (and clangd) only analyse. -emit writes the same result as
// a rewritten source for nvcc.
//
//===----------------------------------------------------------------------===//
#include "frontend/Analysis.h"
#include "frontend/AttrTable.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Inject.h"
#include "report/Html.h"
#include "report/Json.h"
#include "report/Report.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace ts {
namespace {

struct Options {
  std::string Emit;   ///< Write the rewritten translation unit here.
  std::string Report; ///< "-" for stdout, else a file.
  std::string Dot;    ///< Dependency graph in DOT.
  std::string Json;   ///< Machine-readable report.
  std::string Html;   ///< The report drawn, one page per translation unit.
  bool NoRewrite = false;
  uint64_t TripBound = 64; ///< Trip counts checked where the argument ends.
  std::vector<std::string> WFlags;
};


/// A file libts emitted defines __LIBTS_GENERATED__ itself; a compile that
/// generates defines it in the predefines.
bool emittedFile(Preprocessor &PP) {
  const MacroInfo *MI = PP.getMacroInfo(PP.getIdentifierInfo("__LIBTS_GENERATED__"));
  return MI && !PP.getSourceManager().isWrittenInBuiltinFile(MI->getDefinitionLoc());
}

bool isCodeGenAction(frontend::ActionKind K) {
  switch (K) {
  case frontend::EmitAssembly:
  case frontend::EmitBC:
  case frontend::EmitLLVM:
  case frontend::EmitLLVMOnly:
  case frontend::EmitCodeGenOnly:
  case frontend::EmitObj:
    return true;
  default:
    return false;
  }
}

/// The host job of a CUDA compile that embeds a device binary runs after
/// the device job, which already reported: it stays quiet unless it fails.
bool isSecondJob(const CompilerInstance &CI) {
  const LangOptions &LO = CI.getLangOpts();
  return LO.CUDA && !LO.CUDAIsDevice &&
         !CI.getCodeGenOpts().CudaGpuBinaryFileName.empty();
}

SeverityPolicy policyFor(const CompilerInstance &CI, const Options &O) {
  SeverityPolicy P;
  P.apply(CI.getDiagnosticOpts().Warnings);
  P.apply(O.WFlags);
  P.setIgnoreWarnings(CI.getDiagnosticOpts().IgnoreWarnings);
  return P;
}

bool writeFile(DiagnosticsEngine &DE, const std::string &Path, llvm::StringRef Data) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (!EC) {
    OS << Data;
    return true;
  }
  unsigned ID = DE.getCustomDiagID(DiagnosticsEngine::Error,
                                   "libts: cannot write '%0': %1");
  DE.Report(ID) << Path << EC.message();
  return false;
}

class Consumer : public ASTConsumer {
public:
  Consumer(CompilerInstance &CI, Options O, bool Inject)
      : CI(CI), O(std::move(O)), Inject(Inject) {}

  /// Runs after a precompiled header replaced the predefines and before the
  /// main file is entered: the mark of generation must survive a -include-pch.
  void Initialize(ASTContext &) override {
    if (Inject)
      markGeneration(CI.getPreprocessor());
  }

  /// Runs before codegen sees each declaration (the plugin goes first):
  /// a definition must not carry our attributes into the object file.
  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      dropTsAttrs(D, /*InheritedOnly=*/true);
    return true;
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    // Codegen's deferred definitions are emitted after this: without ours.
    struct Drop {
      ASTContext &Ctx;
      ~Drop() { dropTsAttrs(Ctx); }
    } DropAfter{Ctx};
    bool Generated = emittedFile(CI.getPreprocessor());
    SeverityPolicy Policy = policyFor(CI, O);
    // Clang's own errors leave the AST incomplete: report those alone.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Analysis A = analyze(Ctx, Generated, Policy, O.TripBound);
    bool Quiet = isSecondJob(CI);
    DiagEmitter Emitter(Ctx.getDiagnostics(), Policy);
    for (const Diag &D : A.Diags)
      if (!Quiet || Policy.level(D.Group) == Level::Error)
        Emitter.emit(D);
    if (!A.SyntaxOk || Quiet)
      return;
    if (!O.Report.empty())
      report(Ctx, A, Policy);
    if (!O.Json.empty())
      writeFile(Ctx.getDiagnostics(), O.Json, json(Ctx, A, Policy));
    if (!O.Html.empty())
      writeFile(Ctx.getDiagnostics(), O.Html, html(Ctx, A, Policy));
    if (!O.Dot.empty() && !A.X.P.Kernels.empty()) {
      std::string Dot;
      for (const Kernel &K : A.X.P.Kernels)
        Dot += graphDot(A.X.P, K);
      writeFile(Ctx.getDiagnostics(), O.Dot, Dot);
    }
    // A generated main file is the rewrite (ours, or an emitted file fed
    // back in): emit it as it is. Otherwise rewrite now on request.
    if (!O.Emit.empty()) {
      const SourceManager &SM = Ctx.getSourceManager();
      std::string Text = Generated ? SM.getBufferData(SM.getMainFileID()).str()
                                   : rewriteMainFile(Ctx, A, CI.getPreprocessorOpts().Macros,
                                                     CI.getPreprocessorOpts().Includes);
      if (!Text.empty())
        writeFile(Ctx.getDiagnostics(), O.Emit, Text);
    }
  }

private:
  /// Source positions as "file:line:col" for the clang-free report layer.
  static Locator locator(const SourceManager &SM) {
    return [&SM](SourceHandle H) -> std::string {
      PresumedLoc PL = SM.getPresumedLoc(SM.getFileLoc(fromHandle(H)));
      if (PL.isInvalid())
        return "";
      return std::string(PL.getFilename()) + ":" + std::to_string(PL.getLine()) +
             ":" + std::to_string(PL.getColumn());
    };
  }

  /// A finding's level after the user's -W flags; "" when it is ignored.
  static LevelOf levelName(const SeverityPolicy &Policy) {
    return [&Policy](const Diag &D) -> const char * {
      ts::Level L = Policy.level(D.Group);
      return L == ts::Level::Error ? "error" : L == ts::Level::Warning ? "warning" : "";
    };
  }

  std::string html(ASTContext &Ctx, const Analysis &A, const SeverityPolicy &Policy) {
    const SourceManager &SM = Ctx.getSourceManager();
    std::vector<HtmlKernel> Kernels;
    for (size_t I = 0; I < A.X.P.Kernels.size(); ++I)
      Kernels.push_back({&A.X.P.Kernels[I], &A.Kernels[I].Plan, &A.Kernels[I].Verify});
    PresumedLoc Main = SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID()));
    std::string Title = Main.isValid() ? Main.getFilename() : "";
    return htmlReport(Title, A.X.P, Kernels, locator(SM), levelName(Policy));
  }

  std::string json(ASTContext &Ctx, const Analysis &A, const SeverityPolicy &Policy) {
    Locator Where = locator(Ctx.getSourceManager());
    LevelOf LevelName = levelName(Policy);
    std::string Out = "{\"kernels\":[";
    for (size_t I = 0; I < A.X.P.Kernels.size(); ++I)
      Out += (I ? "," : "") + kernelJson(A.X.P, A.X.P.Kernels[I], A.Kernels[I].Plan,
                                         A.Kernels[I].Verify.Diags, Where, LevelName);
    return Out + "]}\n";
  }

  void report(ASTContext &Ctx, const Analysis &A, const SeverityPolicy &Policy) {
    std::string Out;
    for (size_t I = 0; I < A.X.P.Kernels.size(); ++I) {
      const KernelAnalysis &KA = A.Kernels[I];
      unsigned E = 0, W = 0;
      for (const Diag &D : KA.Verify.Diags) {
        E += Policy.level(D.Group) == Level::Error;
        W += Policy.level(D.Group) == Level::Warning;
      }
      const Kernel &K = A.X.P.Kernels[I];
      Out += kernelReport(A.X.P, K, KA.Plan, KA.Verify, E, W);
    }
    if (O.Report == "-")
      llvm::outs() << Out;
    else
      writeFile(Ctx.getDiagnostics(), O.Report, Out);
  }

  CompilerInstance &CI;
  Options O;
  bool Inject;
};

class Action : public PluginASTAction {
public:
  ActionType getActionType() override { return AddBeforeMainAction; }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &A0 : Args) {
      llvm::StringRef A(A0);
      A.consume_front("-");
      if (A.consume_front("emit="))
        O.Emit = A.str();
      else if (A == "report")
        O.Report = "-";
      else if (A.consume_front("report="))
        O.Report = A.str();
      else if (A.consume_front("dot="))
        O.Dot = A.str();
      else if (A.consume_front("json="))
        O.Json = A.str();
      else if (A.consume_front("html="))
        O.Html = A.str();
      else if (A == "no-rewrite")
        O.NoRewrite = true;
      else if (A.starts_with("trip-bound=") &&
               !A.drop_front(11).getAsInteger(10, O.TripBound) && O.TripBound > 0 &&
               O.TripBound <= 1u << 20)
        continue;
      else if (A.starts_with("W"))
        O.WFlags.push_back(A.drop_front().str());
      else {
        DiagnosticsEngine &DE = CI.getDiagnostics();
        unsigned ID = DE.getCustomDiagID(
            DiagnosticsEngine::Error,
            "libts: unknown or malformed plugin argument '%0' (expected "
            "-emit=<file>, -report[=<file>], -dot=<file>, -json=<file>, "
            "-html=<file>, -no-rewrite, -trip-bound=<1..1048576> or -W<flag>)");
        DE.Report(ID) << A0;
        return false;
      }
    }
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    // A code-generating compile parses once: each kernel's definition is
    // parsed right after its declaration (frontend/Inject.h).
    bool Inject = isCodeGenAction(CI.getFrontendOpts().ProgramAction) && !O.NoRewrite;
    if (Inject) {
      auto State = std::make_shared<InjectState>();
      State->Ctx = &CI.getASTContext();
      State->Policy = policyFor(CI, O);
      State->TripBound = O.TripBound;
      enableInjection(CI.getPreprocessor(), std::move(State));
    }
    return std::make_unique<Consumer>(CI, O, Inject);
  }

private:
  Options O;
};

} // namespace
} // namespace ts

static clang::FrontendPluginRegistry::Add<ts::Action>
    RegisterTs("ts", "libts: verified warp-specialized kernels");
