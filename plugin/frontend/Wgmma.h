//===- Wgmma.h - Recognising ts::wgmma calls in task bodies -----*- C++ -*-===//
//
// An MMA issued with ts::wgmma reads its shared-memory operands after the
// call returns, until a wait_group sees its group complete. The schedule
// records which statements issue MMAs on a stage and where groups are
// committed and waited for (verify/Stages.cpp follows them).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_WGMMA_H
#define LIBTS_FRONTEND_WGMMA_H

#include "model/Model.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace ts {

/// A function declared in namespace ts::wgmma whose name starts with Prefix.
bool isWgmmaDecl(const clang::FunctionDecl *F, llvm::StringRef Prefix = "");

/// A function declared in namespace ts::tcgen05 (sm_100a).
bool isTcgen05Decl(const clang::FunctionDecl *F, llvm::StringRef Prefix = "");

/// Whether S issues a tcgen05 MMA or copy (ts::tcgen05::mma*, cp_*),
/// anywhere inside or in a function it calls.
bool issuesUmma(const clang::Stmt *S);

/// `ts::wgmma::commit_group()` or `ts::wgmma::wait_group<N>()` as E: the
/// call, with Kind set and Pending = N for a wait.
const clang::CallExpr *asMmaGroupCall(const clang::Expr *E, OpKind &Kind,
                                      unsigned &Pending);

/// Whether S issues an MMA (a call to ts::wgmma::mma*), anywhere inside,
/// or in a function it calls.
bool issuesMma(const clang::Stmt *S);

/// PTX that reads or writes shared memory asynchronously: inline assembly
/// issuing it on a stage hides the access from the verifier.
inline constexpr const char *AsyncPtx[] = {"wgmma", "cp.async", "tcgen05"};

/// Inline assembly in S, or in a function it calls, that issues AsyncPtx.
const clang::AsmStmt *asyncAsm(const clang::Stmt *S);

/// Whether E is a ts::wgmma call or a ts::tcgen05 descriptor (one built
/// from an address): a variable it initialises stands for the memory it
/// describes.
bool isWgmmaValue(const clang::Expr *E);

} // namespace ts

#endif
