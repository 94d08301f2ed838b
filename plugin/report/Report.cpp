//===- Report.cpp - The schedule and verification report ------------------===//
#include "report/Report.h"

#include <sstream>

namespace ts {

static std::string resourceList(const Program &P,
                                const std::vector<unsigned> &Rs) {
  std::string S;
  for (unsigned R : Rs)
    S += (S.empty() ? "" : ", ") + P.Resources[R].Name;
  return S.empty() ? "-" : S;
}

std::string kernelReport(const Program &P, const Kernel &K,
                         const KernelPlan &Plan, const VerifyResult &V,
                         unsigned Errors, unsigned Warnings) {
  std::ostringstream OS;
  const std::string Table = scheduleTable(V.simProgram(P), K, V.Sim);
  OS << "== libts kernel '" << K.Name << "': " << Plan.Warps << " warps, "
     << Plan.Threads << " threads, " << Plan.Layout.DynamicBytes
     << " B dynamic shared memory, baseline " << Plan.BaselineRegs
     << " registers/thread";
  if (Plan.ClusterCtas > 1)
    OS << ", clusters of " << Plan.ClusterCtas << " CTAs (" << Plan.Cluster[0]
       << "x" << Plan.Cluster[1] << "x" << Plan.Cluster[2]
       << "; everything below is per CTA)";
  if (Plan.Tgt != &targetSm90a())
    OS << ", target " << Plan.Tgt->Name;
  if (Plan.Tmem.Alloc)
    OS << ", " << Plan.Tmem.Alloc << " columns of tensor memory";
  OS << "\n";
  OS << "-- tasks\n";
  for (const Task *TP : Plan.tasks(P, K)) {
    const Task &T = *TP;
    OS << "  " << (T.Padding ? "(padding)" : T.Name) << "  warps ["
       << T.FirstWarp << ", " << T.endWarp() << ")";
    if (T.Regs)
      OS << "  regs " << *T.Regs;
    if (T.Cta)
      OS << "  cta " << *T.Cta;
    if (!T.Padding && Plan.leadsPair(unsigned(&T - P.Tasks.data())))
      OS << "  rank 0 of each CTA pair (issues the pair's MMAs)";
    if (!T.Padding) {
      OS << "  consumes " << resourceList(P, T.Consumes) << "  produces "
         << resourceList(P, T.Produces);
      if (!T.Owns.empty())
        OS << "  owns " << resourceList(P, T.Owns);
      if (T.Dom.Dynamic)
        OS << "  " << T.Dom.EndText;
      else if (T.Dom.Present)
        OS << "  domain(" << T.Dom.StartText << ", " << T.Dom.EndText << ", "
           << T.Dom.StepText << ")" << (T.Dom.NonEmpty ? ".nonempty()" : "");
      for (const Domain &D : T.Inners)
        OS << (&D == &T.Inners.front() ? " > " : ", ") << "domain("
           << D.StartText << ", " << D.EndText << ", " << D.StepText << ")"
           << (D.NonEmpty ? ".nonempty()" : "");
    }
    OS << "\n";
  }
  OS << "-- resources\n";
  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    OS << "  " << Res.Name << "  " << pipelineKindName(Res.Kind);
    if (isPipelined(Res.Kind))
      OS << "  stages " << Res.Stages << "  payload " << Res.PayloadBytes
         << " B";
    if (Res.inTmem())
      OS << "  " << Res.TmemColumns << " columns of tensor memory"
         << (isPipelined(Res.Kind) ? " per stage" : ", private to its task");
    else if (Res.Kind == PipelineKind::TaskOwned)
      OS << "  " << Res.PayloadBytes << " B, private to its task";
    if (const TurnPlan *TP = Plan.turn(R)) // "ring a (bar 4) -> b (bar 5)"
      for (size_t Pos = 0; Pos < TP->Ring.size(); ++Pos)
        OS << (Pos ? " -> " : "  ring ") << P.Tasks[TP->Ring[Pos]].Name
           << " (bar " << TP->BarrierId[Pos] << ", " << TP->Threads[Pos]
           << " threads)";
    if (isTma(Res.Kind)) {
      const PipelinePlan &PP = *Plan.pipeline(R);
      OS << "  tx " << PP.TxBytes << " B";
      for (unsigned TI : PP.Producers) // The plan's one arming producer.
        if (PP.Producers.size() > 1 && PP.armsTxBytes(TI))
          OS << " (armed by '" << P.Tasks[TI].Name << "')";
      for (unsigned TI : PP.ThreadFillers)
        OS << " (filled by the threads of '" << P.Tasks[TI].Name << "')";
    }
    if (const PipelinePlan *PP = Plan.pipeline(R))
      OS << "  arrivals full " << PP->Counts.Full << " / empty "
         << PP->Counts.Empty;
    if (const PipelinePlan *PP = Plan.pipeline(R);
        PP && Res.Kind == PipelineKind::ClcAsync && PP->Peers > 1)
      OS << "  cluster: rank 0 fetches for all " << PP->Peers
         << " CTAs, every reader hands stages back to it";
    if (const PipelinePlan *PP = Plan.pipeline(R); PP && PP->Pair)
      OS << (Res.Kind == PipelineKind::TmaUmma
                 ? "  CTA pair: each CTA loads its half, rank 0 arms " +
                       std::to_string(PP->armedBytes()) +
                       " B for both and its MMAs read both"
                 : std::string("  CTA pair: rank 0's MMAs fill both CTAs' "
                               "halves, every reader hands back to rank 0"));
    if (Res.Multicast)
      OS << (Plan.ClusterCtas > 1
                 ? "  multicast: stages filled by all " +
                       std::to_string(Plan.ClusterCtas) +
                       " CTAs, released by every consumer " +
                       (isUmma(Res.Kind) ? "task's multicast commit"
                                         : std::string("warp")) +
                       " to each"
                 : std::string(
                       "  multicast: a one-CTA cluster, loads stay local"));
    OS << "\n";
  }
  OS << "-- dependency graph (consumed -> produced)\n";
  std::vector<Edge> Edges = deriveEdges(P, K);
  if (Edges.empty())
    OS << "  (no edges)\n";
  for (const Edge &E : Edges)
    OS << "  " << P.Resources[E.From].Name << " -> " << P.Resources[E.To].Name
       << "\n";
  OS << "-- schedule (credit simulation)\n" << Table;
  if (!Table.empty() && Table.back() != '\n')
    OS << "\n";
  OS << layoutReport(P, K, Plan);
  OS << "-- verification: "
     << (Errors          ? "FAILED"
         : V.ProtocolRun ? "PASSED"
                         : "NOT VERIFIED");
  OS << " (" << Errors << " error(s), " << Warnings << " warning(s))\n";
  OS << "   checks:";
  for (const CheckInfo &I : checkTable())
    OS << " " << I.Flag;
  OS << "\n   protocol: " << V.Coverage << "\n";
  return OS.str();
}

