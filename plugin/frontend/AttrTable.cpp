//===- AttrTable.cpp - Attribute registration ------------------------------===//
#include "frontend/AttrTable.h"

#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace ts {

std::vector<SeenAttr> &seenAttrs() {
  static std::vector<SeenAttr> Table;
  return Table;
}

namespace {

template <AttrKind K> struct TsAttrInfo : public ParsedAttrInfo {
  static constexpr const char *bare() {
    return K == AttrKind::Resource ? "resource"
           : K == AttrKind::Task   ? "task"
                                   : "kernel";
  }
  static constexpr const char *scoped() {
    return K == AttrKind::Resource ? "ts::resource"
           : K == AttrKind::Task   ? "ts::task"
                                   : "ts::kernel";
  }

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
    bool Ok = K == AttrKind::Resource ? isa<CXXRecordDecl>(D)
                                      : isa<FunctionDecl>(D);
    if (Ok)
      return true;
    unsigned ID = S.getDiagnostics().getCustomDiagID(
        DiagnosticsEngine::Error, "'%0' attribute only applies to %1");
    S.Diag(A.getLoc(), ID)
        << scoped()
        << (K == AttrKind::Resource ? "struct or class definitions"
            : K == AttrKind::Task   ? "__device__ functions"
                                    : "__global__ function declarations");
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    // A bare `[[task]]` (no ts:: scope) is not ours: leave it to clang.
    if (!A.hasScope())
      return NotHandled;
    SeenAttr Seen{K, D, A.getRange(), {}};
    for (unsigned I = 0, E = A.getNumArgs(); I != E; ++I) {
      SeenArg Arg;
      if (A.isArgIdent(I)) {
        IdentifierLoc *IL = A.getArgAsIdent(I);
        Arg.Loc = IL->Loc;
        Arg.Spelling = IL->Ident->getName().str();
        LookupResult R(S, IL->Ident, IL->Loc, Sema::LookupOrdinaryName);
        if (S.LookupName(R, S.getCurScope())) {
          if (R.isSingleResult())
            Arg.Named = R.getFoundDecl();
          else
            Arg.Overloaded = R.isOverloadedResult();
        }
      } else if (Expr *Ex = A.getArgAsExpr(I)) {
        Arg.E = Ex;
        Arg.Loc = Ex->getExprLoc();
      } else {
        continue;
      }
      Seen.Args.push_back(std::move(Arg));
    }
    seenAttrs().push_back(std::move(Seen));
    return AttributeApplied;
  }
};

} // namespace

// Registered when the plugin is loaded, before clang first asks which
// plugin attributes exist.
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Resource>>
    RegResource("ts-resource", "libts resource");
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Task>>
    RegTask("ts-task", "libts task");
static ParsedAttrInfoRegistry::Add<TsAttrInfo<AttrKind::Kernel>>
    RegKernel("ts-kernel", "libts kernel");

} // namespace ts
