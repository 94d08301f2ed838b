//===- TmaBox.cpp - The box a TMA descriptor moves ------------------------===//
#include "frontend/TmaBox.h"

#include "clang/AST/DeclTemplate.h"

using namespace clang;

namespace ts {

namespace {

bool inNamespace(const DeclContext *DC, llvm::StringRef Name) {
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  return NS && NS->getIdentifier() && NS->getName() == Name;
}

/// ts::tma::map<...> or ts::tma::im2col_map<...> itself (not a class
/// derived from it).
const ClassTemplateSpecializationDecl *typedMap(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getCanonicalType()->getAsCXXRecordDecl());
  if (!Spec || (Spec->getName() != "map" && Spec->getName() != "im2col_map"))
    return nullptr;
  const DeclContext *DC = Spec->getDeclContext();
  return inNamespace(DC, "tma") && inNamespace(DC->getParent(), "ts") &&
                 DC->getParent()->getParent()->isTranslationUnit()
             ? Spec
             : nullptr;
}

} // namespace

std::optional<uint64_t> typedBoxBytes(const ASTContext &Ctx, const Expr *Map) {
  const ClassTemplateSpecializationDecl *Spec =
      typedMap(Map->IgnoreParenImpCasts()->getType());
  if (!Spec || Spec->getTemplateArgs().size() < 2)
    return std::nullopt;
  const TemplateArgument &Elem = Spec->getTemplateArgs()[0];
  if (Elem.getKind() != TemplateArgument::Type ||
      Elem.getAsType()->isDependentType() ||
      Elem.getAsType()->isIncompleteType())
    return std::nullopt;
  // map<T, E...>: the extents in a pack; im2col_map<T, Pixels, Channels>.
  const TemplateArgument &Second = Spec->getTemplateArgs()[1];
  llvm::ArrayRef<TemplateArgument> Extents =
      Second.getKind() == TemplateArgument::Pack
          ? Second.pack_elements()
          : Spec->getTemplateArgs().asArray().drop_front();
  uint64_t Bytes = Ctx.getTypeSizeInChars(Elem.getAsType()).getQuantity();
  for (const TemplateArgument &E : Extents) {
    if (E.getKind() != TemplateArgument::Integral)
      return std::nullopt;
    Bytes *= E.getAsIntegral().getZExtValue();
  }
  return Bytes;
}

std::string mapTypeFor(const ASTContext &Ctx, QualType Dst) {
  std::string Extents;
  unsigned Rank = 0;
  while (const ConstantArrayType *A = Ctx.getAsConstantArrayType(Dst)) {
    if (A->getSize().getZExtValue() > 256) // past TMA's widest box
      return "";
    Extents += ", " + std::to_string(A->getSize().getZExtValue());
    Dst = A->getElementType();
    ++Rank;
  }
  if (Rank == 0 || Rank > 5 || Dst->isDependentType())
    return "";
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  return "ts::tma::map<" + Dst.getUnqualifiedType().getAsString(Policy) +
         Extents + ">";
}

} // namespace ts
