//===- Walker.h - The walk of one task body (internal) ----------*- C++ -*-===//
//
// Internal to plugin/frontend: the walker that turns a task body into ops
// (Schedule.cpp), shared with the files that handle one kind of statement
// (CarriedStages.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_WALKER_H
#define LIBTS_FRONTEND_WALKER_H

#include "frontend/CarriedStages.h"
#include "frontend/Schedule.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <map>
#include <optional>
#include <set>
#include <string>

namespace ts {
namespace walk {

/// The note for an op the walk cannot follow: where ops may stand.
extern const char *const PositionHint;

struct StageRefs;

class Walker {
public:
  Walker(clang::ASTContext &Ctx,
         const std::map<const clang::ParmVarDecl *, HandleParam> &H, Task &T,
         DiagList &Diags)
      : Ctx(Ctx), Handles(H), T(T), Diags(Diags) {}

  void run(const clang::CompoundStmt *Body);

private:
  struct OpCall {
    const clang::CXXMemberCallExpr *Call;
    HandleParam H;
    OpKind Kind;
  };
  std::optional<OpCall> asOp(const clang::Expr *E);
  void takenIntoExisting(const StageAssign &A, const OpCall &Op);
  void escapedHandle(const clang::DeclRefExpr *R);
  std::optional<OpCall> statementOp(const clang::Stmt *S,
                                    const clang::VarDecl *&Bound);
  const clang::CXXForRangeStmt *asDomainLoop(const clang::Stmt *S);
  // Dynamic tile loops, `for (int u : ts::tiles(q[, fetch]))` (TileLoops.cpp).
  static const clang::CallExpr *tilesCall(const clang::CXXForRangeStmt *FR);
  void recordTiles(const clang::CallExpr *C, Domain &D);
  void tileExchange(clang::SourceLocation L);
  // Stream-K fix-up calls, `P.settle(sg, acc)` (Settles.cpp).
  std::string segmentsOf(const clang::Expr *End) const;
  bool segmentOfLoop(const clang::Expr *Arg, const std::string &P) const;
  SettleCall settleRecord(const clang::CXXMemberCallExpr *C) const;
  void settleStatement(const clang::Stmt *S);
  void checkSettles(const clang::CompoundStmt *Body);
  int newStageId() { return int(StageIds.size()) + SyntheticStages; }
  std::optional<Guard> asGuard(const clang::IfStmt *If);
  void statement(const clang::Stmt *S);
  bool pdlStatement(const clang::Stmt *S);
  bool mmaGroupStatement(const clang::Stmt *S);
  bool carryStatement(const clang::Stmt *S);
  void declareCarried(const clang::VarDecl *V);
  void assignCarried(const StageAssign &A);
  void pushCarry(clang::SourceLocation L, std::string Text,
                 const clang::VarDecl *To, int From);
  void checkStageAssigns(const clang::CompoundStmt *Body);
  void checkPdlPositions(const clang::CompoundStmt *Body);
  void misplaced(const clang::Stmt *Call, const clang::CompoundStmt *Body,
                 const std::string &What, const char *Hint);
  void guardedBody(const clang::Stmt *Then, Guard G);
  void recordDomain(const clang::CXXForRangeStmt *FR, Domain &D);
  void innerLoop(const clang::CXXForRangeStmt *FR);
  void body(const clang::Stmt *B);
  void bindOperands(const OpCall &Op, const clang::VarDecl *Bound, ts::Op &Rec);
  void deriveStages(const clang::Stmt *S, const StageRefs &Refs);
  bool carriesAddress(clang::QualType T, const clang::Expr *E) const;
  bool aggregateCarries(clang::QualType T, const clang::Expr *E) const;
  bool addressAssigned(const clang::Stmt *S);
  bool addressPassedOut(const clang::Stmt *S);
  bool hiddenAsync(const clang::Stmt *S);
  const clang::VarDecl *stageVar(const clang::Expr *E) const;
  const clang::CXXForRangeStmt *asDomainLoopWithHints(const clang::Stmt *S);
  void checkJumps(const clang::Stmt *S, bool InLoop, unsigned Breakable,
                  unsigned Continuable);
  void error(clang::SourceLocation L, std::string Msg, std::string Note,
             clang::SourceLocation NoteLoc = clang::SourceLocation());

  clang::ASTContext &Ctx;
  const std::map<const clang::ParmVarDecl *, HandleParam> &Handles;
  Task &T;
  DiagList &Diags;
  std::map<const clang::VarDecl *, HandleParam> Stages;
  std::map<const clang::VarDecl *, int>
      StageIds;            ///< Op::Stage of each stage variable.
  int SyntheticStages = 0; ///< Stages of ts::tiles's own exchanges.
  /// The tile queue a ts::tiles loop reads or fills, and its handle's use.
  std::optional<HandleParam> TileQueue;
  std::set<const clang::DeclRefExpr *> TileQueueRefs;
  std::map<const clang::VarDecl *, int>
      TokenOps;                             ///< Token variable -> its try_ op.
  std::set<const clang::VarDecl *> Carried; ///< `ts::stage<R> prev;` variables.
  std::set<const clang::VarDecl *>
      Rejected; ///< Stage variables already reported.
  std::set<const clang::Stmt *> AcceptedAssigns;
  std::set<const clang::CXXMemberCallExpr *> Accepted;
  std::set<const clang::CallExpr *> AcceptedPdl;
  std::set<const clang::CXXMemberCallExpr *> AcceptedSettles;
  Section Sec = Section::Head;
  Guard G = Guard::Always;
  const clang::VarDecl *LoopVar =
      nullptr; ///< Of the innermost domain loop being walked.
  const clang::CXXForRangeStmt *Loop = nullptr;
  /// The domain loops nested in Loop's body, in source order.
  std::vector<const clang::CXXForRangeStmt *> InnerLoops;
  const clang::Stmt *TaskBody = nullptr; ///< Where locals may be written.
};

} // namespace walk
} // namespace ts

#endif
