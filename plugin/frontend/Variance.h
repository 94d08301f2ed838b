//===- Variance.h - Values that differ between CTAs or threads -*- C++ -*-===//
//
// A multicast pipeline couples the CTAs of a cluster: they must run the
// same trip counts and each must load its own share of a shared stage. The
// front end records what a domain bound or a load argument reads, through
// locals, helper functions and the special registers (blockIdx, cuda::ptx
// get_sreg_*, inline asm); verify/Cluster.cpp decides with the kernel's
// cluster shape whether a read differs between the CTAs of a cluster.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_VARIANCE_H
#define LIBTS_FRONTEND_VARIANCE_H

#include "model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace ts {

/// The reads of every expression in Es that may differ between CTAs or
/// threads. Values of the task's parameters count as the same everywhere
/// (they bind to kernel parameters).
Reads readsOf(clang::ASTContext &Ctx, llvm::ArrayRef<const clang::Expr *> Es);

} // namespace ts

#endif
