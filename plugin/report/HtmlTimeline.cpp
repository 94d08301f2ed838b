//===- HtmlTimeline.cpp - The schedule drawn as a timeline ----------------===//
//
// The credit simulation the schedule table prints, one column per step:
// a lane per task with the op it ran (or blocked on), bands per loop
// iteration, dashed outlines for guarded ops; under them a lane per
// pipelined resource with its stages filling, full and draining; and the
// events of a counterexample as numbered marks on the cells they name.
//
//===----------------------------------------------------------------------===//
#include "report/HtmlParts.h"
#include "report/Svg.h"

#include <algorithm>
#include <map>

namespace ts {
namespace {

constexpr int LabelW = 160, ColW = 54, HeadH = 22, LaneH = 54, Gap = 6;
/// Wider schedules are cut: the page stays readable and bounded in size.
constexpr unsigned MaxColumns = 240;

/// The colour class of an op: try_ ops look like the op they test for.
const char *opClass(OpKind K) {
  switch (K) {
  case OpKind::TryAcquire:
  case OpKind::Acquire:
    return "acquire";
  case OpKind::Commit:
    return "commit";
  case OpKind::TryWait:
  case OpKind::Wait:
    return "wait";
  case OpKind::Release:
    return "release";
  case OpKind::Work:
  case OpKind::Carry:
    return "work";
  case OpKind::PdlWait:
  case OpKind::PdlLaunch:
    return "pdl";
  case OpKind::MmaCommit:
  case OpKind::MmaWait:
    return "mma";
  case OpKind::Take:
  case OpKind::Pass:
    return "turn";
  }
  return "work";
}

/// The steps shown: all of them, or the last MaxColumns of a deadlocked
/// run (where it stops is the point) and the first of any other.
std::pair<unsigned, unsigned> window(const SimResult &S) {
  unsigned Steps = S.Steps.empty() ? 0 : S.Steps.back().Step + 1;
  if (Steps <= MaxColumns)
    return {0, Steps};
  return S.Deadlocked ? std::make_pair(Steps - MaxColumns, Steps)
                      : std::make_pair(0u, MaxColumns);
}

/// Spelled as the verifier's traces spell it, so trace events match.
std::string when(const Op &O, unsigned Iteration) {
  if (O.Sec == Section::Loop)
    return "iteration " + std::to_string(Iteration);
  return O.Sec == Section::Head ? "head" : "tail";
}

std::string cellTitle(const Program &P, const SimStep &St) {
  const Task &T = P.Tasks[St.Task];
  const Op &O = T.Ops[St.OpIndex];
  std::string S = "step " + std::to_string(St.Step) + ": task " + T.Name +
                  (St.Blocked ? " blocked on " : " ") + opKindName(O.Kind);
  if (O.onResource())
    S += " of " + P.Resources[O.Resource].Name;
  S += " (" + when(O, St.Iteration);
  if (O.G != Guard::Always)
    S += std::string(", ") + guardWords(O.G);
  S += ")";
  if (!O.Text.empty())
    S += "\n" + O.Text;
  return S;
}

int laneY(unsigned Lane) { return HeadH + int(Lane) * (LaneH + Gap); }
int colX(unsigned Col) { return LabelW + int(Col) * ColW; }

void drawHeader(Svg &Out, unsigned First, unsigned End) {
  Out.text(8, 15, "step", "axis");
  for (unsigned Step = First; Step < End; ++Step)
    Out.text(colX(Step - First) + ColW / 2, 15, std::to_string(Step), "axis",
             "middle");
}

void drawLaneLabel(Svg &Out, unsigned Lane, const std::string &Name,
                   const std::string &Facts, const char *Class) {
  int Y = laneY(Lane);
  Out.open(std::string("lane-label ") + Class, Name + ": " + Facts);
  Out.text(8, Y + 20, clip(Name, 24), "lane-name");
  Out.text(8, Y + 36, clip(Facts, 26), "lane-facts");
  Out.close();
}

/// Alternate shading per loop iteration, so a lane's iterations can be
/// told apart where they overlap with another lane's.
void drawIterationBands(Svg &Out, const Program &P, const SimResult &S,
                        unsigned Task, unsigned Lane, unsigned First,
                        unsigned End) {
  int Y = laneY(Lane);
  Out.rect(LabelW, Y, int(End - First) * ColW, LaneH, "lane");
  const SimStep *Open = nullptr;
  unsigned Last = 0;
  auto Flush = [&] {
    if (!Open)
      return;
    bool Odd = P.Tasks[Task].Ops[Open->OpIndex].Sec == Section::Loop &&
               Open->Iteration % 2;
    Out.rect(colX(Open->Step - First), Y, int(Last - Open->Step + 1) * ColW,
             LaneH, Odd ? "band odd" : "band even",
             when(P.Tasks[Task].Ops[Open->OpIndex], Open->Iteration));
  };
  for (const SimStep &St : S.Steps) {
    if (St.Task != Task || St.Step < First || St.Step >= End ||
        !validStep(P, St))
      continue;
    const Op &O = P.Tasks[Task].Ops[St.OpIndex];
    if (!Open || P.Tasks[Task].Ops[Open->OpIndex].Sec != O.Sec ||
        Open->Iteration != St.Iteration) {
      Flush();
      Open = &St;
    }
    Last = St.Step;
  }
  Flush();
}

void drawCell(Svg &Out, const Program &P, const SimStep &St, unsigned Lane,
              unsigned First) {
  const Op &O = P.Tasks[St.Task].Ops[St.OpIndex];
  std::string Class = std::string("op op-") + opClass(O.Kind);
  if (O.G != Guard::Always)
    Class += " guarded";
  if (St.Blocked)
    Class += " blocked";
  int X = colX(St.Step - First) + 2, Y = laneY(Lane) + 3;
  Out.open(Class, cellTitle(P, St));
  Out.rect(X, Y, ColW - 4, LaneH - 6, "cell");
  // The first line starts low enough to leave the corner to a trace mark.
  Out.text(X + ColW / 2 - 2, Y + 18, shortOpName(O.Kind), "op-name", "middle");
  if (O.onResource())
    Out.text(X + ColW / 2 - 2, Y + 30, clip(P.Resources[O.Resource].Name, 8),
             "op-res", "middle");
  std::string Tag = St.Blocked ? "blocked" : opTag(O);
  if (!St.Blocked && O.Sec == Section::Loop)
    Tag = "#" + std::to_string(St.Iteration) + " " + Tag;
  Out.text(X + ColW / 2 - 2, Y + 42, Tag, "op-tag", "middle");
  Out.close();
}

void drawStages(Svg &Out, const Resource &R,
                const std::vector<StageCounts> &Counts, unsigned Lane,
                unsigned First, unsigned End) {
  int Y = laneY(Lane), Inner = LaneH - 16;
  Out.rect(LabelW, Y, int(End - First) * ColW, LaneH, "lane stages");
  unsigned Stages = std::max(1u, R.Stages);
  for (unsigned Step = First; Step < End && Step < Counts.size(); ++Step) {
    const StageCounts &C = Counts[Step];
    int X = colX(Step - First) + 8, W = ColW - 16, Base = Y + LaneH - 4;
    std::string Title = "step " + std::to_string(Step) + ": " + R.Name + " " +
                        std::to_string(C.inFlight()) + "/" +
                        std::to_string(Stages) + " stages in flight (" +
                        std::to_string(C.Filling) + " filling, " +
                        std::to_string(C.Full) + " full, " +
                        std::to_string(C.Draining) + " draining)";
    Out.open("stage-column", Title);
    Out.rect(X, Base - Inner, W, Inner, "stage-capacity");
    // Stacked from the bottom: draining, full, filling.
    int Used = 0;
    for (auto [N, Class] : {std::make_pair(C.Draining, "stage-draining"),
                            std::make_pair(C.Full, "stage-full"),
                            std::make_pair(C.Filling, "stage-filling")}) {
      int H = int(std::min(N, Stages) * unsigned(Inner) / Stages);
      if (H > 0)
        Out.rect(X, Base - Used - H, W, H, Class);
      Used += H;
    }
    Out.text(X + W / 2, Y + 10,
             std::to_string(C.inFlight()) + "/" + std::to_string(Stages),
             "stage-count", "middle");
    Out.close();
  }
}

void drawMark(Svg &Out, const TraceMark &M, unsigned Lane, unsigned First) {
  int X = colX(M.Step - First) + ColW - 8, Y = laneY(Lane) + 7;
  Out.open("trace-mark", M.Title);
  Out.circle(X, Y, 7, "mark");
  Out.text(X, Y + 3, M.Label, "mark-label", "middle");
  Out.close();
}

} // namespace

const char *shortOpName(OpKind K) {
  // Abbreviations where opKindName is too long for a timeline cell.
  switch (K) {
  case OpKind::TryAcquire:
    return "try_acq";
  case OpKind::PdlWait:
    return "pdl.wait";
  case OpKind::PdlLaunch:
    return "pdl.lnch";
  case OpKind::MmaCommit:
    return "mma.cg";
  case OpKind::MmaWait:
    return "mma.wait";
  default:
    return opKindName(K);
  }
}

const char *opTag(const Op &O) {
  if (O.Sec == Section::Head)
    return "H";
  if (O.Sec == Section::Tail)
    return "T";
  if (O.Sec != Section::Loop)
    return "I"; // In a domain loop nested in the task's loop.
  switch (O.G) {
  case Guard::FirstIter:
    return "LF";
  case Guard::LastIter:
    return "LL";
  case Guard::NotFirstIter:
    return "L>";
  case Guard::NotLastIter:
    return "L<";
  case Guard::Always:
    break;
  }
  return "L";
}

std::vector<TraceMark> traceMarks(const Program &P, const SimResult &S,
                                  const Diag &D, unsigned Finding) {
  std::vector<TraceMark> Marks;
  size_t From = 0;
  size_t Number =
      D.TraceTotal > D.Trace.size() ? D.TraceTotal - D.Trace.size() : 0;
  for (const TraceStep &T : D.Trace) {
    ++Number;
    // Events run in step order and, within a step, in task order: the
    // trace is a subsequence of the executed steps.
    for (size_t I = From; I < S.Steps.size(); ++I) {
      const SimStep &St = S.Steps[I];
      if (!validStep(P, St))
        continue;
      const Task &Tk = P.Tasks[St.Task];
      const Op &O = Tk.Ops[St.OpIndex];
      if (St.Blocked || Tk.Name != T.Task || opKindName(O.Kind) != T.Op ||
          !O.onResource() || P.Resources[O.Resource].Name != T.Resource ||
          when(O, St.Iteration) != T.When)
        continue;
      std::string Title =
          "finding " + std::to_string(Finding) + ", trace " +
          std::to_string(Number) + "/" +
          std::to_string(std::max(D.TraceTotal, D.Trace.size())) + ": task " +
          T.Task + " " + T.Op + " of " + T.Resource + " (" + T.When + ")";
      Marks.push_back({St.Step, St.Task, std::to_string(Number), Title});
      From = I + 1;
      break;
    }
  }
  return Marks;
}

std::string timelineSvg(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, const SimResult &S,
                        const std::vector<TraceMark> &Marks) {
  const std::vector<unsigned> &Lanes = K.Tasks;
  auto [First, End] = window(S);
  unsigned Rows = Lanes.size() + Plan.Pipelines.size();
  int Width = colX(End - First) + 8;
  int Height = laneY(Rows) + 4;
  Svg Out(unsigned(Width), unsigned(Height), "timeline",
          "schedule timeline of kernel " + K.Name);
  drawHeader(Out, First, End);
  std::map<unsigned, unsigned> LaneOf;
  for (unsigned L = 0; L < Lanes.size(); ++L) {
    const Task &T = P.Tasks[Lanes[L]];
    LaneOf[Lanes[L]] = L;
    std::string Facts = "warps [" + std::to_string(T.FirstWarp) + ", " +
                        std::to_string(T.endWarp()) + ")";
    drawLaneLabel(Out, L, T.Name, Facts, "task-lane");
    drawIterationBands(Out, P, S, Lanes[L], L, First, End);
  }
  for (const SimStep &St : S.Steps)
    if (St.Step >= First && St.Step < End && LaneOf.count(St.Task) &&
        validStep(P, St))
      drawCell(Out, P, St, LaneOf[St.Task], First);
  std::vector<std::vector<StageCounts>> Counts = stagesInFlight(P, K, Plan, S);
  for (size_t I = 0; I < Plan.Pipelines.size(); ++I) {
    const Resource &R = P.Resources[Plan.Pipelines[I].Resource];
    unsigned Lane = Lanes.size() + I;
    drawLaneLabel(Out, Lane, R.Name,
                  "stages in flight (of " + std::to_string(R.Stages) + ")",
                  "resource-lane");
    drawStages(Out, R, Counts[I], Lane, First, End);
  }
  for (const TraceMark &M : Marks)
    if (M.Step >= First && M.Step < End && LaneOf.count(M.Task))
      drawMark(Out, M, LaneOf[M.Task], First);
  return Out.str();
}

std::vector<std::vector<StageCounts>> stagesInFlight(const Program &P,
                                                     const Kernel &K,
                                                     const KernelPlan &Plan,
                                                     const SimResult &S) {
  unsigned Steps = S.Steps.empty() ? 0 : S.Steps.back().Step + 1;
  std::vector<std::vector<StageCounts>> Out;
  for (const PipelinePlan &PP : Plan.Pipelines) {
    // Per task: stages taken and handed back so far.
    std::map<unsigned, unsigned> Took, Gave;
    std::vector<StageCounts> Counts(Steps);
    auto MaxOf = [](const std::map<unsigned, unsigned> &M,
                    const std::vector<unsigned> &Tasks) {
      unsigned V = 0;
      for (unsigned T : Tasks)
        V = std::max(V, M.count(T) ? M.at(T) : 0u);
      return V;
    };
    auto MinOf = [](const std::map<unsigned, unsigned> &M,
                    const std::vector<unsigned> &Tasks) {
      unsigned V = ~0u;
      for (unsigned T : Tasks)
        V = std::min(V, M.count(T) ? M.at(T) : 0u);
      return Tasks.empty() ? 0u : V;
    };
    size_t I = 0;
    for (unsigned Step = 0; Step < Steps; ++Step) {
      for (; I < S.Steps.size() && S.Steps[I].Step == Step; ++I) {
        const SimStep &St = S.Steps[I];
        if (!validStep(P, St))
          continue;
        const Op &O = P.Tasks[St.Task].Ops[St.OpIndex];
        if (St.Blocked || O.Resource != PP.Resource)
          continue;
        if (O.Kind == OpKind::Acquire || O.Kind == OpKind::Wait)
          ++Took[St.Task];
        else if (O.Kind == OpKind::Commit || O.Kind == OpKind::Release)
          ++Gave[St.Task];
      }
      // A stage is taken once any producer acquired it and full once every
      // producer committed it; likewise drained by consumers.
      unsigned Taken = MaxOf(Took, PP.Producers),
               Ready = MinOf(Gave, PP.Producers);
      unsigned Waited = MaxOf(Took, PP.Consumers),
               Freed = MinOf(Gave, PP.Consumers);
      StageCounts &C = Counts[Step];
      C.Filling = Taken > Ready ? Taken - Ready : 0;
      C.Full = Ready > Waited ? Ready - Waited : 0;
      C.Draining = Waited > Freed ? Waited - Freed : 0;
    }
    Out.push_back(std::move(Counts));
  }
  return Out;
}

} // namespace ts
