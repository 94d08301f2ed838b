//===- Report.cpp - The schedule and verification report -------------------===//
#include "lower/Report.h"
#include "lower/Lower.h"

#include <sstream>

namespace ts {

static std::string resourceList(const Program &P, const std::vector<unsigned> &Rs) {
  std::string S;
  for (unsigned R : Rs)
    S += (S.empty() ? "" : ", ") + P.Resources[R].Name;
  return S.empty() ? "-" : S;
}

std::string kernelReport(const Program &P, const Kernel &K, const BlockLayout &L,
                         const std::string &Table, unsigned Errors,
                         unsigned Warnings, const std::string &TripsChecked) {
  std::ostringstream OS;
  unsigned Warps = blockWarps(P, K);
  OS << "== libts kernel '" << K.Name << "': " << Warps << " warps, "
     << blockThreads(P, K) << " threads, " << L.DynamicBytes
     << " B dynamic shared memory, baseline " << defaultRegisters(Warps)
     << " registers/thread\n";
  OS << "-- tasks\n";
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    OS << "  " << (T.Padding ? "(padding)" : T.Name) << "  warps [" << T.FirstWarp
       << ", " << T.endWarp() << ")";
    if (T.Regs)
      OS << "  regs " << *T.Regs;
    if (T.Cta)
      OS << "  cta " << *T.Cta;
    if (!T.Padding) {
      OS << "  consumes " << resourceList(P, T.Consumes) << "  produces "
         << resourceList(P, T.Produces);
      if (T.Dom.Present)
        OS << "  domain(" << T.Dom.StartText << ", " << T.Dom.EndText << ", "
           << T.Dom.StepText << ")";
    }
    OS << "\n";
  }
  OS << "-- resources\n";
  for (unsigned R : kernelResources(P, K)) {
    const Resource &Res = P.Resources[R];
    OS << "  " << Res.Name << "  " << pipelineKindName(Res.Kind);
    if (isPipelined(Res.Kind))
      OS << "  stages " << Res.Stages << "  payload " << Res.PayloadBytes << " B";
    if (Res.Kind == PipelineKind::TmaAsync)
      OS << "  tx " << Res.TxBytes << " B";
    if (const ResourceLayout *RL = L.find(R))
      OS << "  arrivals full " << RL->Counts.Full << " / empty " << RL->Counts.Empty;
    OS << "\n";
  }
  OS << "-- dependency graph (consumed -> produced)\n";
  std::vector<Edge> Edges = deriveEdges(P, K);
  if (Edges.empty())
    OS << "  (no edges)\n";
  for (const Edge &E : Edges)
    OS << "  " << P.Resources[E.From].Name << " -> " << P.Resources[E.To].Name << "\n";
  OS << "-- schedule (credit simulation)\n" << Table;
  if (!Table.empty() && Table.back() != '\n')
    OS << "\n";
  OS << layoutReport(P, K, L);
  OS << "-- verification: ";
  if (Errors == 0)
    OS << "PASSED";
  else
    OS << "FAILED";
  OS << " (" << Errors << " error(s), " << Warnings
     << " warning(s); checks: warps, registers, roles, bracketing, graph, "
        "capacity, credit at trip counts "
     << TripsChecked << ")\n";
  return OS.str();
}

} // namespace ts
