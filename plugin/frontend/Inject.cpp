//===- Inject.cpp - Generated kernels parsed in the same compile ----------===//
#include "frontend/Inject.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Extract.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Pragma.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace clang;

namespace ts {
namespace {

constexpr const char *PragmaName = "__libts_generate";
constexpr const char *BufferPrefix = "libts generated: ";

/// What follows the declaration of the kernel at `Loc`
/// (Driver::afterDeclaration).
std::string definitionAt(const InjectState &St, SourceLocation Loc) {
  Extraction X =
      extract(*St.Ctx, *St.PP, collectAttrs(*St.Ctx), /*GeneratedMode=*/false);
  if (!X.Diags.empty())
    return "";
  for (size_t I = 0; I < X.P.Kernels.size(); ++I) {
    if (X.P.Kernels[I].Loc != toHandle(Loc))
      continue;
    return St.D->afterDeclaration(X.P, I, X.KernelSrc[I], X.TaskSrc);
  }
  return "";
}

class GenerateHandler : public PragmaHandler {
public:
  explicit GenerateHandler(std::shared_ptr<InjectState> St)
      : PragmaHandler(PragmaName), St(std::move(St)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Intro,
                    Token &Tok) override {
    PP.Lex(Tok);
    uint64_t Raw = 0;
    bool Ok = Tok.is(tok::numeric_constant) &&
              !llvm::StringRef(PP.getSpelling(Tok)).getAsInteger(10, Raw);
    while (Tok.isNot(tok::eod))
      PP.Lex(Tok);
    if (!Ok || !St->Ctx)
      return;
    SourceLocation Kernel =
        SourceLocation::getFromRawEncoding(SourceLocation::UIntTy(Raw));
    std::string Text = definitionAt(*St, Kernel);
    if (Text.empty())
      return;
    SourceManager &SM = PP.getSourceManager();
    FileID F = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(
                                   Text, std::string(BufferPrefix) + "kernel"),
                               SrcMgr::C_User, 0, 0, Intro.Loc);
    PP.EnterSourceFile(F, nullptr, Intro.Loc);
  }

private:
  std::shared_ptr<InjectState> St;
};

} // namespace

void enableInjection(Preprocessor &PP, std::shared_ptr<InjectState> State) {
  PP.AddPragmaHandler(new GenerateHandler(std::move(State)));
}

void markGeneration(Preprocessor &PP) {
  PP.setPredefines(PP.getPredefines() + "#define __LIBTS_GENERATED__ 1\n");
}

bool injecting(Sema &S) {
  Preprocessor &PP = S.getPreprocessor();
  const MacroInfo *MI =
      PP.getMacroInfo(PP.getIdentifierInfo("__LIBTS_GENERATED__"));
  if (!MI)
    return false;
  // Ours comes from the predefines; a file libts emitted defines it itself.
  return PP.getSourceManager().isWrittenInBuiltinFile(MI->getDefinitionLoc());
}

void requestDefinition(Sema &S, const Decl *Kernel) {
  Preprocessor &PP = S.getPreprocessor();
  SourceLocation At = Kernel->getEndLoc();
  std::string Arg = "\"" + std::string(PragmaName) + " " +
                    std::to_string(Kernel->getLocation().getRawEncoding()) +
                    "\"";
  // _Pragma ( "..." ): lexed after the current token, the declaration's ';'.
  auto Toks = std::make_unique<Token[]>(4);
  for (unsigned I = 0; I < 4; ++I) {
    Toks[I].startToken();
    Toks[I].setLocation(At);
  }
  Toks[0].setKind(tok::identifier);
  Toks[0].setIdentifierInfo(PP.getIdentifierInfo("_Pragma"));
  Toks[1].setKind(tok::l_paren);
  Toks[2].setKind(tok::string_literal);
  Toks[3].setKind(tok::r_paren);
  // The string's spelling lives in a scratch buffer, as macro expansions do.
  PP.CreateString(Arg, Toks[2], At, At);
  PP.EnterTokenStream(std::move(Toks), 4, /*DisableMacroExpansion=*/false,
                      /*IsReinject=*/false);
}

bool isGeneratedLoc(const SourceManager &SM, SourceLocation L) {
  if (L.isInvalid())
    return false;
  FileID F = SM.getFileID(SM.getExpansionLoc(L));
  return SM.getBufferName(SM.getLocForStartOfFile(F)).starts_with(BufferPrefix);
}

} // namespace ts
