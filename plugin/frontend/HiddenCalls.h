//===- HiddenCalls.h - Schedule calls inside helper functions ---*- C++ -*-===//
//
// PDL calls and ts::wgmma group calls order a task's schedule, so the
// verifier must see each one in the task body. Inside a function the task
// calls they would go unseen: these are found and reported instead.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_HIDDENCALLS_H
#define LIBTS_FRONTEND_HIDDENCALLS_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <functional>
#include <vector>

namespace ts {

struct HiddenCall {
  const clang::CallExpr *Outer; ///< The call in the task body.
  const clang::CallExpr *Inner; ///< The PDL or MMA group call it reaches.
};

/// Calls in Body to user functions that (through further user functions)
/// call ts::pdl_* or ts::wgmma::commit_group / wait_group. Lambdas defined
/// in Body are not followed: their bodies are part of Body.
std::vector<HiddenCall> hiddenScheduleCalls(const clang::Stmt *Body);

/// How many nested user functions below a task's body the walks follow
/// (reaches(), the store and schedule walks).
inline constexpr unsigned MaxHelperDepth = 8;

/// A call in Body that begins a chain of more than MaxHelperDepth nested
/// user functions (lambdas' call operators included): what the walks would
/// not see; null if none.
const clang::CallExpr *tooDeepCall(const clang::Stmt *Body);

/// A call through a function pointer (or a member-function pointer) in
/// Body or in a user function it calls: a callee the walks cannot see.
const clang::CallExpr *indirectCall(const clang::Stmt *Body);

/// Declared in namespace ts (or one nested in it): libts's own functions.
bool inLibts(const clang::FunctionDecl *F);

/// The callee of C when the walks follow it: a user function, not libts's,
/// not a lambda of the body.
const clang::FunctionDecl *userCallee(const clang::CallExpr *C);

/// What reaches() looks for: a call or an inline assembly statement.
using ReachMatch = std::function<bool(const clang::Stmt *)>;

/// Which user functions reaches() looks into.
using ReachEnter = std::function<bool(const clang::FunctionDecl *)>;

/// The first call or asm statement in S, or in a user function S calls
/// (through further user functions Enter accepts), that Match accepts;
/// null if none.
const clang::Stmt *reaches(const clang::Stmt *S, const ReachMatch &Match,
                           const ReachEnter &Enter = nullptr);

} // namespace ts

#endif
