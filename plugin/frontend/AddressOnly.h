//===- AddressOnly.h - Declarations that take a stage's address -*- C++ -*-===//
//
// A consumer whose only reads of a stage are MMAs it awaited arrives once
// per warp (plugin/plan/Plan.cpp). Taking an address in the stage for those
// MMAs (`auto *rows = s->a + 64;`) reads none of its bytes, so it must not
// make the task a thread reader; reading a byte of it must.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ADDRESSONLY_H
#define LIBTS_FRONTEND_ADDRESSONLY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ts {

/// Which variables stand for a stage's memory: stage handles and the
/// pointers, references and descriptors derived from them.
using StagePredicate = llvm::function_ref<bool(const clang::VarDecl *)>;

/// Whether S declares only variables that hold no stage bytes (a pointer,
/// a reference, a ts::wgmma descriptor, another scalar such as
/// `s.index()`, a `ts::tma_barrier`), computed without loading any value
/// from a stage's memory.
bool addressOnly(const clang::Stmt *S, StagePredicate IsStage);

} // namespace ts

#endif
