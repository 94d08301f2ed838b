//===- Model.cpp - Derived facts about the model --------------------------===//
#include "model/Model.h"
#include "model/Diag.h"

#include <algorithm>

namespace ts {

const char *targetArchName(TargetArch A) {
  return A == TargetArch::Sm100a ? "sm_100a" : "sm_90a";
}

const char *pipelineKindName(PipelineKind K) {
  switch (K) {
  case PipelineKind::Gmem:
    return "gmem";
  case PipelineKind::AsyncAsync:
    return "async_async";
  case PipelineKind::TmaAsync:
    return "tma_async";
  case PipelineKind::TaskOwned:
    return "task_owned";
  case PipelineKind::Turns:
    return "turns";
  case PipelineKind::TmaUmma:
    return "tma_umma";
  case PipelineKind::UmmaAsync:
    return "umma_async";
  case PipelineKind::ClcAsync:
    return "clc_async";
  case PipelineKind::AsyncUmma:
    return "async_umma";
  case PipelineKind::UmmaUmma:
    return "umma_umma";
  }
  return "?";
}

const char *sectionName(Section S) {
  switch (S) {
  case Section::Head:
    return "head";
  case Section::Loop:
    return "loop";
  case Section::Inner:
    return "inner";
  case Section::Tail:
    return "tail";
  }
  return "?";
}

const char *opKindName(OpKind K) {
  switch (K) {
  case OpKind::TryAcquire:
    return "try_acquire";
  case OpKind::Acquire:
    return "acquire";
  case OpKind::Commit:
    return "commit";
  case OpKind::TryWait:
    return "try_wait";
  case OpKind::Wait:
    return "wait";
  case OpKind::Release:
    return "release";
  case OpKind::Work:
    return "work";
  case OpKind::PdlWait:
    return "pdl_wait";
  case OpKind::PdlLaunch:
    return "pdl_launch_dependents";
  case OpKind::MmaCommit:
    return "wgmma commit_group";
  case OpKind::MmaWait:
    return "wgmma wait_group";
  case OpKind::Take:
    return "take";
  case OpKind::Pass:
    return "pass";
  case OpKind::Carry:
    return "stage copy";
  }
  return "?";
}

bool guardRuns(Guard G, uint64_t It, uint64_t Trips) {
  switch (G) {
  case Guard::Always:
    return true;
  case Guard::FirstIter:
    return It == 0;
  case Guard::LastIter:
    return It + 1 == Trips;
  case Guard::NotFirstIter:
    return It != 0;
  case Guard::NotLastIter:
    return It + 1 != Trips;
  }
  return true;
}

const char *guardWords(Guard G) {
  switch (G) {
  case Guard::Always:
    return "every iteration";
  case Guard::FirstIter:
    return "only on the first iteration";
  case Guard::LastIter:
    return "only on the last iteration";
  case Guard::NotFirstIter:
    return "on every iteration but the first";
  case Guard::NotLastIter:
    return "on every iteration but the last";
  }
  return "";
}

const char *guardName(Guard G) {
  switch (G) {
  case Guard::Always:
    return "always";
  case Guard::FirstIter:
    return "first";
  case Guard::LastIter:
    return "last";
  case Guard::NotFirstIter:
    return "not first";
  case Guard::NotLastIter:
    return "not last";
  }
  return "";
}

std::optional<uint64_t> Domain::constantTrips() const {
  if (!Present)
    return uint64_t(1);
  if (!Start || !End || !Step || *Step == 0)
    return std::nullopt;
  int64_t S = *Start, E = *End, St = *Step;
  if (St > 0)
    return E <= S ? 0 : uint64_t((E - S + St - 1) / St);
  return E >= S ? 0 : uint64_t((S - E + (-St) - 1) / (-St));
}

std::string Domain::signature() const {
  if (!Present)
    return "<none>";
  return StartText + ";" + EndText + ";" + StepText;
}

std::string Domain::symbolicKey() const {
  if (!Present || constantTrips())
    return "";
  // With step 1 the trip count is end - start: offsets move it by a
  // constant. Other steps only match when the offsets match too.
  bool UnitStep = Step && *Step == 1;
  std::string Key = (StartKey.empty() ? StartSym : StartKey) + ";" +
                    (EndKey.empty() ? EndSym : EndKey) + ";" + StepText;
  if (!UnitStep)
    Key += ";" + std::to_string(StartOff) + ";" + std::to_string(EndOff);
  return Key;
}

int64_t Domain::tripOffset() const {
  return Step && *Step == 1 ? EndOff - StartOff : 0;
}

std::vector<const Domain *> Task::domains() const {
  std::vector<const Domain *> Out;
  if (Dom.Present)
    Out.push_back(&Dom);
  for (const Domain &D : Inners)
    Out.push_back(&D);
  return Out;
}

bool Task::produces(unsigned R) const {
  return std::find(Produces.begin(), Produces.end(), R) != Produces.end();
}

bool Task::consumes(unsigned R) const {
  return std::find(Consumes.begin(), Consumes.end(), R) != Consumes.end();
}

bool Task::owns(unsigned R) const {
  return std::find(Owns.begin(), Owns.end(), R) != Owns.end();
}

std::vector<Edge> deriveEdges(const Program &P, const Kernel &K) {
  std::vector<Edge> Out;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned From : T.Consumes)
      for (unsigned To : T.Produces) {
        bool Seen = std::any_of(Out.begin(), Out.end(), [&](const Edge &E) {
          return E.From == From && E.To == To;
        });
        if (!Seen)
          Out.push_back({From, To, T.Loc});
      }
  }
  return Out;
}

std::vector<unsigned> kernelResources(const Program &P, const Kernel &K) {
  std::vector<unsigned> Out;
  auto Add = [&](unsigned R) {
    if (std::find(Out.begin(), Out.end(), R) == Out.end())
      Out.push_back(R);
  };
  for (unsigned TI : K.Tasks) {
    for (const TaskParam &Param : P.Tasks[TI].Params)
      if (Param.K != TaskParam::Kind::Value)
        Add(Param.Resource);
  }
  return Out;
}

unsigned blockWarps(const Program &P, const Kernel &K) {
  unsigned End = 0;
  for (unsigned TI : K.Tasks)
    End = std::max(End, P.Tasks[TI].endWarp());
  return End;
}

} // namespace ts
