//===- Collectives.h - Calls every thread of a group must make --*- C++ -*-===//
//
// A task runs on its own warps. A call that every thread of the block
// (__syncthreads) or of a warp group (ts::sync_warpgroup, the ts::wgmma
// instructions) must make hangs or faults when the task's warps are not
// all of them. This records where a task first makes one, helpers
// followed; verify/Warps.cpp checks the task's warps against it.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_COLLECTIVES_H
#define LIBTS_FRONTEND_COLLECTIVES_H

#include "model/Model.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"

namespace ts {

/// Sets T.BlockBarrier and T.WarpgroupCall (and their names) from the
/// body of FD.
void extractCollectives(const clang::SourceManager &SM,
                        const clang::FunctionDecl *FD, Task &T);

} // namespace ts

#endif
