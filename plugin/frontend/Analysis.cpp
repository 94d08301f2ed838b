//===- Analysis.cpp - The translation unit handed to the driver -----------===//
#include "frontend/Analysis.h"
#include "frontend/DiagEmitter.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ts {

Analysis analyze(ASTContext &Ctx, const Preprocessor &PP, bool GeneratedMode,
                 Driver &D) {
  Analysis A;
  A.X = extract(Ctx, PP, collectAttrs(Ctx), GeneratedMode);
  A.R = D.run(A.X.P, A.X.Diags);
  return A;
}

MainFile mainFile(ASTContext &Ctx, const Extraction &X,
                  const std::vector<std::pair<std::string, bool>> &Macros,
                  const std::vector<std::string> &Includes) {
  const SourceManager &SM = Ctx.getSourceManager();
  FileID Main = SM.getMainFileID();
  MainFile F;
  F.Text = SM.getBufferData(Main).str();
  F.Name = "input.cu";
  if (auto Entry = SM.getFileEntryRefForID(Main))
    F.Name = Entry->getName().str();
  for (SourceLocation L : X.TaskInline)
    F.TaskInline.push_back(
        L.isValid()
            ? std::optional<unsigned>(SM.getFileOffset(SM.getSpellingLoc(L)))
            : std::nullopt);
  for (SourceLocation Semi : X.KernelSemi) {
    unsigned Off = SM.getFileOffset(Semi);
    F.KernelSemi.push_back({Off, SM.getLineNumber(Main, Off)});
  }
  F.Macros = Macros;
  F.Includes = Includes;
  return F;
}

SourceLines sourceLines(const SourceManager &SM) {
  return [&SM](SourceHandle H) -> std::string {
    SourceLocation L = SM.getFileLoc(fromHandle(H));
    PresumedLoc PL = SM.getPresumedLoc(L);
    llvm::StringRef Name = PL.isValid() ? PL.getFilename() : "";
    if (Name.empty() || Name.starts_with("<") ||
        Name.starts_with("libts generated"))
      return "";
    bool Bad = false;
    llvm::StringRef Buf = SM.getBufferData(SM.getFileID(L), &Bad);
    if (Bad)
      return "";
    unsigned Off = SM.getFileOffset(L);
    size_t Begin = Buf.rfind('\n', Off); // the last newline before Off
    Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
    size_t End = Buf.find('\n', Off);
    return Buf.slice(Begin, End).rtrim().str();
  };
}

Locator locator(const SourceManager &SM) {
  return [&SM](SourceHandle H) -> std::string {
    PresumedLoc PL = SM.getPresumedLoc(SM.getFileLoc(fromHandle(H)));
    if (PL.isInvalid())
      return "";
    return std::string(PL.getFilename()) + ":" + std::to_string(PL.getLine()) +
           ":" + std::to_string(PL.getColumn());
  };
}

} // namespace ts
