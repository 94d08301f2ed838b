//===- ExtractTask.cpp - [[ts::task]] to Task -----------------------------===//
#include "frontend/Collectives.h"
#include "frontend/DiagEmitter.h"
#include "frontend/Extractor.h"
#include "frontend/HiddenCalls.h"
#include "frontend/Schedule.h"
#include "frontend/TmaStores.h"
#include "frontend/Vocabulary.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace ts {

/// always_inline as the user wrote it (the generating compile adds an
/// implicit one, which the emitted text must still spell out).
static bool writtenAlwaysInline(const FunctionDecl *FD) {
  for (const AlwaysInlineAttr *A : FD->specific_attrs<AlwaysInlineAttr>())
    if (!A->isImplicit())
      return true;
  return false;
}

/// `ts::owned<R> name`: R must be a ts::task_owned resource, taken once.
bool Extractor::ownedParam(const ParmVarDecl *P, Task &T, TaskParam &TP) {
  if (P->getType()->isReferenceType()) {
    error(P->getLocation(), "take task-owned memory by value",
          "write 'ts::owned<R> " + TP.Name + "'");
    return false;
  }
  auto Res = resourceOf(tsTemplateArg(P->getType(), "owned"), P->getLocation());
  if (!Res)
    return false;
  const Resource &R = X.P.Resources[*Res];
  if (R.Kind != PipelineKind::TaskOwned) {
    error(P->getLocation(),
          "ts::owned<" + R.Name + ">: '" + R.Name +
              "' is a ts::" + pipelineKindName(R.Kind) + " resource",
          "declare it [[ts::resource(ts::task_owned)]], or take a producer or "
          "consumer "
          "handle of it",
          fromHandle(R.Loc));
    return false;
  }
  if (T.owns(*Res)) {
    error(P->getLocation(),
          "task '" + T.Name + "' takes '" + R.Name + "' twice",
          "one ts::owned parameter per resource");
    return false;
  }
  T.Owns.push_back(*Res);
  TP.K = TaskParam::Kind::Owned;
  TP.Resource = *Res;
  return true;
}

/// `ts::turn<R, Pos> name`: a place in the ring of a ts::turns resource.
bool Extractor::turnParam(const ParmVarDecl *P, Task &T, TaskParam &TP,
                          std::map<const ParmVarDecl *, HandleParam> &Handles) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      tsRecord(P->getType(), "turn"));
  auto Res = resourceOf(tsTemplateArg(P->getType(), "turn"), P->getLocation());
  if (!Spec || !Res)
    return false;
  const Resource &R = X.P.Resources[*Res];
  if (R.Kind != PipelineKind::Turns) {
    error(P->getLocation(),
          "ts::turn<" + R.Name + ", ...>: '" + R.Name +
              "' is a ts::" + pipelineKindName(R.Kind) + " resource",
          "declare it [[ts::resource(ts::turns)]], an empty struct that names "
          "the turn",
          fromHandle(R.Loc));
    return false;
  }
  const TemplateArgument &Pos = Spec->getTemplateArgs()[1];
  if (Pos.getKind() != TemplateArgument::Integral) {
    error(P->getLocation(), "the position of ts::turn is not a constant",
          "write ts::turn<" + R.Name + ", 0> for the task that goes first");
    return false;
  }
  if (std::any_of(T.Params.begin(), T.Params.end(), [&](const TaskParam &X) {
        return X.K == TaskParam::Kind::Turn && X.Resource == *Res;
      })) {
    error(P->getLocation(),
          "task '" + T.Name + "' takes two places in the ring of '" + R.Name +
              "'",
          "one ts::turn parameter per turns resource");
    return false;
  }
  TP.K = TaskParam::Kind::Turn;
  TP.Resource = *Res;
  TP.R = Role::Turn;
  TP.Position = unsigned(Pos.getAsIntegral().getZExtValue());
  Handles[P] = {Role::Turn, *Res};
  return true;
}

