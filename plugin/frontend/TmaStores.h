//===- TmaStores.h - A task's statements around TMA stores ------*- C++ -*-===//
//
// Writes down, in program order, what a task does that a TMA store's
// source depends on (model/Stores.h): writes into buffers, fences,
// barriers, stores and waits for their reads. User functions the task calls
// are followed (the way an epilogue helper is written), statements under an
// `if` are taken to run in the one thread that issues the stores.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_TMASTORES_H
#define LIBTS_FRONTEND_TMASTORES_H

#include "model/Model.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace ts {

/// Fills T.StoreEvents and T.StoreBuffers from the body of FD; leaves them
/// empty when the task issues no TMA store.
void extractStores(clang::ASTContext &Ctx, const clang::FunctionDecl *FD,
                   Task &T);

} // namespace ts

#endif
