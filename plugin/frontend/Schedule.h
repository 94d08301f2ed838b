//===- Schedule.h - Task body to head/loop/tail ops -------------*- C++ -*-===//
//
// Pipeline ops may stand only where the model can follow them exactly: at
// the top level of the task body, directly in its one ts::domain loop, or
// under `if (i.first())` / `if (i.last())` in that loop. Anything else is an
// error at the op, because what is verified must be exactly what runs.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_SCHEDULE_H
#define LIBTS_FRONTEND_SCHEDULE_H

#include "model/Diag.h"
#include "model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <map>

namespace ts {

/// A task parameter that is a pipeline handle.
struct HandleParam {
  Role R;
  unsigned Resource;
  /// Where a ts::tiles loop takes its queue's stages: a ts::clc_async
  /// queue's first tile is the CTA's own, so no exchange precedes it.
  bool ClcQueue = false;
};

/// Fills T.Ops and T.Dom from FD's body.
void extractSchedule(
    clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
    const std::map<const clang::ParmVarDecl *, HandleParam> &Handles, Task &T,
    DiagList &Diags);

} // namespace ts

#endif
