//===- Json.cpp - Machine-readable kernel report --------------------------===//
#include "report/Json.h"

#include <cstdio>
#include <sstream>

namespace ts {
namespace {

std::string str(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += char(C);
    } else if (C < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof Buf, "\\u%04x", C);
      Out += Buf;
    } else {
      Out += char(C);
    }
  }
  return Out + "\"";
}

template <class T, class F>
std::string list(const std::vector<T> &Items, F Each) {
  std::string Out = "[";
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I ? "," : "") + Each(Items[I]);
  return Out + "]";
}

} // namespace

std::string kernelJson(const Program &P, const Kernel &K,
                       const KernelPlan &Plan, const DiagList &Findings,
                       const Locator &Where,
                       const std::function<const char *(const Diag &)> &Level) {
  auto Name = [&](unsigned R) { return str(P.Resources[R].Name); };
  std::ostringstream OS;
  OS << "{\"kernel\":" << str(K.Name) << ",\"threads\":" << Plan.Threads
     << ",\"smem_bytes\":" << Plan.Layout.DynamicBytes
     << ",\"smem_capacity\":" << Plan.SmemCapacity
     << ",\"baseline_registers\":" << Plan.BaselineRegs
     << ",\"target\":" << str(Plan.Tgt->Name);
  OS << ",\"tmem\":{\"allocated\":" << Plan.Tmem.Alloc
     << ",\"capacity\":" << Plan.Tmem.Capacity << ",\"regions\":"
     << list(Plan.Tmem.Regions,
             [&](const TmemRegion &TR) {
               return "{\"resource\":" + Name(TR.Resource) +
                      ",\"first\":" + std::to_string(TR.Column) +
                      ",\"columns\":" + std::to_string(TR.Columns) + "}";
             })
     << "}";
  OS << ",\"tasks\":" << list(Plan.tasks(P, K), [&](const Task *TP) {
    const Task &T = *TP;
    std::ostringstream TS;
    TS << "{\"name\":" << str(T.Name) << ",\"first_warp\":" << T.FirstWarp
       << ",\"warps\":" << T.NumWarps
       << ",\"regs\":" << (T.Regs ? std::to_string(*T.Regs) : "null")
       << ",\"cta\":" << (T.Cta ? std::to_string(*T.Cta) : "null")
       << ",\"padding\":" << (T.Padding ? "true" : "false")
       << (!T.Padding && Plan.leadsPair(unsigned(&T - P.Tasks.data()))
               ? ",\"pair_rank0_only\":true"
               : "")
       << ",\"consumes\":" << list(T.Consumes, Name)
       << ",\"produces\":" << list(T.Produces, Name);
    TS << ",\"owns\":" << list(T.Owns, Name);
    if (T.Dom.Present)
      TS << ",\"domain\":[" << str(T.Dom.StartText) << "," << str(T.Dom.EndText)
         << "," << str(T.Dom.StepText) << "]";
    if (T.nested())
      TS << ",\"inner_domains\":" << list(T.Inners, [&](const Domain &D) {
        return "[" + str(D.StartText) + "," + str(D.EndText) + "," +
               str(D.StepText) + "]";
      });
    TS << ",\"ops\":" << list(T.Ops, [&](const Op &O) {
      return "{\"op\":" + str(opKindName(O.Kind)) + ",\"resource\":" +
             (O.onResource() ? Name(O.Resource) : std::string("null")) +
             ",\"section\":" + str(sectionName(O.Sec)) +
             ",\"guard\":" + str(guardName(O.G)) +
             ",\"at\":" + str(Where(O.Loc)) + "}";
    });
    return TS.str() + "}";
  });
  OS << ",\"resources\":" << list(kernelResources(P, K), [&](unsigned R) {
    const Resource &Res = P.Resources[R];
    std::ostringstream RS;
    RS << "{\"name\":" << str(Res.Name)
       << ",\"kind\":" << str(pipelineKindName(Res.Kind))
       << ",\"stages\":" << Res.Stages
       << ",\"payload_bytes\":" << Res.PayloadBytes << ",\"tx_bytes\":"
       << (Plan.pipeline(R) ? Plan.pipeline(R)->TxBytes : 0);
    const ResourceLayout *RL = Plan.Layout.find(R);
    if (RL)
      RS << ",\"offset\":" << RL->DataOffset
         << ",\"stage_stride\":" << RL->StageStride
         << ",\"align\":" << RL->Align;
    if (RL && RL->Barriers)
      RS << ",\"full_barriers\":" << RL->FullBarOffset
         << ",\"empty_barriers\":" << RL->EmptyBarOffset
         << ",\"full_arrivals\":" << Plan.pipeline(R)->Counts.Full
         << ",\"empty_arrivals\":" << Plan.pipeline(R)->Counts.Empty;
    if (const TurnPlan *TP = Plan.turn(R)) {
      std::vector<unsigned> Pos(TP->Ring.size());
      for (unsigned I = 0; I < Pos.size(); ++I)
        Pos[I] = I;
      RS << ",\"ring\":" << list(Pos, [&](unsigned I) {
        return "{\"task\":" + str(P.Tasks[TP->Ring[I]].Name) +
               ",\"barrier\":" + std::to_string(TP->BarrierId[I]) +
               ",\"threads\":" + std::to_string(TP->Threads[I]) + "}";
      });
    }
    if (Res.Multicast)
      RS << ",\"multicast_ctas\":"
         << (RL && RL->Barriers ? Plan.pipeline(R)->Peers : 1u);
    if (const PipelinePlan *PP = Plan.pipeline(R)) {
      // The plan's per-task decisions a tool may show: who arms the bytes
      // (several loaders), who fills with threads (ts::merge), and the
      // CTAs of a cluster a CLC queue serves.
      for (unsigned TI : PP->Producers)
        if (PP->Producers.size() > 1 && PP->armsTxBytes(TI))
          RS << ",\"armed_by\":" << str(P.Tasks[TI].Name);
      if (!PP->ThreadFillers.empty())
        RS << ",\"thread_fillers\":"
           << list(PP->ThreadFillers,
                   [&](unsigned TI) { return str(P.Tasks[TI].Name); });
      if (Res.Kind == PipelineKind::ClcAsync && PP->Peers > 1)
        RS << ",\"cluster_ctas\":" << PP->Peers;
      if (PP->Pair) // a CTA pair: the bytes rank 0 arms for both halves
        RS << ",\"cta_pair\":true,\"armed_bytes\":" << PP->armedBytes();
    }
    return RS.str() + "}";
  });
  OS << ",\"edges\":" << list(deriveEdges(P, K), [&](const Edge &E) {
    return "[" + Name(E.From) + "," + Name(E.To) + "]";
  });
  OS << ",\"aliases\":" << list(K.Aliases, [&](const AliasGroup &G) {
    return list(G.Phases, Name);
  });
  OS << ",\"grid_dependent\":" << list(K.GridDependent, Name)
     << ",\"pdl\":" << (Plan.Pdl ? "true" : "false")
     << ",\"pdl_waited\":" << (K.PdlWaited ? "true" : "false")
     << ",\"cluster\":[" << Plan.Cluster[0] << "," << Plan.Cluster[1] << ","
     << Plan.Cluster[2] << "]";
  DiagList Shown;
  for (const Diag &D : Findings)
    if (*Level(D))
      Shown.push_back(D);
  OS << ",\"findings\":" << list(Shown, [&](const Diag &D) {
    return "{\"level\":" + str(Level(D)) +
           ",\"group\":" + str(checkFlag(D.Group)) +
           ",\"at\":" + str(Where(D.Loc)) + ",\"message\":" + str(D.Message) +
           ",\"notes\":" +
           list(D.Notes,
                [&](const DiagNote &N) {
                  return "{\"at\":" + str(Where(N.Loc)) +
                         ",\"message\":" + str(N.Message) + "}";
                }) +
           ",\"trace_events\":" + std::to_string(D.TraceTotal) + ",\"trace\":" +
           list(D.Trace,
                [&](const TraceStep &S) {
                  return "{\"task\":" + str(S.Task) + ",\"op\":" + str(S.Op) +
                         ",\"resource\":" + str(S.Resource) +
                         ",\"when\":" + str(S.When) +
                         ",\"at\":" + str(Where(S.Loc)) + "}";
                }) +
           "}";
  });
  OS << "}";
  return OS.str();
}

} // namespace ts
