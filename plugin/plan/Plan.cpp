//===- Plan.cpp - One kernel plan -----------------------------------------===//
#include "plan/Plan.h"

#include <algorithm>
#include <set>

namespace ts {

const Protocol &protocolOf(PipelineKind K) {
  // TMA: the producer leader's arrive.expect_tx is the one arrival per
  // producer task, the bytes complete the phase. Threads: everyone arrives.
  static const Protocol Gmem{false, false, false, 1, 0};
  static const Protocol AsyncAsync{false, true, true, 1, 0};
  static const Protocol TmaAsync{true, false, true, 1, 0};
  // tcgen05: the MMA task's one commit is its one arrival (on empty for a
  // consumer, on full for a producer); threads reading tensor memory each
  // arrive after their loads.
  static const Protocol TmaUmma{true, false, false, 1, 0};
  static const Protocol UmmaAsync{false, false, true, 1, 0};
  // CLC: the scheduler leader arms the response's bytes, try_cancel
  // completes them; threads read the response and each arrive.
  static const Protocol ClcAsync{true, false, true, 1, 0};
  // Threads fill for MMAs (each fences, then arrives); MMAs on both sides
  // (one commit each way).
  static const Protocol AsyncUmma{false, true, false, 1, 0};
  static const Protocol UmmaUmma{false, false, false, 1, 0};
  switch (K) {
  case PipelineKind::Gmem:
  case PipelineKind::TaskOwned:
  case PipelineKind::Turns: // named barriers: TurnPlan
    return Gmem;
  case PipelineKind::AsyncAsync:
    return AsyncAsync;
  case PipelineKind::TmaAsync:
    return TmaAsync;
  case PipelineKind::TmaUmma:
    return TmaUmma;
  case PipelineKind::UmmaAsync:
    return UmmaAsync;
  case PipelineKind::ClcAsync:
    return ClcAsync;
  case PipelineKind::AsyncUmma:
    return AsyncUmma;
  case PipelineKind::UmmaUmma:
    return UmmaUmma;
  }
  return Gmem;
}

unsigned baselineRegisters(const Target &T, unsigned Warps) {
  unsigned G = T.WarpGroupWarps;
  unsigned Threads = (std::max(Warps, 1u) + G - 1) / G * G * T.WarpThreads;
  unsigned PerThread = T.RegisterFile / (Threads * T.RegGranule) * T.RegGranule;
  return std::min(T.MaxRegs, PerThread);
}

bool PipelinePlan::fillsWithThreads(unsigned Task) const {
  return std::find(ThreadFillers.begin(), ThreadFillers.end(), Task) !=
         ThreadFillers.end();
}

bool PipelinePlan::armsTxBytes(unsigned Task) const {
  if (!TxBytes)
    return false;
  for (unsigned TI : Producers)
    if (!fillsWithThreads(TI))
      return TI == Task;
  return false;
}

bool PipelinePlan::consumerStores(unsigned Task) const {
  return std::find(StoringConsumers.begin(), StoringConsumers.end(), Task) !=
         StoringConsumers.end();
}

bool PipelinePlan::releasesByCommit(unsigned Task) const {
  return std::find(CommitReleasers.begin(), CommitReleasers.end(), Task) !=
         CommitReleasers.end();
}

bool PipelinePlan::consumerReadsAsync(unsigned Task) const {
  return std::find(AsyncReaders.begin(), AsyncReaders.end(), Task) !=
         AsyncReaders.end();
}

const PipelinePlan *KernelPlan::pipeline(unsigned Resource) const {
  for (const PipelinePlan &PP : Pipelines)
    if (PP.Resource == Resource)
      return &PP;
  return nullptr;
}

namespace {

bool loadsWithTma(const Task &T, unsigned R) {
  return std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Resource == R && (O.TmaLoad || O.TmaLoadMaybeSkipped);
  });
}

