//===- AsyncStores.h - Statements that may start TMA stores -----*- C++ -*-===//
//
// A consumer that stores from a stage with TMA must wait for the store's
// reads before it hands the stage back (ts::consumer::release does, when
// the plan says so). The wait is dropped only where every call a stage's
// statements make is known not to store: libts' own functions outside
// ts::tma, compiler builtins, and user functions whose bodies (followed
// through further calls) make only such calls.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_ASYNCSTORES_H
#define LIBTS_FRONTEND_ASYNCSTORES_H

#include "clang/AST/Stmt.h"

namespace ts {

/// Whether S calls anything that may issue a bulk asynchronous store.
bool mayStoreAsync(const clang::Stmt *S);

} // namespace ts

#endif