void Extractor::taskOption(const Expr *E, Task &T, bool &HaveWarps,
                           std::map<std::string, SourceLocation> &Given) {
  QualType Ty = E->getType();
  SourceLocation L = E->getExprLoc();
  if (intOption(taskIntOptions(), E, L, T, Given)) {
    if (tsRecord(Ty, "regs_t") && !T.RegsLoc)
      T.RegsLoc = toHandle(L); // the budget's findings point at it
    return;
  }
  if (tsRecord(Ty, "warps_t")) {
    HaveWarps = true; // reported below if malformed, never as missing
    if (!firstTime(Given, "ts::warps", L))
      return;
    if (auto V = evaluate(E, "ts::warps")) {
      int64_t First = field(*V, 0), Count = field(*V, 1);
      if (First < 0 || Count < 1 || First + Count > 32)
        error(L,
              "ts::warps(" + std::to_string(First) + ", " +
                  std::to_string(Count) +
                  ") is not a warp range inside a block",
              "a block has at most 32 warps: ts::warps(first, count) needs "
              "first >= 0, count >= 1, first + count <= 32");
      else {
        T.FirstWarp = unsigned(First);
        T.NumWarps = unsigned(Count);
      }
    }
  } else {
    error(L, "unexpected argument to [[ts::task]]",
          "expected ts::warps(first, count), ts::regs(N) or ts::cta(rank)");
  }
}

bool Extractor::taskDeclarationOk(const FunctionDecl *FD,
                                  const FunctionDecl *Def, const Task &T) {
  if (!Def) {
    error(FD->getLocation(),
          "task '" + T.Name + "' has no definition in this file",
          "define the task function in the translation unit that declares its "
          "kernel");
    return false;
  }
  if (isa<CXXMethodDecl>(FD) ||
      FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate) {
    error(FD->getLocation(),
          "task '" + T.Name + "' must be a non-template free function",
          isa<CXXMethodDecl>(FD)
              ? "make it a plain __device__ function outside any class"
              : "make it a plain __device__ function; " + templateTaskNote(FD));
    return false;
  }
  if (FD->isVariadic()) {
    error(FD->getLocation(), "task '" + T.Name + "' is variadic",
          "list the parameters the task takes; they bind to kernel parameters "
          "by name");
    return false;
  }
  if (!Def->hasAttr<CUDADeviceAttr>())
    error(FD->getLocation(),
          "task '" + T.Name + "' is not a __device__ function",
          "declare it '__device__ void " + T.Name + "(...)'");

  return true;
}

bool Extractor::handleParam(
    const ParmVarDecl *P, bool IsProd, Task &T, TaskParam &TP,
    std::map<const ParmVarDecl *, HandleParam> &Handles) {
  QualType PT = P->getType();
  Role R = IsProd ? Role::Producer : Role::Consumer;
  if (PT->isReferenceType()) {
    error(P->getLocation(), "take pipeline handles by value",
          "write 'ts::" + std::string(IsProd ? "producer" : "consumer") +
              "<R> " + TP.Name + "'");
    return false;
  }
  auto Res = resourceOf(tsTemplateArg(PT, IsProd ? "producer" : "consumer"),
                        P->getLocation());
  if (!Res)
    return false;
  TP.K = TaskParam::Kind::Handle;
  TP.R = R;
  TP.Resource = *Res;
  std::vector<unsigned> &Side = IsProd ? T.Produces : T.Consumes;
  if (std::find(Side.begin(), Side.end(), *Res) != Side.end()) {
    error(P->getLocation(),
          "task '" + T.Name + "' has two " +
              (IsProd ? "producer" : "consumer") + " handles for '" +
              X.P.Resources[*Res].Name + "'",
          "one handle per resource and role");
    return false;
  }
  if (X.P.Resources[*Res].Kind == PipelineKind::TaskOwned) {
    error(P->getLocation(),
          "'" + X.P.Resources[*Res].Name +
              "' is task-owned shared memory, not a pipeline",
          "take it as 'ts::owned<" + X.P.Resources[*Res].Name + "> " + TP.Name +
              "'");
    return false;
  }
  Side.push_back(*Res);
  Handles[P] = {R, *Res, X.P.Resources[*Res].Kind == PipelineKind::ClcAsync};
  return true;
}

