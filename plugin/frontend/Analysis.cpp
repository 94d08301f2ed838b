//===- Analysis.cpp - Extract, verify, lay out, lower ----------------------===//
#include "frontend/Analysis.h"
#include "lower/Lower.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace clang;

namespace ts {

static void count(Analysis &A, const SeverityPolicy &Policy, const Diag &D) {
  Level L = Policy.level(D.Group);
  A.Errors += L == Level::Error;
  A.Warnings += L == Level::Warning;
}

Analysis analyze(ASTContext &Ctx, bool GeneratedMode,
                 const SeverityPolicy &Policy, uint64_t TripBound) {
  Analysis A;
  A.X = extract(Ctx, collectAttrs(Ctx), GeneratedMode);
  A.Diags = A.X.Diags;
  A.SyntaxOk = A.X.Diags.empty();
  for (const Diag &D : A.Diags)
    count(A, Policy, D);
  if (!A.SyntaxOk)
    return A;
  Program &P = A.X.P;
  for (Kernel &K : P.Kernels) {
    if (!K.TripBoundOptOut)
      K.TripBound = TripBound;
    KernelAnalysis KA;
    DiagList Pad;
    padWarpGroups(P, K, targetSm90a(), Pad);
    KA.Plan = buildPlan(P, K, targetSm90a());
    KA.Verify = verifyKernel(P, K, KA.Plan);
    KA.Verify.Diags.insert(KA.Verify.Diags.begin(), Pad.begin(), Pad.end());
    for (const Diag &D : KA.Verify.Diags) {
      count(A, Policy, D);
      A.Diags.push_back(D);
    }
    A.Kernels.push_back(std::move(KA));
  }
  return A;
}

static std::string quoted(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// "#define N V" / "#undef N" lines for the command line's macros.
static std::string restateMacros(
    const std::vector<std::pair<std::string, bool>> &Macros) {
  std::string Out;
  for (const auto &[Spec, IsUndef] : Macros) {
    llvm::StringRef Name = llvm::StringRef(Spec).split('=').first;
    // Reserved names come from the driver (and may differ between jobs).
    if (Name.starts_with("__") ||
        (Name.size() > 1 && Name[0] == '_' && llvm::isUpper(Name[1])))
      continue;
    if (IsUndef) {
      Out += "#undef " + Name.str() + "\n";
      continue;
    }
    size_t Eq = Spec.find('=');
    Out += "#define " + Name.str() + " " +
           (Eq == std::string::npos ? std::string("1") : Spec.substr(Eq + 1)) +
           "\n";
  }
  return Out;
}

std::string
rewriteMainFile(ASTContext &Ctx, const Analysis &A,
                const std::vector<std::pair<std::string, bool>> &Macros,
                const std::vector<std::string> &Includes) {
  if (A.Errors || A.X.P.Kernels.empty())
    return "";
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  llvm::StringRef Text = SM.getBufferData(Main);
  std::string Name = "input.cu";
  if (auto Entry = SM.getFileEntryRefForID(Main))
    Name = Entry->getName().str();

  // Insertions stay on their line so user code keeps its line numbers.
  std::vector<std::pair<unsigned, std::string>> Inserts;
  for (size_t I = 0; I < A.X.TaskInline.size(); ++I) {
    SourceLocation L = A.X.TaskInline[I];
    bool Used = std::any_of(A.X.P.Kernels.begin(), A.X.P.Kernels.end(),
                            [&](const Kernel &K) {
                              return std::count(K.Tasks.begin(), K.Tasks.end(), I);
                            });
    if (L.isValid() && Used)
      Inserts.push_back({SM.getFileOffset(SM.getSpellingLoc(L)), "__forceinline__ "});
  }
  // Each definition follows its declaration's ';', between #line
  // directives, so it sees what the declaration sees and user code keeps
  // its line numbers.
  for (size_t I = 0; I < A.X.P.Kernels.size(); ++I) {
    const Kernel &K = A.X.P.Kernels[I];
    const KernelPlan &Plan = A.Kernels[I].Plan;
    unsigned Semi = SM.getFileOffset(A.X.KernelSemi[I]);
    Inserts.push_back({Semi, kernelTraits(Plan, A.X.KernelSrc[I]) + "\n#line 1 " +
                                 quoted("<libts generated: " + Name + ">") + "\n" +
                                 lowerKernel(A.X.P, K, Plan, A.X.KernelSrc[I], A.X.TaskSrc,
                                             /*InScope=*/true) +
                                 "#line " + std::to_string(SM.getLineNumber(Main, Semi)) +
                                 " " + quoted(Name) + "\n"});
  }
  std::stable_sort(Inserts.begin(), Inserts.end(),
                   [](const auto &X, const auto &Y) { return X.first < Y.first; });

  // Restating -D/-U makes the emitted file self-contained: compiling it
  // with different values is an incompatible redefinition, not a kernel
  // silently laid out for other shapes.
  std::string Out = "#define __LIBTS_GENERATED__ 1\n" + restateMacros(Macros);
  // The clang driver's own CUDA wrapper header is not the user's.
  for (const std::string &Inc : Includes)
    if (!llvm::StringRef(Inc).starts_with("__clang_"))
      Out += "#include " + quoted(Inc) + "\n";
  Out += "#line 1 " + quoted(Name) + "\n";
  unsigned Pos = 0;
  for (const auto &[Off, Str] : Inserts) {
    Out += Text.substr(Pos, Off - Pos).str();
    Out += Str;
    Pos = Off;
  }
  Out += Text.substr(Pos).str();
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  return Out;
}

} // namespace ts
