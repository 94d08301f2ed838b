//===- LoopTrips.h - For loops that run a constant number of times --------===//
//
// `for (int j = 0; j < 4; ++j)` runs its body four times on every path:
// a TMA load in it is not skipped (TmaLoads), and a buffer it indexes by j
// cycles through known elements (TmaStores).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_LOOPTRIPS_H
#define LIBTS_FRONTEND_LOOPTRIPS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

#include <cstdint>
#include <optional>

namespace ts {

struct ConstantLoop {
  const clang::VarDecl *Var; ///< The counter: Init, Init + Step, ...
  int64_t Init, Step;
  uint64_t Trips;
};

/// The counter and trip count of `for (int j = A; j < B; ++j)` (or `<=`,
/// `!=`, `j++`, `j += C`) with constant A, B and C, and a body that neither
/// leaves early nor changes j.
std::optional<ConstantLoop> constantLoop(clang::ASTContext &Ctx,
                                         const clang::ForStmt *F);

} // namespace ts

#endif
