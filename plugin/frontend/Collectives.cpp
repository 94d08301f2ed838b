//===- Collectives.cpp - Calls every thread of a group must make ----------===//
#include "frontend/Collectives.h"
#include "frontend/AstWalk.h"
#include "frontend/DiagEmitter.h"
#include "frontend/HiddenCalls.h"
#include "frontend/Wgmma.h"

#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace ts {

namespace {

/// Barriers of every thread of the block: __syncthreads and its reducing
/// forms (clang's CUDA headers spell those as inline functions over the
/// NVVM builtins, which the walk reaches), __barrier_sync(id) without a
/// count (cooperative_groups' thread_block::sync), and ts::cluster::sync,
/// which waits for every thread of every CTA of the cluster.
bool isBlockBarrier(const FunctionDecl *F) {
  if (!F || !F->getIdentifier())
    return false;
  StringRef N = F->getName();
  if (inLibts(F))
    return N == "sync" && F->getQualifiedNameAsString() == "ts::cluster::sync";
  return N == "__syncthreads" || N == "__syncthreads_count" ||
         N == "__syncthreads_and" || N == "__syncthreads_or" ||
         N == "__nvvm_bar0_popc" || N == "__nvvm_bar0_and" ||
         N == "__nvvm_bar0_or" || N == "__barrier_sync" ||
         N == "__nvvm_barrier_sync";
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

/// A collective call a task makes: where to report it (the call in user
/// code that reaches one in a system header, e.g. cooperative_groups') and
/// the collective itself.
struct Found {
  const CallExpr *At = nullptr, *Call = nullptr;
};

/// The first call Match accepts in Body or in the functions it calls.
Found firstCall(const SourceManager &SM, const Stmt *Body,
                bool (*Match)(const FunctionDecl *)) {
  auto Matches = [Match](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    return C && Match(C->getDirectCallee());
  };
  Found F;
  F.At = F.Call = cast_or_null<CallExpr>(reaches(Body, Matches));
  if (!F.Call || !SM.isInSystemHeader(SM.getFileLoc(F.Call->getBeginLoc())))
    return F;
  struct Calls : AstWalk {
    std::vector<const CallExpr *> Found;
    bool visitCallExpr(CallExpr *C) override {
      Found.push_back(C);
      return true;
    }
  } Cs;
  Cs.walk(Body);
  for (const CallExpr *C : Cs.Found)
    if (!SM.isInSystemHeader(SM.getFileLoc(C->getBeginLoc())) &&
        reaches(C, Matches)) {
      F.At = C;
      break;
    }
  return F;
}

} // namespace

void extractCollectives(const SourceManager &SM, const FunctionDecl *FD,
                        Task &T) {
  if (!FD || !FD->getBody())
    return;
  if (Found F = firstCall(SM, FD->getBody(), isBlockBarrier); F.Call) {
    T.BlockBarrier = toHandle(F.At->getBeginLoc());
    T.BlockBarrierName = F.Call->getDirectCallee()->getQualifiedNameAsString();
  }
  if (Found F = firstCall(SM, FD->getBody(), isWarpgroupCall); F.Call) {
    T.WarpgroupCall = toHandle(F.At->getBeginLoc());
    T.WarpgroupCallName = F.Call->getDirectCallee()->getQualifiedNameAsString();
  }
}

} // namespace ts
