//===- AttrTable.cpp - Attribute registration -----------------------------===//
#include "frontend/AttrTable.h"
#include "frontend/Inject.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace ts {

namespace {

const char *markerOf(AttrKind K) {
  switch (K) {
  case AttrKind::Resource:
    return "libts.resource";
  case AttrKind::Task:
    return "libts.task";
  case AttrKind::Kernel:
    return "libts.kernel";
  case AttrKind::AsyncReader:
    return "libts.async_reader";
  }
  return "";
}

/// A name that is no expression: its spelling, '#'-prefixed when lookup
/// found something that is not a value (a type, a namespace).
Expr *nameLiteral(ASTContext &Ctx, llvm::StringRef Text, SourceLocation Loc) {
  return StringLiteral::Create(
      Ctx, Text, StringLiteralKind::Ordinary, false,
      Ctx.getStringLiteralArrayType(Ctx.CharTy, Text.size()), Loc);
}

/// A bare identifier argument as an expression, looked up where the
/// attribute stands: a reference to the one value found, an unresolved
/// lookup for an overload set, else its spelling.
Expr *identifierArg(Sema &S, IdentifierLoc *IL) {
  ASTContext &Ctx = S.getASTContext();
  llvm::StringRef Name = IL->Ident->getName();
  LookupResult R(S, IL->Ident, IL->Loc, Sema::LookupOrdinaryName);
  if (!S.LookupName(R, S.getCurScope()))
    return nameLiteral(Ctx, Name, IL->Loc);
  if (R.isSingleResult()) {
    if (auto *VD = dyn_cast<ValueDecl>(R.getFoundDecl()))
      return S.BuildDeclRefExpr(VD, VD->getType().getNonReferenceType(),
                                VK_LValue, IL->Loc);
    return nameLiteral(Ctx, ("#" + Name).str(), IL->Loc);
  }
  if (R.isOverloadedResult()) {
    ExprResult E =
        S.BuildDeclarationNameExpr(CXXScopeSpec(), R, /*NeedsADL=*/false);
    if (E.isUsable())
      return E.get();
  }
  return nameLiteral(Ctx, Name, IL->Loc);
}

/// In a compile that generates: tasks are inlined into the kernel (as
/// __forceinline__ would), and each kernel asks for its definition.
template <AttrKind K> void prepareForGeneration(Sema &S, Decl *D) {
  auto *FD = dyn_cast<FunctionDecl>(D);
  if (!FD)
    return;
  if (K == AttrKind::Task) {
    FD->setImplicitlyInline();
    if (!FD->hasAttr<AlwaysInlineAttr>())
      FD->addAttr(AlwaysInlineAttr::CreateImplicit(S.getASTContext()));
  } else if (K == AttrKind::Kernel) {
    requestDefinition(S, FD);
  }
}

template <AttrKind K> struct TsAttrInfo : public ParsedAttrInfo {
  static constexpr const char *scoped() {
    return K == AttrKind::Resource ? "ts::resource"
           : K == AttrKind::Task   ? "ts::task"
           : K == AttrKind::Kernel ? "ts::kernel"
                                   : "ts::async_reader";
  }
  static constexpr const char *bare() { return scoped() + 4; }

  TsAttrInfo() {
    // Clang 19 decides whether to parse a plugin attribute's arguments by
    // looking up the unscoped name, so both spellings are registered.
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, scoped()},
                                     {ParsedAttr::AS_CXX11, bare()}};
    Spellings = S;
    OptArgs = 15;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    bool Ok =
        K == AttrKind::Resource ? isa<CXXRecordDecl>(D) : isa<FunctionDecl>(D);
    if (Ok)
      return true;
    unsigned ID = S.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error, "'%0' attribute only applies to %1");
    S.Diag(A.getLoc(), ID) << scoped()
                           << (K == AttrKind::Resource
                                   ? "struct or class definitions"
                               : K == AttrKind::Task ? "__device__ functions"
                               : K == AttrKind::Kernel
                                   ? "__global__ function declarations"
                                   : "functions");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    // A bare `[[task]]` (no ts:: scope) is not ours: leave it to clang.
    if (!A.hasScope())
      return NotHandled;
    // A function declared in a function belongs to the namespace
    // semantically; where it was written is the lexical context.
    if (D->getLexicalDeclContext()->isFunctionOrMethod()) {
      unsigned ID = S.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Error, "[[%0]] on a declaration at block scope");
      unsigned Note = S.getDiagnostics().getCustomDiagID(
          DiagnosticsEngine::Note,
          "declare it at namespace scope, outside any function");
      S.Diag(A.getLoc(), ID) << scoped();
      S.Diag(A.getLoc(), Note);
      return AttributeApplied;
    }
    ASTContext &Ctx = S.getASTContext();
    llvm::SmallVector<Expr *, 8> Args{
        nameLiteral(Ctx, markerOf(K), A.getLoc())};
    for (unsigned I = 0, E = A.getNumArgs(); I != E; ++I) {
      if (A.isArgIdent(I))
        Args.push_back(identifierArg(S, A.getArgAsIdent(I)));
      else if (Expr *Ex = A.getArgAsExpr(I))
        Args.push_back(Ex);
    }
    D->addAttr(AnnotateAttr::CreateWithDelayedArgs(Ctx, Args.data(),
                                                   Args.size(), A.getRange()));
    if (injecting(S))
      prepareForGeneration<K>(S, D);
    return AttributeApplied;
  }
};

