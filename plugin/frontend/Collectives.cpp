//===- Collectives.cpp - Calls every thread of a group must make ----------===//
#include "frontend/Collectives.h"
#include "frontend/DiagEmitter.h"
#include "frontend/HiddenCalls.h"
#include "frontend/Wgmma.h"

using namespace clang;

namespace ts {

namespace {

/// __syncthreads and its reducing forms (clang's CUDA headers spell those
/// as inline functions over the NVVM builtins, which the walk reaches).
bool isBlockBarrier(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  StringRef N = F->getName();
  return N == "__syncthreads" || N == "__syncthreads_count" ||
         N == "__syncthreads_and" || N == "__syncthreads_or" ||
         N == "__nvvm_bar0_popc" || N == "__nvvm_bar0_and" ||
         N == "__nvvm_bar0_or";
}

/// ts::sync_warpgroup (bar.sync of the warp group's 128 threads) and the
/// wgmma instructions, which are .sync.aligned over a warp group.
bool isWarpgroupCall(const FunctionDecl *F) {
  if (!F || !F->getIdentifier() || !inLibts(F))
    return false;
  StringRef N = F->getName();
  if (N == "sync_warpgroup")
    return true;
  return isWgmmaDecl(F, "mma") ||
         (isWgmmaDecl(F) &&
          (N == "fence" || N == "commit_group" || N == "wait_group"));
}

const CallExpr *firstCall(const Stmt *Body,
                          bool (*Match)(const FunctionDecl *)) {
  return cast_or_null<CallExpr>(reaches(Body, [Match](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    return C && Match(C->getDirectCallee());
  }));
}

} // namespace

void extractCollectives(const FunctionDecl *FD, Task &T) {
  if (!FD || !FD->getBody())
    return;
  if (const CallExpr *C = firstCall(FD->getBody(), isBlockBarrier))
    T.BlockBarrier = toHandle(C->getBeginLoc());
  if (const CallExpr *C = firstCall(FD->getBody(), isWarpgroupCall)) {
    T.WarpgroupCall = toHandle(C->getBeginLoc());
    T.WarpgroupCallName = C->getDirectCallee()->getQualifiedNameAsString();
  }
}

} // namespace ts