/// A ts::merge stage's TMA bytes: ts::tx_bytes, else the members the TMA
/// fillers load (the thread fillers write the rest); the whole payload
/// when a load's destination is not a member.
uint64_t mergedTxBytes(const Program &P, const Resource &Res, unsigned R,
                       const std::vector<unsigned> &TmaFillers) {
  if (Res.TxBytes)
    return *Res.TxBytes;
  std::set<std::string> Loaded;
  for (unsigned TI : TmaFillers)
    for (const Op &O : P.Tasks[TI].Ops) {
      if (O.Resource != R || !(O.TmaLoad || O.TmaLoadMaybeSkipped))
        continue;
      if (!O.LoadFieldsKnown || Res.Fields.empty())
        return Res.PayloadBytes;
      for (const auto *Fs : {&O.LoadFields, &O.SkippableLoadFields})
        for (const std::string &F : *Fs)
          if (F.empty())
            return Res.PayloadBytes;
          else
            Loaded.insert(F);
    }
  uint64_t Sum = 0;
  for (const Resource::Field &F : Res.Fields)
    Sum += Loaded.count(F.Name) ? F.Bytes : 0;
  return Sum;
}

/// Participants come from the task's handles: the handle is what the
/// lowering binds to the pipe, so it is also what arrives on the barriers.
PipelinePlan pipelinePlan(const Program &P, const Kernel &K, unsigned R,
                          const Target &Tg,
                          const std::vector<unsigned> &Leaders) {
  PipelinePlan PP;
  PP.Resource = R;
  const Resource &Res = P.Resources[R];
  const Protocol &Pr = protocolOf(Res.Kind);
  unsigned ConsumerArrivals = 0, FullArrivals = 0;
  unsigned Releases = 0; // per CTA: one per commit, one per warp otherwise
  unsigned LeaderArrivals = 0; // of consumers that run on rank 0 only
  std::vector<unsigned> TmaFillers;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    if (T.produces(R)) {
      PP.Producers.push_back(TI);
      bool Threads = Res.Merge && !loadsWithTma(T, R);
      if (Threads)
        PP.ThreadFillers.push_back(TI);
      else
        TmaFillers.push_back(TI);
      // One arrival per producer task (a TMA leader's, a commit), or one
      // per thread.
      FullArrivals +=
          Threads || Pr.FullPerThread ? Tg.WarpThreads * T.NumWarps : 1;
    }
    if (T.consumes(R)) {
      PP.Consumers.push_back(TI);
      auto Work = [&](const Op &O) {
        return O.Kind == OpKind::Work && O.Resource == R &&
               O.R == Role::Consumer;
      };
      if (std::any_of(T.Ops.begin(), T.Ops.end(),
                      [&](const Op &O) { return Work(O) && O.MayStoreAsync; }))
        PP.StoringConsumers.push_back(TI);
      // A TMA store's reads are awaited per thread: the warp must meet after.
      bool Async = std::all_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
        return !Work(O) || ((O.AsyncRead || O.AddressOnly) && !O.MayStoreAsync);
      });
      // Threads' tcgen05.ld are awaited per thread, at the release; a CLC
      // response is read by threads.
      Async &= Res.Kind != PipelineKind::UmmaAsync &&
               Res.Kind != PipelineKind::ClcAsync;
      bool Commits = mmaConsumes(Res.Kind) &&
                     (!Res.Fork ||
                      std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
                        return Work(O) && O.UmmaAccess;
                      }));
      Releases += Commits ? 1 : T.NumWarps;
      if (Commits)
        PP.CommitReleasers.push_back(TI);
      else if (Async)
        PP.AsyncReaders.push_back(TI);
      // Local releases: one commit for an MMA task, lane 0 for a warp of
      // async readers (its reads ended at a warp-aligned wgmma.wait_group;
      // per thread cost head dim 64 attention a tenth, docs/benchmarks.md),
      // every thread otherwise.
      unsigned Arrivals =
          Commits ? 1 : T.NumWarps * (Async ? 1 : Tg.WarpThreads);
      ConsumerArrivals += Arrivals;
      if (std::count(Leaders.begin(), Leaders.end(), TI))
        LeaderArrivals += Arrivals;
    }
  }
  PP.Counts.Full = FullArrivals;
  PP.Counts.Empty = Pr.EmptyPerThread || Res.Fork
                        ? ConsumerArrivals
                        : unsigned(PP.Consumers.size());
  PP.ProducerStartPhase = Pr.ProducerStartPhase;
  PP.ConsumerStartPhase = Pr.ConsumerStartPhase;
  PP.TxBytes =
      !Pr.TxBytes ? 0
      : Res.Merge
          ? (TmaFillers.empty() ? 0 : mergedTxBytes(P, Res, R, TmaFillers))
          : Res.TxBytes.value_or(Res.PayloadBytes);
  // Multicast: every CTA's loads may fill this CTA's stage, so a stage is
  // empty once every consumer of every CTA handed it back: one arrival per
  // warp and CTA (keeps the remote arrivals few), or per MMA task's
  // multicast commit. The bytes stay per CTA: all of a stage's bytes land
  // in each CTA, whoever issued them. In a one-CTA cluster a multicast
  // resource is an ordinary one.
  if (Res.Multicast && K.clusterCtas() > 1) {
    PP.Peers = K.clusterCtas();
    PP.McastMask = (1u << PP.Peers) - 1;
    PP.Counts.Empty = Releases * PP.Peers;
  }
  // A CLC queue in a cluster: rank 0's scheduler fills every CTA's stage
  // with one multicast request, so rank 0's empty barrier counts every
  // reader thread of every CTA, and each CTA's scheduler (its lane 0
  // reads the response too).
  // A pair's MMA task reads it on rank 0 only.
  if (Res.Kind == PipelineKind::ClcAsync && K.clusterCtas() > 1) {
    PP.Peers = K.clusterCtas();
    PP.McastMask = (1u << PP.Peers) - 1;
    PP.Counts.Empty =
        (ConsumerArrivals + 1) * PP.Peers - LeaderArrivals * (PP.Peers - 1);
  }
  // A CTA pair (verify/Pairs.cpp: a cluster of two): both CTAs' loads
  // complete on rank 0's full barrier, armed once for both halves; rank
  // 0's MMA commits multicast, one arrival on each CTA's barrier; every
  // accumulator reader of both CTAs hands back to rank 0.
  if (Res.Pair) {
    PP.Pair = true;
    PP.Peers = 2;
    PP.McastMask = 0x3;
    if (Res.Kind == PipelineKind::UmmaAsync)
      PP.Counts.Empty = ConsumerArrivals * 2;
  }
  return PP;
}

