//===- PerTileCounts.cpp - k-loop bounds that read the tile variable ------===//
//
// The views check each inner count in every tile; a bound that reads the
// tile variable may change from tile to tile, so these kernels also run
// every sequence of the counts (TileSequences.h). A deadlock found there is
// a ts-credit error naming the sequence; a search that cannot finish leaves
// a ts-bound warning, and the report says only the same count was proven.
//
//===----------------------------------------------------------------------===//
#include "verify/Nested.h"
#include "verify/TileSequences.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

namespace ts {
using namespace detail;

namespace {

const Domain &loopOf(const Program &P, const Kernel &K, const InnerCounts &IC,
                     size_t N) {
  return P.Tasks[K.Tasks[IC.Nests[N].Task]].Inners[IC.Nests[N].Loop];
}

/// Whether class C of IC has a k-loop whose bound reads the tile.
std::vector<char> perTileClasses(const Program &P, const Kernel &K,
                                 const InnerCounts &IC) {
  std::vector<char> PerTile(IC.Counts.size(), 0);
  for (size_t N = 0; N < IC.Nests.size(); ++N)
    if (loopOf(P, K, IC, N).PerTile)
      PerTile[size_t(IC.ClassOf[N])] = 1;
  return PerTile;
}

/// "a, b and c".
std::string joined(const std::vector<std::string> &Parts) {
  std::string Text;
  for (size_t I = 0; I < Parts.size(); ++I)
    Text += (I ? I + 1 == Parts.size() ? " and " : ", " : "") + Parts[I];
  return Text;
}

/// The counts one k-loop ran in each tile of a deadlocking sequence.
std::string sequenceText(const TileSequenceResult &R,
                         const std::vector<std::vector<uint64_t>> &Variants,
                         size_t At) {
  if (R.Tiles.empty())
    return "runs no tile";
  std::vector<std::string> Counts;
  for (unsigned V : R.Tiles)
    Counts.push_back(std::to_string(Variants[V][At]));
  std::string Text = joined(Counts);
  std::string Tiles = plural(R.Tiles.size(), "tile");
  return "runs " + Text + " times in " +
         (R.Ended ? "a tile loop of " + Tiles : "its first " + Tiles);
}

void reportDeadlock(const Program &P, const Kernel &K, const InnerCounts &IC,
                    const TileSequenceResult &R,
                    const std::vector<std::vector<uint64_t>> &Variants,
                    size_t At, DiagList &Out) {
  const Task &T = P.Tasks[K.Tasks[IC.Nests[At].Task]];
  const Domain &Loop = loopOf(P, K, IC, At);
  Diag &D = report(Out, Check::Credit, Loop.Loc,
                   "deadlock when this inner ts::domain loop of " +
                       quote(T.Name) + " " + sequenceText(R, Variants, At) +
                       ": its count changes from tile to tile");
  for (const TileSequenceResult::Blocked &B : R.Stuck)
    note(D, B.Loc,
         "task " + quote(P.Tasks[K.Tasks[B.Task]].Name) +
             " is blocked here on " + opKindName(B.Kind) + " of " +
             quote(P.Resources[B.Resource].Name) +
             (B.InTile ? " in tile " + std::to_string(B.Tile) : ""));
  note(D, Loop.Loc,
       "each count alone verifies in every tile; a sequence of counts can "
       "leave a task a different number of stages ahead at each tile "
       "(docs/verifier.md, \"Inner counts that change from tile to tile\")");
}

void warnUnproven(const Task &T, const Domain &Loop, const std::string &Why,
                  DiagList &Out) {
  Diag &D = report(Out, Check::Bound, Loop.Loc,
                   "the trip count of this inner ts::domain loop of " +
                       quote(T.Name) +
                       " depends on the tile: it is verified when every "
                       "tile runs the same count, not for every sequence "
                       "of counts");
  note(D, Loop.Loc,
       "the search over sequences of counts stopped: " + Why +
           " (docs/verifier.md, \"Inner counts that change from tile to "
           "tile\"); a bound that does not read the tile variable is "
           "verified for every count");
}

/// What the search leaves to the views, which run one count in every tile:
/// it decides deadlocks only. Ownership and tokens need nothing more: the
/// views' bracketing makes each tile hand back every stage of a k-loop's
/// resource it took (one carried into the next tile is refused), and a
/// tile-level resource's ops are the same in every view, so each tile
/// starts from the same state. Races between aliased phases and PDL launch
/// order are orders between tasks, which a sequence can change.
std::vector<std::string> perCountOnly(const Program &P, const Kernel &K) {
  bool Launch = false;
  for (unsigned TI : K.Tasks)
    for (const Op &O : P.Tasks[TI].Ops)
      Launch |= O.Kind == OpKind::PdlLaunch;
  std::vector<std::string> Out;
  if (!K.Aliases.empty())
    Out.push_back("the order of aliased phases");
  if (Launch)
    Out.push_back("the PDL launch order");
  return Out;
}

void warnPerCountOnly(const Task &T, const Domain &Loop,
                      const std::vector<std::string> &What, DiagList &Out) {
  Diag &D = report(
      Out, Check::Bound, Loop.Loc,
      "the trip count of this inner ts::domain loop of " + quote(T.Name) +
          " depends on the tile: deadlocks are verified for "
          "every sequence of counts, but " +
          joined(What) + " only when every tile runs the same count");
  note(D, Loop.Loc,
       "the search over sequences of counts runs the protocol alone; the "
       "rest is checked on views that run one count in every tile "
       "(docs/verifier.md, \"Inner counts that change from tile to tile\")");
}

} // namespace

std::string checkPerTileCounts(const Program &P, const Kernel &K,
                               const KernelPlan &Plan, const InnerCounts &IC,
                               const NestedViews &Views, DiagList &Out) {
  std::vector<char> Varying = perTileClasses(P, K, IC);
  if (std::find(Varying.begin(), Varying.end(), 1) == Varying.end())
    return "";
  size_t At = 0;
  while (!Varying[size_t(IC.ClassOf[At])])
    ++At;
  const Task &T = P.Tasks[K.Tasks[IC.Nests[At].Task]];
  const Domain &Loop = loopOf(P, K, IC, At);
  std::vector<char> Fixed(Varying.size());
  for (size_t C = 0; C < Varying.size(); ++C)
    Fixed[C] = !Varying[C];
  // Classes whose bound does not read the tile keep one count throughout.
  std::vector<size_t> Pos(IC.Counts.size(), 0);
  do {
    std::vector<std::vector<uint64_t>> Variants;
    std::vector<const Program *> Programs;
    std::vector<size_t> V = Pos;
    do {
      Variants.push_back(countsPerNest(IC, V));
      Programs.push_back(Views.at(Variants.back()).get());
    } while (nextCountChoice(V, IC, Varying));
    TileSequenceResult R = checkTileSequences(P, K, Plan, Programs);
    if (R.V == TileSequenceResult::Verdict::Deadlock) {
      reportDeadlock(P, K, IC, R, Variants, At, Out);
      return "";
    }
    if (R.V == TileSequenceResult::Verdict::Unknown) {
      warnUnproven(T, Loop, R.Why, Out);
      return ", the same in every tile";
    }
  } while (nextCountChoice(Pos, IC, Fixed));
  std::vector<std::string> Left = perCountOnly(P, K);
  if (Left.empty())
    return ", any count in each tile";
  warnPerCountOnly(T, Loop, Left, Out);
  return ", any count in each tile for deadlocks, the same in every tile "
         "for " +
         joined(Left);
}

} // namespace ts
