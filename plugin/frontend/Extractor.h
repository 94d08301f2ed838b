//===- Extractor.h - AST to model, shared by its parts ----------*- C++ -*-===//
//
// Internal to the front end: one Extractor reads resources, tasks and
// kernels (each in its own file) into an Extraction.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_EXTRACTOR_H
#define LIBTS_FRONTEND_EXTRACTOR_H

#include "frontend/Extract.h"
#include "frontend/Options.h"
#include "frontend/Schedule.h"

#include "clang/AST/APValue.h"

#include <map>
#include <optional>
#include <set>

namespace ts {

class Extractor {
public:
  Extractor(clang::ASTContext &Ctx, const clang::Preprocessor &PP,
            bool Generated)
      : Ctx(Ctx), PP(PP), Generated(Generated) {}
  Extraction run(const std::vector<SeenAttr> &Attrs);

private:
  void resource(const SeenAttr &A);
  /// What the arguments of one [[ts::resource]] gave so far.
  struct ResourceSeen {
    bool Kind = false, Tx = false;
    bool KindBad = false; ///< An invalid kind, reported.
    std::map<std::string, clang::SourceLocation> Given;
  };
  void resourceOption(const clang::Expr *E, Resource &R, ResourceSeen &Seen);
  void tmemOption(const clang::Expr *E, clang::SourceLocation L, Resource &R,
                  ResourceSeen &Seen);
  /// ts::tmem on a kind or payload that cannot live in tensor memory.
  void tmemConsistency(const SeenAttr &A, const clang::CXXRecordDecl *RD,
                       const Resource &R, const ResourceSeen &Seen);
  /// ts::cta_pair only on the tcgen05 kinds a pair splits, and not with
  /// the groups whose counts a pair would change.
  void pairConsistency(const Resource &R, const ResourceSeen &Seen);
  /// A ts::clc_async payload is exactly a ts::clc::response, and only its
  /// payload is one (the runtime reads the response by the type).
  void clcConsistency(const clang::CXXRecordDecl *RD, const Resource &R,
                      const ResourceSeen &Seen);
  /// The payload is plain data a stage can hold unconstructed (errors if not).
  bool payloadIsPlainData(const clang::CXXRecordDecl *RD, const Resource &R);
  /// Payload size, alignment and members.
  void payloadLayout(const clang::CXXRecordDecl *RD, Resource &R);
  /// Options that contradict the kind or the payload.
  void resourceConsistency(const SeenAttr &A, const clang::CXXRecordDecl *RD,
                           const Resource &R, const ResourceSeen &Seen);
  void task(const SeenAttr &A);
  void taskOption(const clang::Expr *E, Task &T, bool &HaveWarps,
                  std::map<std::string, clang::SourceLocation> &Given);
  /// A function libts can inline as a task (errors if not).
  bool taskDeclarationOk(const clang::FunctionDecl *FD,
                         const clang::FunctionDecl *Def, const Task &T);
  void taskParams(const clang::FunctionDecl *Def, Task &T,
                  std::map<const clang::ParmVarDecl *, HandleParam> &Handles);
  /// A producer or consumer handle parameter; false after an error.
  bool handleParam(const clang::ParmVarDecl *P, bool IsProd, Task &T,
                   TaskParam &TP,
                   std::map<const clang::ParmVarDecl *, HandleParam> &Handles);
  bool ownedParam(const clang::ParmVarDecl *P, Task &T, TaskParam &TP);
  bool turnParam(const clang::ParmVarDecl *P, Task &T, TaskParam &TP,
                 std::map<const clang::ParmVarDecl *, HandleParam> &Handles);
  void kernel(const SeenAttr &A);
  /// [[ts::async_reader]]: stands alone, on a plain function.
  void asyncReader(const SeenAttr &A);
  /// The kernel's declaration is one libts can give a body (errors if not).
  bool kernelDeclarationOk(const clang::FunctionDecl *FD, const Kernel &K);
  /// Spellings of the declaration; Ok becomes false after an error.
  KernelSource kernelSource(const clang::FunctionDecl *FD, const Kernel &K,
                            bool &Ok);
  /// A parameter as the definition repeats it (without a default argument).
  std::optional<std::string> kernelParamText(const clang::ParmVarDecl *P);
  /// A kernel parameter that holds a TMA descriptor is __grid_constant__.
  bool descriptorParamOk(const clang::ParmVarDecl *P);
  void kernelArg(const SeenArg &Arg, const clang::FunctionDecl *FD, Kernel &K,
                 std::map<std::string, clang::SourceLocation> &Given);
  void kernelTask(const clang::FunctionDecl *TF, clang::SourceLocation L,
                  const clang::FunctionDecl *FD, Kernel &K);
  /// Value parameters of a task bind to the kernel's by name and type.
  void bindTaskParams(const Task &T, const clang::FunctionDecl *TF,
                      const clang::FunctionDecl *FD, const Kernel &K);
  /// The ';' ending the declaration, where the generated text goes;
  /// invalid after an error.
  clang::SourceLocation kernelSemi(const clang::FunctionDecl *FD,
                                   const Kernel &K);
  std::optional<clang::APValue> evaluate(const clang::Expr *E,
                                         const char *What);
  /// Parses E (at L) if it is one of the rows' options; false if none.
  template <class Entity>
  bool intOption(const std::vector<IntOption<Entity>> &Rows,
                 const clang::Expr *E, clang::SourceLocation L, Entity &Out,
                 std::map<std::string, clang::SourceLocation> &Given);
  std::vector<const clang::Expr *> exprArgs(const SeenAttr &A,
                                            const char *What);
  std::optional<unsigned> resourceOf(clang::QualType T,
                                     clang::SourceLocation Loc);
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
  void targetOption(const clang::Expr *E, clang::SourceLocation L, Kernel &K);
  /// False (after an error at L) when `What` was already given in this
  /// attribute: every argument is used once or rejected, never overridden.
  bool firstTime(std::map<std::string, clang::SourceLocation> &Given,
                 const std::string &What, clang::SourceLocation L);
  void unfollowedCalls(const clang::FunctionDecl *Def, const Task &T);
  void error(clang::SourceLocation L, std::string Msg, std::string Note,
             clang::SourceLocation NoteLoc = clang::SourceLocation());
  std::string qualified(const clang::NamedDecl *D) const;
  static int64_t field(const clang::APValue &V, unsigned I) {
    return V.getStructField(I).getInt().getExtValue();
  }

  clang::ASTContext &Ctx;
  const clang::Preprocessor &PP;
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
