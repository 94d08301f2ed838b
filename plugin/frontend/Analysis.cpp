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