std::vector<RegisterRegion> registerRegions(const Program &P, const Kernel &K,
                                            const KernelPlan &Plan) {
  unsigned G4 = Plan.Tgt->WarpGroupWarps;
  std::vector<RegisterRegion> Out;
  for (const WarpGroup &WG : Plan.Groups) {
    std::optional<unsigned> Budget;
    if (!WG.Budget.empty())
      Budget = P.Tasks[WG.Budget.back()].Regs;
    unsigned End = std::min(WG.first() + G4, Plan.Warps);
    if (!Out.empty() && Out.back().Budget == Budget)
      Out.back().End = End;
    else
      Out.push_back({WG.first(), End, Budget, {}});
  }
  std::vector<unsigned> Order = K.Tasks;
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    return P.Tasks[A].FirstWarp < P.Tasks[B].FirstWarp;
  });
  for (unsigned TI : Order)
    for (RegisterRegion &R : Out)
      if (P.Tasks[TI].FirstWarp >= R.First && P.Tasks[TI].FirstWarp < R.End)
        R.Tasks.push_back(TI);
  return Out;
}

/// Each warp's budget, over whole warp groups (setmaxnreg acts by group;
/// padding fills a group with a budget). The register file holds the
/// block's warps only: a last group without a budget may be partial.
void warpBudgets(const Program &P, const Kernel &K, KernelPlan &Plan) {
  unsigned G4 = Plan.Tgt->WarpGroupWarps;
  unsigned Slots = (Plan.Warps + G4 - 1) / G4 * G4;
  Plan.WarpBudget.assign(Slots, std::nullopt);
  for (const Task *T : Plan.tasks(P, K))
    for (unsigned W = T->FirstWarp;
         T->Regs && W < std::min(T->endWarp(), Slots); ++W)
      Plan.WarpBudget[W] = T->Regs;
  for (unsigned W = 0; W < std::min(Slots, Plan.Warps); ++W)
    Plan.RegisterSum += uint64_t(Plan.Tgt->WarpThreads) * Plan.warpRegs(W);
}

} // namespace

std::vector<const Task *> KernelPlan::tasks(const Program &P,
                                            const Kernel &K) const {
  std::vector<const Task *> Out;
  for (unsigned TI : K.Tasks)
    Out.push_back(&P.Tasks[TI]);
  for (const Task &T : Padding)
    Out.push_back(&T);
  return Out;
}

