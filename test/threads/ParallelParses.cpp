//===- ParallelParses.cpp - libts under concurrent parses in one process --===//
//
// clangd parses several files at once in one process with the plugin
// loaded. This test loads libts.so once, parses each input alone to record
// its diagnostics, then parses all of them at the same time on one thread
// each, several rounds, and requires every file to get exactly the
// diagnostics it got alone.
//
//   ts-parallel-parses <libts.so> <repository root> [rounds]
//
//===----------------------------------------------------------------------===//
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

/// Diagnostics of one syntax-only device parse, as clang prints them.
std::string parse(const std::string &Root, const std::string &File) {
  std::vector<std::string> Args = {"/usr/lib/llvm-19/bin/clang++",
                                   "-x",
                                   "cuda",
                                   "-std=c++17",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_90a",
                                   "--cuda-path=/usr/local/cuda",
                                   "-nocudalib",
                                   "-Wno-unknown-cuda-version",
                                   "-Wno-unknown-attributes",
                                   "-isystem",
                                   "/usr/local/cuda/include/cccl",
                                   "-I",
                                   Root + "/tools/shim",
                                   "-I",
                                   Root + "/include",
                                   "-ferror-limit=0",
                                   "-fsyntax-only",
                                   Root + "/" + File};
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  auto Opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::TextDiagnosticPrinter Printer(OS, Opts.get());
  auto Files =
      llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions());
  clang::tooling::ToolInvocation Inv(
      Args, std::make_unique<clang::SyntaxOnlyAction>(), Files.get());
  Inv.setDiagnosticConsumer(&Printer);
  Inv.run();
  OS.flush();
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <libts.so> <repository root> [rounds]\n",
                 argv[0]);
    return 2;
  }
  std::string Error;
  if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(argv[1], &Error)) {
    std::fprintf(stderr, "cannot load %s: %s\n", argv[1], Error.c_str());
    return 2;
  }
  std::string Root = argv[2];
  int Rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  // Kernels with findings of every kind, and clean ones.
  const std::vector<std::string> Inputs = {"test/lit/verify/credit.cu",
                                           "test/lit/verify/every-trip.cu",
                                           "test/lit/verify/alias.cu",
                                           "test/lit/verify/pdl.cu",
                                           "test/lit/verify/ownership.cu",
                                           "test/lit/verify/tokens.cu",
                                           "test/lit/verify/clean.cu",
                                           "examples/tma_copy.cu",
                                           "examples/reduce.cu"};
  std::vector<std::string> Alone;
  for (const std::string &F : Inputs)
    Alone.push_back(parse(Root, F));
  int Failures = 0;
  for (int R = 0; R < Rounds; ++R) {
    std::vector<std::string> Together(Inputs.size());
    std::vector<std::thread> Threads;
    for (size_t I = 0; I < Inputs.size(); ++I)
      Threads.emplace_back([&, I] { Together[I] = parse(Root, Inputs[I]); });
    for (std::thread &T : Threads)
      T.join();
    for (size_t I = 0; I < Inputs.size(); ++I)
      if (Together[I] != Alone[I]) {
        ++Failures;
        std::fprintf(stderr,
                     "round %d: %s differs when parsed with the others\n", R,
                     Inputs[I].c_str());
      }
  }
  size_t Diags = 0;
  for (const std::string &A : Alone)
    for (size_t P = A.find(": error:"); P != std::string::npos;
         P = A.find(": error:", P + 1))
      ++Diags;
  std::printf("%zu files x %d rounds in parallel: %d differ (%zu errors alone "
              "in all)\n",
              Inputs.size(), Rounds, Failures, Diags);
  return Failures || Diags == 0 ? 1 : 0;
}
