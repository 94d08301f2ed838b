//===- Vocabulary.cpp - Recognising ts:: names in the AST -----------------===//
#include "frontend/Vocabulary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ts {

bool isTsDecl(const NamedDecl *D, llvm::StringRef Name) {
  if (!D || !D->getIdentifier() || D->getName() != Name)
    return false;
  const auto *NS =
      dyn_cast<NamespaceDecl>(D->getDeclContext()->getRedeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "ts" &&
         NS->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

const CXXRecordDecl *tsRecord(QualType T, llvm::StringRef Name) {
  if (T.isNull())
    return nullptr;
  T = T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return nullptr;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
    return isTsDecl(Spec->getSpecializedTemplate(), Name) ? RD : nullptr;
  return isTsDecl(RD, Name) ? RD : nullptr;
}

bool takesTurn(const FunctionDecl *F) {
  return F && llvm::any_of(F->parameters(), [](const ParmVarDecl *P) {
           QualType T = P->getType().getNonReferenceType();
           const auto *TS = T->getAs<TemplateSpecializationType>();
           return tsRecord(T, "turn") ||
                  (TS &&
                   isTsDecl(TS->getTemplateName().getAsTemplateDecl(), "turn"));
         });
}

std::string templateTaskNote(const FunctionDecl *F) {
  if (takesTurn(F))
    return "warp groups that take turns are one task per ring position, "
           "each with its ts::turn<R, Pos>, sharing their work through "
           "helper functions (docs/guide.md, \"Warp groups that take "
           "turns\")";
  return "for warp groups that run the same body, write one task over all "
         "their warps and branch on ts::warpgroup_index() (docs/guide.md, "
         "\"Several warp groups, one body\")";
}

QualType tsTemplateArg(QualType T, llvm::StringRef Name, unsigned Index) {
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(tsRecord(T, Name));
  if (!Spec || Spec->getTemplateArgs().size() <= Index)
    return QualType();
  const TemplateArgument &A = Spec->getTemplateArgs()[Index];
  return A.getKind() == TemplateArgument::Type ? A.getAsType() : QualType();
}

std::vector<QualType> tsTemplateTypes(QualType T, llvm::StringRef Name) {
  std::vector<QualType> Out;
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(tsRecord(T, Name));
  if (!Spec)
    return Out;
  for (const TemplateArgument &A : Spec->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Type)
      Out.push_back(A.getAsType());
    else if (A.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &E : A.pack_elements())
        if (E.getKind() == TemplateArgument::Type)
          Out.push_back(E.getAsType());
  }
  return Out;
}

const Expr *stripExpr(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(Next);
        CE && CE->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(CE))
      Next = CE->getArg(0);
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = FC->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const CallExpr *asPdlCall(const Expr *E, bool &IsWait) {
  const auto *C =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  const FunctionDecl *F = C ? C->getDirectCallee() : nullptr;
  if (!F)
    return nullptr;
  IsWait = isTsDecl(F, "pdl_wait");
  return IsWait || isTsDecl(F, "pdl_launch_dependents") ? C : nullptr;
}

std::string sourceText(const ASTContext &Ctx, SourceRange R) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange CR = CharSourceRange::getTokenRange(R);
  CR = Lexer::makeFileCharRange(CR, SM, Ctx.getLangOpts());
  if (CR.isInvalid())
    return "";
  return Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str();
}

std::string exprText(const ASTContext &Ctx, const Expr *E) {
  std::string Text = sourceText(Ctx, E->getSourceRange());
  if (!Text.empty())
    return Text;
  // Written inside a macro body: no file range, so print the expression.
  llvm::raw_string_ostream OS(Text);
  E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  return OS.str();
}

} // namespace ts