void Extractor::taskParams(
    const FunctionDecl *Def, Task &T,
    std::map<const ParmVarDecl *, HandleParam> &Handles) {
  for (const ParmVarDecl *P : Def->parameters()) {
    TaskParam TP;
    TP.Name = P->getNameAsString();
    TP.Loc = toHandle(P->getLocation());
    QualType PT = P->getType();
    bool IsProd = tsRecord(PT, "producer"), IsCons = tsRecord(PT, "consumer");
    if (IsProd || IsCons) {
      if (!handleParam(P, IsProd, T, TP, Handles))
        continue;
    } else if (tsRecord(PT, "owned")) {
      if (!ownedParam(P, T, TP))
        continue;
    } else if (tsRecord(PT, "turn")) {
      if (P->getType()->isReferenceType()) {
        error(P->getLocation(), "take a turn by value",
              "write 'ts::turn<R, Pos> " + TP.Name + "'");
        continue;
      }
      if (!turnParam(P, T, TP, Handles))
        continue;
    } else if (TP.Name.empty()) {
      error(P->getLocation(), "task parameter needs a name",
            "non-handle parameters bind to the kernel parameter of the same "
            "name");
      continue;
    }
    T.Params.push_back(std::move(TP));
  }
}

/// Calls the verifier's walks cannot see into: refused, not trusted.
void Extractor::unfollowedCalls(const FunctionDecl *Def, const Task &T) {
  if (const CallExpr *C = indirectCall(Def->getBody()))
    error(C->getBeginLoc(),
          "task '" + T.Name + "'" +
              " calls a function through a pointer, which the verifier "
              "cannot follow",
          "call the function by name (a helper, a lambda or a function "
          "object), so that its stage operations and MMAs can be checked");
  if (const CallExpr *C = tooDeepCall(Def->getBody()))
    error(C->getBeginLoc(),
          "task '" + T.Name +
              "' reaches helper functions nested more "
              "than " +
              std::to_string(MaxHelperDepth) +
              " calls deep here, which the verifier does not follow",
          "call fewer levels of helpers from the task");
}

void Extractor::task(const SeenAttr &A) {
  const auto *FD = cast<FunctionDecl>(A.D);
  const FunctionDecl *Def = FD->getDefinition();
  Task T;
  T.Name = FD->getNameAsString();
  T.Loc = toHandle(FD->getLocation());
  bool HaveWarps = false;
  std::map<std::string, SourceLocation> Given;
  for (const Expr *E : exprArgs(A, "ts::task"))
    taskOption(E, T, HaveWarps, Given);
  if (!HaveWarps)
    error(A.Range.getBegin(), "[[ts::task]] needs a warp range",
          "add ts::warps(first, count)");
  if (!taskDeclarationOk(FD, Def, T))
    return;
  std::map<const ParmVarDecl *, HandleParam> Handles;
  taskParams(Def, T, Handles);
  extractSchedule(Ctx, Def, Handles, T, X.Diags);
  extractStores(Ctx, Def, T);
  extractCollectives(Ctx.getSourceManager(), Def, T);
  unfollowedCalls(Def, T);

  TaskIndex[FD->getCanonicalDecl()] = unsigned(X.P.Tasks.size());
  X.TaskSrc.push_back({qualified(FD)});
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation Inline = Def->getTypeSpecStartLoc();
  X.TaskInline.push_back(Inline.isValid() && Inline.isFileID() &&
                                 SM.isInMainFile(Inline) &&
                                 !writtenAlwaysInline(Def)
                             ? Inline
                             : SourceLocation());
  X.P.Tasks.push_back(std::move(T));
}

} // namespace ts