static std::string pad(std::string S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  std::string Fill(W - S.size(), ' ');
  return Right ? Fill + S : S + Fill;
}

std::string layoutReport(const Program &P, const Kernel &K,
                         const KernelPlan &Plan) {
  const BlockLayout &L = Plan.Layout;
  std::ostringstream OS;
  OS << "[smem-layout] kernel '" << K.Name << "'\n";
  OS << "  " << pad("resource", 16) << pad("kind", 12) << pad("stages", 7, true)
     << pad("stage B", 10, true) << pad("align", 7, true)
     << pad("offset", 10, true) << pad("end", 10, true) << "\n";
  for (const ResourceLayout &RL : L.Resources) {
    const Resource &R = P.Resources[RL.Resource];
    uint64_t End = RL.DataOffset + RL.RegionBytes;
    OS << "  " << pad(R.Name, 16) << pad(pipelineKindName(R.Kind), 12)
       << pad(std::to_string(R.Stages), 7, true)
       << pad(std::to_string(RL.StageStride), 10, true)
       << pad(std::to_string(RL.Align), 7, true)
       << pad(std::to_string(RL.DataOffset), 10, true)
       << pad(std::to_string(End), 10, true) << "\n";
  }
  OS << "  " << pad("barrier", 22) << pad("count", 10, true)
     << pad("arrivals", 10, true) << pad("offset", 10, true) << "\n";
  for (const ResourceLayout &RL : L.Resources) {
    if (!RL.Barriers)
      continue;
    const Resource &R = P.Resources[RL.Resource];
    const ArrivalCounts &C = Plan.pipeline(RL.Resource)->Counts;
    std::string Count = std::to_string(R.Stages) + " x 8 B";
    OS << "  " << pad(R.Name + ".full", 22) << pad(Count, 10, true)
       << pad(std::to_string(C.Full), 10, true)
       << pad(std::to_string(RL.FullBarOffset), 10, true) << "\n";
    OS << "  " << pad(R.Name + ".empty", 22) << pad(Count, 10, true)
       << pad(std::to_string(C.Empty), 10, true)
       << pad(std::to_string(RL.EmptyBarOffset), 10, true) << "\n";
  }
  OS << "  data " << L.DataBytes << " B + barriers " << L.BarrierBytes
     << (Plan.Tmem.Alloc ? " B + tensor-memory address 16" : "")
     << " B = " << L.TotalBytes << " B (launch size " << L.DynamicBytes
     << " B) / capacity " << Plan.SmemCapacity << " B\n";
  for (const AliasGroup &G : K.Aliases) {
    OS << "  alias:";
    for (size_t I = 0; I < G.Phases.size(); ++I)
      OS << (I ? " then " : " ") << P.Resources[G.Phases[I]].Name;
    OS << " (one base)\n";
  }
  if (L.AliasSavedBytes)
    OS << "  alias savings " << L.AliasSavedBytes << " B\n";
  OS << tmemReport(P, K, Plan);
  return OS.str();
}