std::vector<KernelPlan::TaskPair> KernelPlan::exchangingPairs() const {
  std::vector<TaskPair> Out;
  std::set<std::pair<unsigned, unsigned>> Seen;
  for (const PipelinePlan &PP : Pipelines) {
    std::vector<unsigned> Side = PP.Producers;
    Side.insert(Side.end(), PP.Consumers.begin(), PP.Consumers.end());
    for (unsigned A : Side)
      for (unsigned B : Side)
        if (A < B && Seen.insert({A, B}).second)
          Out.push_back({A, B, PP.Resource});
  }
  // Positions of a ring take turns in lockstep: they too must agree.
  for (const TurnPlan &TP : Turns)
    for (unsigned A : TP.Ring)
      for (unsigned B : TP.Ring)
        if (A < B && Seen.insert({A, B}).second)
          Out.push_back({A, B, TP.Resource});
  return Out;
}

bool KernelPlan::leadsPair(unsigned Task) const {
  return std::count(PairLeaders.begin(), PairLeaders.end(), Task) != 0;
}

std::vector<unsigned> pairLeaders(const Program &P, const Kernel &K) {
  std::vector<unsigned> Out;
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned R = 0; R < P.Resources.size(); ++R) {
      const Resource &Res = P.Resources[R];
      bool Issues = (Res.Kind == PipelineKind::TmaUmma && T.consumes(R)) ||
                    (Res.Kind == PipelineKind::UmmaAsync && T.produces(R));
      if (Res.Pair && Issues) {
        Out.push_back(TI);
        break;
      }
    }
  }
  return Out;
}

unsigned KernelPlan::warpRegs(unsigned W) const {
  return W < WarpBudget.size() && WarpBudget[W] ? *WarpBudget[W] : BaselineRegs;
}

KernelPlan buildPlan(const Program &P, const Kernel &K, const Target &T,
                     uint64_t TripBound) {
  KernelPlan Plan;
  Plan.Tgt = &T;
  Plan.TripBound = K.TripBoundOptOut ? K.TripBound : TripBound;
  Plan.SmemCapacity = K.SmemCapacity.value_or(T.SmemCapacity);
  Plan.Groups = warpGroups(P, K, T);
  padWarpGroups(P, K, Plan);
  Plan.Warps = blockWarps(P, K);
  for (const Task &Pad : Plan.Padding)
    Plan.Warps = std::max(Plan.Warps, Pad.endWarp());
  Plan.Threads = Plan.Warps * T.WarpThreads;
  Plan.BaselineRegs = baselineRegisters(T, Plan.Warps);
  warpBudgets(P, K, Plan);
  Plan.Regions = registerRegions(P, K, Plan);
  Plan.PairLeaders = pairLeaders(P, K);
  std::vector<unsigned> Placed;
  for (unsigned R : kernelResources(P, K)) {
    if (inSharedMemory(P.Resources[R]))
      Placed.push_back(R);
    if (isPipelined(P.Resources[R].Kind))
      Plan.Pipelines.push_back(pipelinePlan(P, K, R, T, Plan.PairLeaders));
    if (P.Resources[R].Pair)
      Plan.CtaGroup = 2;
  }
  Plan.Layout = computeLayout(P, Placed, K.Aliases, T);
  Plan.Tmem = planTmem(P, K, T, Plan.Layout);
  planTurns(P, K, Plan);
  std::copy(K.Cluster, K.Cluster + 3, Plan.Cluster);
  Plan.ClusterCtas = K.clusterCtas();
  Plan.CtasPerSm = std::min<uint64_t>(
      {T.SmCtas, T.SmThreads / std::max(Plan.Threads, 1u),
       T.SmSmem / (Plan.Layout.DynamicBytes + T.CtaReservedSmem)});
  Plan.Pdl = std::any_of(K.Tasks.begin(), K.Tasks.end(), [&](unsigned TI) {
    const std::vector<Op> &Ops = P.Tasks[TI].Ops;
    return std::any_of(Ops.begin(), Ops.end(),
                       [](const Op &O) { return isPdlOp(O.Kind); });
  });
  return Plan;
}

} // namespace ts
