//===- FuzzFrontend.cpp - libFuzzer target: clang + libts in process ------===//
//
// Each input is a kernel file. It is compiled in process as a device
// code-generating compile with libts loaded, and two properties must hold:
//  - no crash, no sanitizer report, no hang (libFuzzer and the sanitizers
//    catch those);
//  - accepted implies compiles: an error inside a generated buffer, or an
//    accepted kernel with no definition in the module, aborts.
// A precompiled header of ts/ts.h, built once, keeps an input near 0.5 s.
//
//   ts-fuzz [libFuzzer flags] <new-inputs dir> <seed dirs...>
//
//===----------------------------------------------------------------------===//
#include "Mutator.h"

#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {

using namespace clang;

std::string Dir;     // scratch files of this process
std::string PchPath; // ts/ts.h, precompiled

std::vector<std::string> clangArgs() {
  return {LIBTS_FUZZ_CLANG,
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
          LIBTS_SOURCE_DIR "/tools/shim",
          "-I",
          LIBTS_SOURCE_DIR "/include",
          "-ferror-limit=0"};
}

/// Builds the precompiled header with the clang binary (and the plugin,
/// which ts/ts.h asks for) under the options the inputs use.
void buildPch() {
  std::string Header = Dir + "/prefix.h";
  FILE *F = std::fopen(Header.c_str(), "w");
  std::fputs("#include <ts/ts.h>\n", F);
  std::fclose(F);
  PchPath = Dir + "/prefix.pch";
  std::string Cmd;
  for (const std::string &A : clangArgs())
    Cmd += A + " ";
  Cmd += "-fplugin=" LIBTS_FUZZ_PLUGIN
         " -fsyntax-only -Xclang -emit-pch -Xclang -o -Xclang " +
         PchPath + " " + Header;
  if (std::system(Cmd.c_str()) != 0) {
    std::fprintf(stderr, "ts-fuzz: cannot build the PCH: %s\n", Cmd.c_str());
    std::exit(2);
  }
}

/// Errors of one compile, and whether one lies in generated code.
class Collect : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L < DiagnosticsEngine::Error || !Info.hasSourceManager() ||
        Info.getLocation().isInvalid())
      return;
    const SourceManager &SM = Info.getSourceManager();
    llvm::StringRef Buffer =
        SM.getBufferName(SM.getExpansionLoc(Info.getLocation()));
    if (Buffer.starts_with("libts generated")) {
      llvm::SmallString<128> Msg;
      Info.FormatDiagnostic(Msg);
      // An sm_100a kernel's body stops a device compile for any other
      // architecture on purpose (plugin/lower/Lower.cpp, targetGuard):
      // clang 19 cannot build it, nvcc does.
      if (Msg.str().contains("targets sm_100a: compile it with"))
        return;
      Generated += Buffer.str() + ": " + Msg.str().str() + "\n";
    }
  }
  std::string Generated;
};

/// Runs the device codegen front end and keeps the module.
class CodeGen : public tooling::ToolAction {
public:
  bool runInvocation(std::shared_ptr<CompilerInvocation> Inv,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> Pch,
                     DiagnosticConsumer *Diags) override {
    CompilerInstance CI(std::move(Pch));
    CI.setInvocation(std::move(Inv));
    CI.setFileManager(Files);
    CI.createDiagnostics(Diags, /*ShouldOwnClient=*/false);
    CI.createSourceManager(*Files);
    EmitLLVMOnlyAction Act(&Ctx);
    bool Ok = CI.ExecuteAction(Act);
    Module = Act.takeModule();
    return Ok;
  }
  llvm::LLVMContext Ctx;
  std::unique_ptr<llvm::Module> Module;
};

/// Kernels the plugin accepted, from its JSON report.
std::vector<std::string> acceptedKernels(const std::string &Json) {
  auto Buf = llvm::MemoryBuffer::getFile(Json);
  std::vector<std::string> Names;
  if (!Buf)
    return Names;
  std::string Text = (*Buf)->getBuffer().str();
  static const std::regex Kernel("\\{\"kernel\":\"([A-Za-z_0-9]+)\"");
  for (std::sregex_iterator I(Text.begin(), Text.end(), Kernel), E; I != E; ++I)
    Names.push_back((*I)[1]);
  return Names;
}

bool defines(const llvm::Module &M, const std::string &Name) {
  std::string Mangled = std::to_string(Name.size()) + Name;
  for (const llvm::Function &F : M)
    if (!F.isDeclaration() &&
        (F.getName() == Name ||
         F.getName().find(Mangled) != llvm::StringRef::npos))
      return true;
  return false;
}

[[noreturn]] void fail(const char *What, const std::string &Detail) {
  std::fprintf(stderr, "ts-fuzz: %s\n%s\n", What, Detail.c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Tmp;
  if (llvm::sys::fs::createUniqueDirectory("ts-fuzz", Tmp))
    std::exit(2);
  Dir = Tmp.str().str();
  std::atexit([] { llvm::sys::fs::remove_directories(Dir); });
  std::string Error;
  if (llvm::sys::DynamicLibrary::LoadLibraryPermanently(LIBTS_FUZZ_PLUGIN,
                                                        &Error)) {
    std::fprintf(stderr, "ts-fuzz: cannot load %s: %s\n", LIBTS_FUZZ_PLUGIN,
                 Error.c_str());
    std::exit(2);
  }
  buildPch();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Input = Dir + "/input.cu", Json = Dir + "/report.json";
  llvm::sys::fs::remove(Json);
  auto Mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Mem->addFile(Input, 0,
               llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(
                   reinterpret_cast<const char *>(Data), Size)));
  auto Fs = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  Fs->pushOverlay(Mem);
  auto Files = llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), Fs);
  std::vector<std::string> Args = clangArgs();
  for (const char *A :
       {"-include-pch", PchPath.c_str(), "-emit-llvm", "-S", "-o", "/dev/null",
        "-Xclang", "-plugin-arg-ts", "-Xclang"})
    Args.push_back(A);
  Args.push_back("-json=" + Json);
  Args.push_back(Input);
  CodeGen Act;
  Collect Diags;
  tooling::ToolInvocation Inv(Args, &Act, Files.get(),
                              std::make_shared<PCHContainerOperations>());
  Inv.setDiagnosticConsumer(&Diags);
  bool Ok = Inv.run();
  if (!Diags.Generated.empty())
    fail("an error in generated code", Diags.Generated);
  if (!Ok || Diags.getNumErrors() || !Act.Module)
    return 0;
  for (const std::string &K : acceptedKernels(Json))
    if (!defines(*Act.Module, K))
      fail("an accepted kernel has no definition", K);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size,
                                          size_t MaxSize, unsigned Seed) {
  std::minstd_rand Rng(Seed);
  // One in eight inputs gets plain byte mutations: the lexer and the
  // attribute parser see malformed text too.
  if (Rng() % 8 == 0)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  std::string Src(reinterpret_cast<const char *>(Data), Size);
  if (!tsfuzz::mutate(Src, Rng) || Src.size() > MaxSize)
    return LLVMFuzzerMutate(Data, Size, MaxSize);
  std::memcpy(Data, Src.data(), Src.size());
  return Src.size();
}