std::string tmemReport(const Program &P, const Kernel &K,
                       const KernelPlan &Plan) {
  const TmemPlan &TP = Plan.Tmem;
  if (TP.Regions.empty())
    return "";
  std::ostringstream OS;
  OS << "[tmem-layout] kernel '" << K.Name << "'\n";
  OS << "  " << pad("resource", 16) << pad("columns", 8, true)
     << pad("first", 8, true) << pad("end", 8, true) << "\n";
  for (const TmemRegion &TR : TP.Regions)
    OS << "  " << pad(P.Resources[TR.Resource].Name, 16)
       << pad(std::to_string(TR.Columns), 8, true)
       << pad(std::to_string(TR.Column), 8, true)
       << pad(std::to_string(TR.Column + TR.Columns), 8, true)
       << (TR.Stages > 1 ? "  " + std::to_string(TR.Stages) + " stages, " +
                               std::to_string(TR.Stride) + " apart"
                         : std::string())
       << "\n";
  OS << "  used " << TP.Used << " columns, allocated " << TP.Alloc
     << " / capacity " << TP.Capacity << " (warp " << TP.Warp
     << " allocates before the first barrier, frees after the last; address "
        "at shared offset "
     << TP.SlotOffset << ")\n";
  OS << "  at most " << Plan.CtasPerSm
     << " CTA(s) of the kernel per SM: " << uint64_t(Plan.CtasPerSm) * TP.Alloc
     << " of " << Plan.Tgt->TmemColumns << " columns at once\n";
  return OS.str();
}

std::string graphDot(const Program &P, const Kernel &K) {
  std::ostringstream OS;
  OS << "digraph \"" << K.Name << "\" {\n";
  for (unsigned R : kernelResources(P, K))
    OS << "  \"" << P.Resources[R].Name << "\" [label=\"" << P.Resources[R].Name
       << "\\n"
       << pipelineKindName(P.Resources[R].Kind) << "\"];\n";
  for (const Edge &E : deriveEdges(P, K))
    OS << "  \"" << P.Resources[E.From].Name << "\" -> \""
       << P.Resources[E.To].Name << "\";\n";
  for (const Edge &E : K.DeclaredEdges)
    OS << "  \"" << P.Resources[E.From].Name << "\" -> \""
       << P.Resources[E.To].Name << "\" [style=dashed];\n";
  OS << "}\n";
  return OS.str();
}

} // namespace ts