/// Our record of one attribute, back from its annotate attribute.
std::optional<SeenAttr> readBack(Decl *D, const AnnotateAttr *AA) {
  if (AA->isInherited() || !AA->delayedArgs_size())
    return std::nullopt;
  Expr *const *Args = AA->delayedArgs_begin();
  const auto *Marker = dyn_cast<StringLiteral>(Args[0]);
  if (!Marker)
    return std::nullopt;
  SeenAttr Seen;
  Seen.D = D;
  Seen.Range = AA->getRange();
  std::optional<AttrKind> Kind;
  for (AttrKind K : {AttrKind::Resource, AttrKind::Task, AttrKind::Kernel,
                     AttrKind::AsyncReader})
    if (Marker->getString() == markerOf(K))
      Kind = K;
  if (!Kind)
    return std::nullopt;
  Seen.Kind = *Kind;
  for (unsigned I = 1; I < AA->delayedArgs_size(); ++I) {
    SeenArg Arg;
    Arg.Loc = Args[I]->getExprLoc();
    if (const auto *SL = dyn_cast<StringLiteral>(Args[I])) {
      Arg.Spelling = SL->getString().str();
      Arg.NotAValue = !Arg.Spelling.empty() && Arg.Spelling[0] == '#';
      if (Arg.NotAValue)
        Arg.Spelling.erase(0, 1);
    } else if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Args[I]);
               ULE && !llvm::any_of(ULE->decls(), [](const NamedDecl *N) {
                 return isa<FunctionTemplateDecl>(N->getUnderlyingDecl());
               })) {
      Arg.Spelling = ULE->getName().getAsString();
      Arg.Overloaded = true;
    } else {
      Arg.E = Args[I];
    }
    Seen.Args.push_back(std::move(Arg));
  }
  return Seen;
}

void visit(Decl *D, std::vector<SeenAttr> &Out) {
  for (const AnnotateAttr *AA : D->specific_attrs<AnnotateAttr>())
    if (auto Seen = readBack(D, AA))
      Out.push_back(std::move(*Seen));
}

/// Namespaces, linkage blocks and classes, in declaration order; function
/// bodies hold none (block scope is an error at the attribute).
void walk(DeclContext *DC, std::vector<SeenAttr> &Out) {
  for (Decl *D : DC->decls()) {
    visit(D, Out);
    if (auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
      visit(FTD->getTemplatedDecl(), Out);
    if (auto *CTD = dyn_cast<ClassTemplateDecl>(D)) {
      visit(CTD->getTemplatedDecl(), Out);
      walk(CTD->getTemplatedDecl(), Out);
    }
    if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
        isa<ExportDecl>(D) ||
        (isa<CXXRecordDecl>(D) &&
         cast<CXXRecordDecl>(D)->isThisDeclarationADefinition()))
      walk(cast<DeclContext>(D), Out);
  }
}

} // namespace

std::vector<SeenAttr> collectAttrs(ASTContext &Ctx) {
  std::vector<SeenAttr> Out;
  walk(Ctx.getTranslationUnitDecl(), Out);
  return Out;
}

void dropTsAttrs(Decl *D, bool InheritedOnly) {
  if (D->hasAttrs()) {
    AttrVec &Attrs = D->getAttrs();
    llvm::erase_if(Attrs, [&](Attr *A) {
      const auto *AA = dyn_cast<AnnotateAttr>(A);
      if (!AA || !AA->delayedArgs_size() ||
          (InheritedOnly && !AA->isInherited()))
        return false;
      const auto *Marker = dyn_cast<StringLiteral>(*AA->delayedArgs_begin());
      return Marker && Marker->getString().starts_with("libts.");
    });
  }
  if (auto *FTD = dyn_cast<FunctionTemplateDecl>(D))
    dropTsAttrs(FTD->getTemplatedDecl(), InheritedOnly);
  if (auto *CTD = dyn_cast<ClassTemplateDecl>(D))
    dropTsAttrs(CTD->getTemplatedDecl(), InheritedOnly);
  if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) || isa<ExportDecl>(D) ||
      (isa<CXXRecordDecl>(D) &&
       cast<CXXRecordDecl>(D)->isThisDeclarationADefinition()))
    for (Decl *Inner : cast<DeclContext>(D)->decls())
      dropTsAttrs(Inner, InheritedOnly);
}

void dropTsAttrs(ASTContext &Ctx) {
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    dropTsAttrs(D, false);
}

std::optional<AttrKind> tsAttrKind(const Decl *D) {
  for (const AnnotateAttr *AA : D->specific_attrs<AnnotateAttr>())
    if (auto Seen = readBack(const_cast<Decl *>(D), AA))
      return Seen->Kind;
  return std::nullopt;
}

bool isAsyncReader(const FunctionDecl *F) {
  if (!F)
    return false;
  if (const FunctionDecl *P = F->getTemplateInstantiationPattern())
    F = P;
  return llvm::any_of(F->redecls(), [](const FunctionDecl *R) {
    return tsAttrKind(R) == AttrKind::AsyncReader;
  });
}

const char *attrName(AttrKind K) {
  switch (K) {
  case AttrKind::Resource:
    return TsAttrInfo<AttrKind::Resource>::scoped();
  case AttrKind::Task:
    return TsAttrInfo<AttrKind::Task>::scoped();
  case AttrKind::Kernel:
    return TsAttrInfo<AttrKind::Kernel>::scoped();
  case AttrKind::AsyncReader:
    return TsAttrInfo<AttrKind::AsyncReader>::scoped();
  }
  return "";
}

// Registered when the plugin is loaded, before clang first asks which
// plugin attributes exist.
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Resource>>
    RegResource("ts-resource", "libts resource");
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Task>>
    RegTask("ts-task", "libts task");
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Kernel>>
    RegKernel("ts-kernel", "libts kernel");
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::AsyncReader>>
    RegAsyncReader("ts-async-reader", "libts asynchronous reader");

} // namespace ts
