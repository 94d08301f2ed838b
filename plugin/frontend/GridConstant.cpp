//===- GridConstant.cpp - TMA descriptors in kernel parameters ------------===//
#include "frontend/GridConstant.h"

#include "clang/AST/DeclCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"

using namespace clang;

namespace ts {

namespace {

constexpr unsigned MaxDepth = 16;

std::optional<std::string> tensorMapAt(QualType T, unsigned Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  T = T.getCanonicalType();
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    auto In = tensorMapAt(AT->getElementType(), Depth + 1);
    return In ? std::optional<std::string>("[]" + *In) : std::nullopt;
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition())
    return std::nullopt;
  if (RD->getName() == "CUtensorMap_st")
    return std::string();
  for (const CXXBaseSpecifier &B : RD->bases())
    if (auto In = tensorMapAt(B.getType(), Depth + 1))
      return In;
  for (const FieldDecl *F : RD->fields())
    if (auto In = tensorMapAt(F->getType(), Depth + 1))
      return "." + F->getNameAsString() + *In;
  return std::nullopt;
}

bool namesGridConstant(const Preprocessor &PP, StringRef Name, unsigned Depth);

/// Whether a macro, in any of its definitions, expands to grid_constant.
bool macroNamesGridConstant(const Preprocessor &PP, const IdentifierInfo *II,
                            unsigned Depth) {
  if (!II || !II->hadMacroDefinition() || Depth > MaxDepth)
    return false;
  for (const MacroDirective *MD = PP.getLocalMacroDirectiveHistory(II); MD;
       MD = MD->getPrevious())
    if (const auto *Def = dyn_cast<DefMacroDirective>(MD))
      for (const Token &T : Def->getInfo()->tokens())
        if (const IdentifierInfo *TI = T.getIdentifierInfo();
            TI && namesGridConstant(PP, TI->getName(), Depth + 1))
          return true;
  return false;
}

bool namesGridConstant(const Preprocessor &PP, StringRef Name, unsigned Depth) {
  return Name == "grid_constant" || Name == "__grid_constant__" ||
         macroNamesGridConstant(PP, PP.getIdentifierInfo(Name), Depth);
}

} // namespace

std::optional<std::string> tensorMapIn(QualType T) { return tensorMapAt(T, 0); }

bool writtenGridConstant(const ParmVarDecl *P, const ASTContext &Ctx,
                         const Preprocessor &PP) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(P->getSourceRange());
  bool Invalid = false;
  StringRef Text = Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return false;
  std::string Buf = Text.str();
  Lexer L(R.getBegin(), Ctx.getLangOpts(), Buf.data(), Buf.data(),
          Buf.data() + Buf.size());
  Token T;
  for (bool More = true; More;) {
    More = !L.LexFromRawLexer(T);
    if (T.is(tok::raw_identifier) &&
        namesGridConstant(PP, T.getRawIdentifier(), 0))
      return true;
  }
  return false;
}

} // namespace ts
