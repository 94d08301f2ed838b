//===- Rewrite.cpp - The rewritten translation unit -----------------------===//
#include "driver/Rewrite.h"
#include "lower/Lower.h"

#include <algorithm>
#include <cctype>

namespace ts {

namespace {

std::string quoted(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '\\' || C == '"')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

/// "#define N V" / "#undef N" lines for the command line's macros.
std::string
restateMacros(const std::vector<std::pair<std::string, bool>> &Macros) {
  std::string Out;
  for (const auto &[Spec, IsUndef] : Macros) {
    std::string Name = Spec.substr(0, Spec.find('='));
    // Reserved names come from the driver (and may differ between jobs).
    if (Name.rfind("__", 0) == 0 || (Name.size() > 1 && Name[0] == '_' &&
                                     std::isupper((unsigned char)Name[1])))
      continue;
    if (IsUndef) {
      Out += "#undef " + Name + "\n";
      continue;
    }
    size_t Eq = Spec.find('=');
    Out += "#define " + Name + " " +
           (Eq == std::string::npos ? std::string("1") : Spec.substr(Eq + 1)) +
           "\n";
  }
  return Out;
}

} // namespace

std::string rewriteMainFile(const MainFile &F, const Program &P,
                            const Outcome &R,
                            const std::vector<KernelSource> &Kernels,
                            const std::vector<TaskSource> &Tasks) {
  if (R.Errors || P.Kernels.empty())
    return "";
  // Insertions stay on their line so user code keeps its line numbers.
  std::vector<std::pair<unsigned, std::string>> Inserts;
  for (size_t I = 0; I < F.TaskInline.size(); ++I) {
    bool Used =
        std::any_of(P.Kernels.begin(), P.Kernels.end(), [&](const Kernel &K) {
          return std::count(K.Tasks.begin(), K.Tasks.end(), I);
        });
    if (F.TaskInline[I] && Used)
      Inserts.push_back({*F.TaskInline[I], "__forceinline__ "});
  }
  // Each definition follows its declaration's ';', between #line
  // directives, so it sees what the declaration sees and user code keeps
  // its line numbers.
  for (size_t I = 0; I < P.Kernels.size(); ++I) {
    const KernelPlan &Plan = R.Kernels[I]->Plan;
    auto [Semi, Line] = F.KernelSemi[I];
    Inserts.push_back(
        {Semi, kernelTraits(Plan, Kernels[I]) + "\n#line 1 " +
                   quoted("<libts generated: " + F.Name + ">") + "\n" +
                   lowerKernel(P, P.Kernels[I], Plan, Kernels[I], Tasks,
                               /*InScope=*/true) +
                   "#line " + std::to_string(Line) + " " + quoted(F.Name) +
                   "\n"});
  }
  std::stable_sort(
      Inserts.begin(), Inserts.end(),
      [](const auto &X, const auto &Y) { return X.first < Y.first; });

  // Restating -D/-U makes the emitted file self-contained: compiling it
  // with different values is an incompatible redefinition, not a kernel
  // silently laid out for other shapes.
  std::string Out = "#define __LIBTS_GENERATED__ 1\n" + restateMacros(F.Macros);
  // ptxas takes one tcgen05 CTA group per kernel, so the runtime's is a
  // compile-time choice; verify/PairFile.cpp keeps a file's kernels in one.
  if (std::any_of(R.Kernels.begin(), R.Kernels.end(),
                  [](const auto &KR) { return KR->Plan.CtaGroup == 2; }))
    Out += "#define LIBTS_CTA_GROUP 2\n";
  // The clang driver's own CUDA wrapper header is not the user's.
  for (const std::string &Inc : F.Includes)
    if (Inc.rfind("__clang_", 0) != 0)
      Out += "#include " + quoted(Inc) + "\n";
  Out += "#line 1 " + quoted(F.Name) + "\n";
  unsigned Pos = 0;
  for (const auto &[Off, Str] : Inserts) {
    Out += F.Text.substr(Pos, Off - Pos);
    Out += Str;
    Pos = Off;
  }
  Out += F.Text.substr(Pos);
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  return Out;
}

} // namespace ts
