//===- Table.cpp - Schedule table of a credit simulation ------------------===//
//
// One column per task, one row per simulation step: what each task executed
// side by side, and where the tasks stood at a deadlock.
//
//===----------------------------------------------------------------------===//
#include "report/Report.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ts {
namespace {

constexpr size_t CellWidth = 30;

std::string fit(std::string S, size_t W, bool Right = false) {
  if (S.size() > W)
    S.resize(W);
  std::string Fill(W - S.size(), ' ');
  return Right ? Fill + S : S + Fill;
}

std::string center(const std::string &S, size_t W) {
  if (S.size() >= W)
    return S.substr(0, W);
  size_t Left = (W - S.size()) / 2;
  return std::string(Left, ' ') + S + std::string(W - S.size() - Left, ' ');
}

/// H head, L loop (LF/LL: first/last iteration only; L>/L<: all but the
/// first/last), T tail.
std::string tag(const Op &O) {
  switch (O.Sec) {
  case Section::Head:
    return "H";
  case Section::Tail:
    return "T";
  case Section::Loop:
  case Section::Inner:
    break;
  }
  if (O.G == Guard::FirstIter)
    return "LF";
  if (O.G == Guard::LastIter)
    return "LL";
  if (O.G == Guard::NotFirstIter)
    return "L>";
  if (O.G == Guard::NotLastIter)
    return "L<";
  return "L";
}

std::string cell(const Program &P, const SimStep &S) {
  const Op &O = P.Tasks[S.Task].Ops[S.OpIndex];
  // A stage copy belongs to no resource and is not grid-wide either.
  std::string Subject = O.onResource()            ? P.Resources[O.Resource].Name
                        : O.Kind == OpKind::Carry ? ""
                                                  : "grid";
  std::string C = fit(Subject, 10) + " " + fit(opKindName(O.Kind), 11) + " ";
  if (S.Blocked)
    return fit(C + "blocked", CellWidth);
  // "#t.k": iteration t of the loop, k of the inner loop written out in it.
  std::string Iter = O.Sec != Section::Loop ? ""
                     : O.InnerIt < 0        ? "#" + std::to_string(S.Iteration)
                                     : "#" + std::to_string(S.Iteration) + "." +
                                           std::to_string(O.InnerIt);
  return C + fit(tag(O), 2) + " " + fit(Iter, 4, true);
}

} // namespace

std::string scheduleTable(const Program &P, const Kernel &K,
                          const SimResult &S) {
  std::vector<unsigned> Columns = K.Tasks;

  std::ostringstream OS;
  std::string Rule = std::string(6, '-');
  for (size_t I = 0; I < Columns.size(); ++I)
    Rule += "+" + std::string(CellWidth + 2, '-');
  Rule += "+\n";

  OS << "[schedule] kernel '" << K.Name << "'\n" << Rule;
  OS << fit("step", 5, true) << " ";
  for (unsigned TI : Columns) {
    const Task &T = P.Tasks[TI];
    OS << "| "
       << center(T.Name + "[" + std::to_string(T.FirstWarp) + ":" +
                     std::to_string(T.endWarp()) + ")",
                 CellWidth)
       << " ";
  }
  OS << "|\n" << Rule;

  // Steps arrive ordered by step number; group them into rows.
  std::map<unsigned, std::map<unsigned, const SimStep *>> Rows;
  for (const SimStep &St : S.Steps)
    Rows[St.Step][St.Task] = &St;
  for (const auto &[Step, Cells] : Rows) {
    OS << fit(std::to_string(Step), 5, true) << " ";
    for (unsigned TI : Columns) {
      auto It = Cells.find(TI);
      OS << "| "
         << (It == Cells.end() ? std::string(CellWidth, ' ')
                               : cell(P, *It->second))
         << " ";
    }
    OS << "|\n";
  }
  OS << Rule;
  OS << "trip count " << S.Trips;
  if (S.Deadlocked)
    OS << "; deadlock at step " << (Rows.empty() ? 0 : Rows.rbegin()->first);
  OS << "\n";
  bool Nested =
      std::any_of(S.Steps.begin(), S.Steps.end(), [&](const SimStep &St) {
        return P.Tasks[St.Task].Ops[St.OpIndex].InnerIt >= 0;
      });
  OS << "tags: H head, L loop (LF first / LL last iteration only, L> all but "
        "the "
        "first / L< all but the last), T tail; #i iteration"
     << (Nested ? " (#i.k: inner loop iteration k, written out)" : "") << "\n";
  return OS.str();
}

} // namespace ts
