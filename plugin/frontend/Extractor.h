//===- Extractor.h - AST to model, shared by its parts ----------*- C++ -*-===//
//
// Internal to the front end: one Extractor reads resources, tasks and
// kernels (each in its own file) into an Extraction.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_EXTRACTOR_H
#define LIBTS_FRONTEND_EXTRACTOR_H

#include "frontend/Extract.h"

#include "clang/AST/APValue.h"

#include <map>
#include <optional>
#include <set>

namespace ts {

class Extractor {
public:
  Extractor(clang::ASTContext &Ctx, bool Generated) : Ctx(Ctx), Generated(Generated) {}
  Extraction run(const std::vector<SeenAttr> &Attrs);

private:
  void resource(const SeenAttr &A);
  void task(const SeenAttr &A);
  bool ownedParam(const clang::ParmVarDecl *P, Task &T, TaskParam &TP);
  void kernel(const SeenAttr &A);
  std::optional<clang::APValue> evaluate(const clang::Expr *E, const char *What);
  std::vector<const clang::Expr *> exprArgs(const SeenAttr &A, const char *What);
  std::optional<unsigned> resourceOf(clang::QualType T, clang::SourceLocation Loc);
  /// The resources named by `ts::Template<Rs...>`; nullopt after an error.
  std::optional<std::vector<unsigned>> resourceList(clang::QualType Ty,
                                                    llvm::StringRef Template,
                                                    clang::SourceLocation L);
  /// ts::alias, ts::grid_dependent, ts::pdl_waited, ts::trip_bound,
  /// ts::cluster_shape: false
  /// for other arguments.
  bool kernelOption(const clang::Expr *E, clang::SourceLocation L, Kernel &K);
  void aliasOption(clang::QualType Ty, clang::SourceLocation L, Kernel &K);
  void clusterOption(const clang::Expr *E, clang::SourceLocation L, Kernel &K);
  /// False (after an error at L) when `What` was already given in this
  /// attribute: every argument is used once or rejected, never overridden.
  bool firstTime(std::map<std::string, clang::SourceLocation> &Given,
                 const std::string &What, clang::SourceLocation L);
  void error(clang::SourceLocation L, std::string Msg, std::string Note,
             clang::SourceLocation NoteLoc = clang::SourceLocation());
  std::string qualified(const clang::NamedDecl *D) const;
  static int64_t field(const clang::APValue &V, unsigned I) {
    return V.getStructField(I).getInt().getExtValue();
  }

  clang::ASTContext &Ctx;
  bool Generated;
  Extraction X;
  std::map<const clang::Decl *, unsigned> ResourceIndex;
  /// Structs carrying [[ts::resource]], valid or not: a rejected one was
  /// reported at its attribute, not again at every use.
  std::set<const clang::Decl *> Attributed;
  std::map<const clang::Decl *, unsigned> TaskIndex;
};

} // namespace ts

#endif
