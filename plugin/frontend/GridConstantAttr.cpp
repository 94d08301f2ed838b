//===- GridConstantAttr.cpp - __grid_constant__ for clang 19 --------------===//
//
// CUDA 13's headers spell __grid_constant__ as __attribute__((grid_constant)),
// which clang 19 does not know: without this, every kernel that takes a TMA
// descriptor would warn "unknown attribute" twice (the user's declaration
// and its definition). nvcc compiles the rewrite and honours the attribute;
// libts reads it from the tokens (GridConstant.h), so nothing is attached.
//
//===----------------------------------------------------------------------===//
#include "clang/AST/Decl.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace ts {
namespace {

struct GridConstantInfo : public ParsedAttrInfo {
  GridConstantInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "grid_constant"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    if (isa<ParmVarDecl>(D))
      return true;
    unsigned ID = S.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error,
        "__grid_constant__ applies only to parameters of a __global__ "
        "function");
    S.Diag(A.getLoc(), ID);
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    if (cast<ParmVarDecl>(D)->getType().isConstQualified())
      return AttributeApplied;
    unsigned ID = S.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error,
        "__grid_constant__ parameter must be const-qualified");
    unsigned Note = S.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Note,
        "nvcc refuses it too: write 'const __grid_constant__ T name'");
    S.Diag(A.getLoc(), ID);
    S.Diag(D->getLocation(), Note);
    return AttributeNotApplied;
  }
};

} // namespace

static ParsedAttrInfoRegistry::Add<GridConstantInfo>
    RegGridConstant("ts-grid-constant", "__grid_constant__ (CUDA 13 headers)");

} // namespace ts
