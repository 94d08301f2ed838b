//===- Plugin.cpp - libts clang plugin entry ------------------------------===//
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

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

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
  bool Stats = false; ///< Print how many kernels were planned and verified.
  uint64_t TripBound = DefaultTripBound;
  /// -debug-hangs[=<ms>]: every generated wait gives up after this long.
  std::optional<unsigned> HangMs;
  std::vector<std::string> WFlags;
};

/// The macro the runtime's watchdog reads (include/ts/detail.h).
std::string hangMacro(unsigned Ms) {
  return "LIBTS_DEBUG_HANGS=" + std::to_string(Ms);
}

/// A file libts emitted defines __LIBTS_GENERATED__ itself; a compile that
/// generates defines it in the predefines.
bool emittedFile(Preprocessor &PP) {
  const MacroInfo *MI =
      PP.getMacroInfo(PP.getIdentifierInfo("__LIBTS_GENERATED__"));
  return MI &&
         !PP.getSourceManager().isWrittenInBuiltinFile(MI->getDefinitionLoc());
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

bool writeFile(DiagnosticsEngine &DE, const std::string &Path,
               llvm::StringRef Data) {
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
  Consumer(CompilerInstance &CI, Options O, bool Inject,
           std::shared_ptr<Driver> D)
      : CI(CI), O(std::move(O)), Inject(Inject), D(std::move(D)) {}

  /// Runs after a precompiled header replaced the predefines and before the
  /// main file is entered: the mark of generation must survive a -include-pch.
  void Initialize(ASTContext &) override {
    if (Inject)
      markGeneration(CI.getPreprocessor());
    if (O.HangMs) {
      Preprocessor &PP = CI.getPreprocessor();
      PP.setPredefines(PP.getPredefines() + "#define LIBTS_DEBUG_HANGS " +
                       std::to_string(*O.HangMs) + "\n");
    }
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
    // Clang's own errors leave the AST incomplete: report those alone.
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    auto Start = std::chrono::steady_clock::now();
    Analysis A = analyze(Ctx, CI.getPreprocessor(), Generated, *D);
    std::chrono::duration<double, std::milli> Took =
        std::chrono::steady_clock::now() - Start;
    const SeverityPolicy &Policy = D->policy();
    bool Quiet = isSecondJob(CI);
    DiagEmitter Emitter(Ctx.getDiagnostics(), Policy);
    for (const Diag &Dg : A.R.Diags)
      if (!Quiet || Policy.level(Dg.Group) == Level::Error)
        Emitter.emit(Dg);
    if (O.Stats) {
      llvm::errs() << "libts: " << D->kernelsPlanned()
                   << " kernel plans and verifications\n";
      // What the plugin adds to the parse: extraction, plans and checks.
      llvm::errs() << "libts: analysis " << llvm::format("%.1f", Took.count())
                   << " ms\n";
    }
    if (!A.R.SyntaxOk || Quiet)
      return;
    writeOutputs(Ctx, A, Generated);
  }

private:
  void writeOutputs(ASTContext &Ctx, const Analysis &A, bool Generated) {
    DiagnosticsEngine &DE = Ctx.getDiagnostics();
    const SourceManager &SM = Ctx.getSourceManager();
    const Program &P = A.X.P;
    if (!O.Report.empty()) {
      if (O.Report == "-")
        llvm::outs() << D->report(P, A.R);
      else
        writeFile(DE, O.Report, D->report(P, A.R));
    }
    if (!O.Json.empty())
      writeFile(DE, O.Json, D->json(P, A.R, locator(SM)));
    if (!O.Html.empty()) {
      PresumedLoc Main =
          SM.getPresumedLoc(SM.getLocForStartOfFile(SM.getMainFileID()));
      writeFile(DE, O.Html,
                D->html(Main.isValid() ? Main.getFilename() : "", P, A.R,
                        locator(SM), sourceLines(SM)));
    }
    if (!O.Dot.empty() && !P.Kernels.empty())
      writeFile(DE, O.Dot, D->dot(P));
    // A generated main file is the rewrite (ours, or an emitted file fed
    // back in): emit it as it is. Otherwise rewrite now on request.
    if (O.Emit.empty())
      return;
    // The emitted file restates the watchdog's macro with the -D flags.
    std::vector<std::pair<std::string, bool>> Macros =
        CI.getPreprocessorOpts().Macros;
    if (O.HangMs)
      Macros.push_back({hangMacro(*O.HangMs), false});
    std::string Text =
        Generated ? SM.getBufferData(SM.getMainFileID()).str()
                  : rewriteMainFile(mainFile(Ctx, A.X, Macros,
                                             CI.getPreprocessorOpts().Includes),
                                    P, A.R, A.X.KernelSrc, A.X.TaskSrc);
    if (!Text.empty())
      writeFile(DE, O.Emit, Text);
  }

  CompilerInstance &CI;
  Options O;
  bool Inject;
  std::shared_ptr<Driver> D;
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
      else if (A == "stats")
        O.Stats = true;
      else if (A == "debug-hangs")
        O.HangMs = 2000;
      else if (unsigned Ms = 0; A.starts_with("debug-hangs=") &&
                                !A.drop_front(12).getAsInteger(10, Ms) &&
                                Ms > 0 && Ms <= 600000)
        O.HangMs = Ms;
      else if (A.starts_with("trip-bound=") &&
               !A.drop_front(11).getAsInteger(10, O.TripBound) &&
               O.TripBound > 0 && O.TripBound <= 1u << 20)
        continue;
      else if (A.starts_with("W") && knownGroup(CI, A.drop_front().str()))
        O.WFlags.push_back(A.drop_front().str());
      else if (A.starts_with("W"))
        return false;
      else {
        DiagnosticsEngine &DE = CI.getDiagnostics();
        unsigned ID = DE.getCustomDiagID(
            DiagnosticsEngine::Error,
            "libts: unknown or malformed plugin argument '%0' (expected "
            "-emit=<file>, -report[=<file>], -dot=<file>, -json=<file>, "
            "-html=<file>, -no-rewrite, -stats, -trip-bound=<1..1048576>, "
            "-debug-hangs[=<1..600000 ms>] or -W<flag>)");
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
    bool Inject =
        isCodeGenAction(CI.getFrontendOpts().ProgramAction) && !O.NoRewrite;
    auto D = std::make_shared<Driver>(
        DriverOptions{policyFor(CI, O), O.TripBound, O.HangMs.has_value()});
    if (Inject) {
      auto State = std::make_shared<InjectState>();
      State->Ctx = &CI.getASTContext();
      State->PP = &CI.getPreprocessor();
      State->D = D;
      enableInjection(CI.getPreprocessor(), std::move(State));
    }
    return std::make_unique<Consumer>(CI, O, Inject, std::move(D));
  }

private:
  /// A -W plugin argument must name one of libts's groups (clang's own
  /// warnings go on clang's command line).
  static bool knownGroup(const CompilerInstance &CI, const std::string &Flag) {
    std::string Group = flagGroup(Flag);
    if (Group.empty() || isTsGroup(Group))
      return true;
    std::string Known = "ts";
    for (const CheckInfo &I : checkTable())
      Known += std::string(", ") + I.Flag;
    DiagnosticsEngine &DE = CI.getDiagnostics();
    DE.Report(DE.getCustomDiagID(DiagnosticsEngine::Error,
                                 "libts: plugin argument '-W%0' names no libts "
                                 "warning group (groups: %1)"))
        << Flag << Known;
    return false;
  }

  Options O;
};

} // namespace
} // namespace ts

static clang::FrontendPluginRegistry::Add<ts::Action>
    RegisterTs("ts", "libts: verified warp-specialized kernels");
