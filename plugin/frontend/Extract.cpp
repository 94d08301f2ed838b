//===- Extract.cpp - AST to model -----------------------------------------===//
//
// Reads the recorded [[ts::...]] attributes: resources first (tasks refer to
// them), then tasks, then kernels. Every malformed input becomes a ts-syntax
// diagnostic at the offending expression with a note saying how to fix it.
//
//===----------------------------------------------------------------------===//
#include "frontend/DiagEmitter.h"
#include "frontend/Extractor.h"
#include "frontend/Schedule.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ts {

/// "::a::name", leaving out anonymous namespaces (which cannot be spelled;
/// lookup finds their members from the enclosing scope).
std::string Extractor::qualified(const NamedDecl *D) const {
  PrintingPolicy Policy = Ctx.getPrintingPolicy();
  Policy.SuppressUnwrittenScope = true;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  D->printQualifiedName(OS, Policy);
  return "::" + OS.str();
}

void Extractor::error(SourceLocation L, std::string Msg, std::string Note,
                      SourceLocation NoteLoc) {
  Diag D{Check::Syntax, toHandle(L), std::move(Msg), {}};
  if (!Note.empty())
    D.Notes.push_back(
        {toHandle(NoteLoc.isValid() ? NoteLoc : L), std::move(Note)});
  X.Diags.push_back(std::move(D));
}

std::vector<const Expr *> Extractor::exprArgs(const SeenAttr &A,
                                              const char *What) {
  std::vector<const Expr *> Out;
  for (const SeenArg &Arg : A.Args) {
    if (Arg.E)
      Out.push_back(Arg.E);
    else
      error(Arg.Loc,
            "unexpected name '" + Arg.Spelling + "' in [[" + What + "]]",
            std::string("[[") + What +
                "]] takes ts:: values such as ts::stages(4)");
  }
  return Out;
}

std::optional<APValue> Extractor::evaluate(const Expr *E, const char *What) {
  Expr::EvalResult R;
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->EvaluateAsRValue(R, Ctx) || R.HasSideEffects) {
    error(E->getExprLoc(),
          std::string("argument of ") + What + " is not a constant expression",
          "write the value as a literal or a constexpr expression");
    return std::nullopt;
  }
  return R.Val;
}

bool Extractor::firstTime(std::map<std::string, SourceLocation> &Given,
                          const std::string &What, SourceLocation L) {
  auto [It, New] = Given.insert({What, L});
  if (!New)
    error(L, What + " is given twice", "keep one; the first is here",
          It->second);
  return New;
}

std::optional<unsigned> Extractor::resourceOf(QualType T, SourceLocation Loc) {
  const CXXRecordDecl *RD = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (RD) {
    if (auto It = ResourceIndex.find(RD->getCanonicalDecl());
        It != ResourceIndex.end())
      return It->second;
    const CXXRecordDecl *Pattern = RD;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD))
      if (const ClassTemplateDecl *TD = Spec->getSpecializedTemplate())
        Pattern = TD->getTemplatedDecl();
    if (Attributed.count(RD->getCanonicalDecl()) ||
        Attributed.count(Pattern->getCanonicalDecl()))
      return std::nullopt;
  }
  error(Loc,
        "'" +
            (T.isNull() ? std::string("?")
                        : T.getAsString(Ctx.getPrintingPolicy())) +
            "' is not a libts resource",
        "declare it as 'struct [[ts::resource(ts::tma_async, ts::stages(N))]] "
        "Name { ... };' (or ts::gmem, ts::async_async)");
  return std::nullopt;
}

Extraction Extractor::run(const std::vector<SeenAttr> &Attrs) {
  // One attribute of each kind per entity, over all its redeclarations.
  std::map<std::pair<AttrKind, const Decl *>, const SeenAttr *> First;
  std::set<const SeenAttr *> Repeated;
  for (const SeenAttr &A : Attrs) {
    auto [It, New] = First.insert({{A.Kind, A.D->getCanonicalDecl()}, &A});
    if (New)
      continue;
    Repeated.insert(&A);
    const char *Name = attrName(A.Kind);
    std::string Entity =
        isa<NamedDecl>(A.D) ? cast<NamedDecl>(A.D)->getNameAsString() : "";
    error(A.Range.getBegin(),
          std::string("[[") + Name + "]] is given twice for '" + Entity + "'",
          std::string("keep only the first [[") + Name + "]]",
          It->second->Range.getBegin());
  }
  for (AttrKind Pass : {AttrKind::Resource, AttrKind::Task, AttrKind::Kernel,
                        AttrKind::AsyncReader})
    for (const SeenAttr &A : Attrs)
      if (A.Kind == Pass && !A.D->isInvalidDecl() && !Repeated.count(&A)) {
        if (Pass == AttrKind::Resource)
          resource(A);
        else if (Pass == AttrKind::Task)
          task(A);
        else if (Pass == AttrKind::Kernel)
          kernel(A);
        else
          asyncReader(A);
      }
  return std::move(X);
}

Extraction extract(ASTContext &Ctx, const Preprocessor &PP,
                   const std::vector<SeenAttr> &Attrs, bool GeneratedMode) {
  return Extractor(Ctx, PP, GeneratedMode).run(Attrs);
}

} // namespace ts
