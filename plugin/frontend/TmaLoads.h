//===- TmaLoads.h - TMA loads into a stage in one statement -----*- C++ -*-===//
//
// Which stage a ts::tma load completes (its barrier argument), which payload
// member it writes and how many bytes it delivers: the verifier compares
// them with the transaction bytes the stage's acquire arms
// (verify/TmaBytes.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_FRONTEND_TMALOADS_H
#define LIBTS_FRONTEND_TMALOADS_H

#include "frontend/Schedule.h"
#include "frontend/Variance.h"

#include "frontend/AstWalk.h"

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace ts {

/// Calls to ts::tma::load, load_multicast and load_with_barrier in one
/// statement whose barrier is a stage's, and whether each runs on every
/// path of the statement.
struct TmaLoads : AstWalk {
  struct Load {
    unsigned Resource;
    bool Always;
    bool Multicast; ///< load_multicast: fills the stage in other CTAs too.
    std::optional<uint64_t> Mask; ///< Its CTA mask template argument, if any.
    clang::SourceLocation Loc;
    Reads Dst,
        Coords; ///< Multicast: what its destination and coordinates read.
    /// Multicast into `s->m + pos * C1 * C2...`: the share stride (C1 *
    /// C2 ...) and the member's extent, in elements of `s->m`'s pointer.
    std::optional<uint64_t> ShareStride, ShareExtent;
    std::optional<std::string>
        Field;      ///< Payload member written ("" the whole stage).
    TmaLoadBox Box; ///< Its box, destination and count, for the checks.
    /// load_with_barrier: lane 0 of every calling warp issues it.
    bool PerWarp = false;
  };
  clang::ASTContext &Ctx;
  const std::map<const clang::VarDecl *, HandleParam> &Stages;
  const clang::Stmt *Top;
  std::vector<Load> Found;

  TmaLoads(clang::ASTContext &Ctx,
           const std::map<const clang::VarDecl *, HandleParam> &S,
           const clang::Stmt *Top)
      : Ctx(Ctx), Stages(S), Top(Top) {}

  bool visitCallExpr(clang::CallExpr *C) override;

  /// ts::tma::load, load_multicast or load_with_barrier.
  static bool isTmaLoad(const clang::FunctionDecl *F);
  /// The payload member a destination points into: `s->b + off`,
  /// `&s->b[i]`, `s->ab.a` give "b", "b", "ab"; `s.get()` gives "" (the
  /// stage); nothing when the pointer comes from elsewhere.
  static std::optional<std::string> payloadMember(const clang::Expr *Dst);

private:
  const clang::VarDecl *barrierStage(const clang::Expr *Bar) const;
  std::optional<uint64_t> maskArgument(const clang::CallExpr *C) const;
  clang::QualType destinationType(const clang::Expr *Dst) const;
  void shareStride(const clang::Expr *Dst, Load &L) const;
  /// What timesRun found of the if-else branches around a load.
  struct Branches {
    bool Alternative = false; ///< In an else whose then loads alike.
    bool Unalike = false;     ///< In an if-else whose branches load unalike.
  };
  std::optional<uint64_t> timesRun(const clang::Stmt *S,
                                   const clang::CallExpr *C, Branches &B) const;
  /// The stage loads in S, each as (stage variable, member, bytes per run)
  /// when it runs on every path of S; nothing when one may be skipped or
  /// is not known.
  using BranchLoad = std::tuple<const clang::VarDecl *, std::string, uint64_t>;
  std::optional<std::vector<BranchLoad>>
  branchLoads(const clang::Stmt *S) const;
  std::optional<uint64_t> loadBytes(const clang::CallExpr *C) const;
};

} // namespace ts

#endif
