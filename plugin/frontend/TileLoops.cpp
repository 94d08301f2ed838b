//===- TileLoops.cpp - Tile loops fed by a scheduler (ts::tiles) ----------===//
//
// `for (int u : ts::tiles(q[, fetch]))` takes one stage of the tile queue
// at the head of each iteration and once more when the loop ends (the
// scheduler's end mark), inside include/ts/tiles.h where the walk cannot
// see it. The walk writes those exchanges out as the task's own ops, so
// every check sees the queue like any other pipeline, and gives the loop
// one unknown trip count that every task of the queue shares: each reads
// every tile the scheduler publishes, the end mark included. A ts::clc_async
// queue's first tile is the CTA's own: its one exchange per iteration
// (the next tile, or the failed request that ends the loop) closes it.
//
//===----------------------------------------------------------------------===//
#include "frontend/DiagEmitter.h"
#include "frontend/Vocabulary.h"
#include "frontend/Walker.h"

using namespace clang;

namespace ts {
namespace walk {

const CallExpr *Walker::tilesCall(const CXXForRangeStmt *FR) {
  if (!FR || !FR->getRangeInit())
    return nullptr;
  const auto *C = dyn_cast<CallExpr>(stripExpr(FR->getRangeInit()));
  return C && isTsDecl(C->getDirectCallee(), "tiles") ? C : nullptr;
}

void Walker::recordTiles(const CallExpr *C, Domain &D) {
  D.StartText = "0";
  D.Start = 0;
  D.StepText = "1";
  D.Step = 1;
  const auto *Ref = C->getNumArgs()
                        ? dyn_cast<DeclRefExpr>(
                              stripExpr(C->getArg(0))->IgnoreParenImpCasts())
                        : nullptr;
  const auto *P = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  auto It = P ? Handles.find(P) : Handles.end();
  if (It == Handles.end()) {
    error(C->getExprLoc(),
          "ts::tiles reads a tile queue that is not a handle parameter of the "
          "task",
          "pass the task's own ts::producer or ts::consumer of the queue, as "
          "'ts::tiles(next)'");
    D.EndText = exprText(Ctx, C);
    return;
  }
  TileQueue = It->second;
  TileQueueRefs.insert(Ref);
  D.Dynamic = true;
  D.Queue = It->second.Resource;
  D.EndText = "tiles(" + P->getNameAsString() + ")";
  D.EndSym = D.EndKey = "ts::tiles#" + std::to_string(D.Queue);
}

void Walker::tileExchange(SourceLocation L) {
  const bool Fills = TileQueue->R == Role::Producer;
  const int Stage = newStageId();
  ++SyntheticStages;
  for (OpKind K : {Fills ? OpKind::Acquire : OpKind::Wait, OpKind::Work,
                   Fills ? OpKind::Commit : OpKind::Release}) {
    ts::Op Rec;
    Rec.Kind = K;
    Rec.Resource = TileQueue->Resource;
    Rec.R = TileQueue->R;
    Rec.Sec = Sec;
    Rec.Loc = toHandle(L);
    Rec.Text = std::string("ts::tiles ") +
               (K == OpKind::Work ? "tile" : opKindName(K));
    Rec.Stage = Stage;
    Rec.MayStoreAsync = false; // a plain read or write of the tile index
    Rec.TileLoop = true;
    T.Ops.push_back(std::move(Rec));
  }
}

} // namespace walk
} // namespace ts
