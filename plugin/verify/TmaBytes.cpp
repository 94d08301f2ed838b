//===- TmaBytes.cpp - Armed transaction bytes must arrive -----------------===//
//
// Acquiring a tma_async stage arms its transaction bytes; only TMA loads
// deliver them. A stage committed without a load on every path leaves its
// consumers waiting forever (tile-ai/tilelang #2566), and so does one whose
// loads leave a member of the payload unwritten when the armed bytes are
// the whole payload.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

#include <algorithm>

#include <set>

namespace ts {
using namespace detail;

namespace {

/// One acquire..commit of a producer task on a resource, in op order.
struct Window {
  const Op *Acquire = nullptr, *Commit = nullptr;
  bool Loaded = false;           ///< A load on every path.
  const Op *Skippable = nullptr; ///< The first load that may be skipped.
  std::set<std::string> Fields;  ///< Payload members the loads write.
  bool Whole = false;            ///< A load at the stage itself.
  bool FieldsKnown = true;
  uint64_t Bytes = 0;     ///< What the loads under the acquire's guard deliver,
  bool BytesKnown = true; ///< counting every load's box.
  const Op *Load = nullptr;    ///< The first load.
  bool Worked = false;         ///< Some statement uses the stage.
  const Op *PerWarp = nullptr; ///< The first load_with_barrier.
};

/// The bytes O's loads deliver into one CTA's stage on every path: each
/// load its box (a ts::tma::map's type, else its destination taken as the
/// box); a multicast one from every CTA of the cluster, whose ranks
/// verify/Cluster.cpp holds to its shares. Known: every box is, and some
/// load runs on every path.
uint64_t deliveredBy(const Op &O, unsigned Ctas, bool &Known) {
  uint64_t Sum = 0;
  bool Some = false;
  for (const TmaLoadBox &B : O.Boxes) {
    if (!B.Times)
      continue; // may be skipped: delivers nothing for sure
    Some = true;
    std::optional<uint64_t> One = B.Box         ? B.Box
                                  : B.Multicast ? std::nullopt
                                                : B.Dst;
    Known &= One.has_value();
    Sum += One.value_or(0) * B.Times * (B.Multicast ? Ctas : 1);
  }
  Known &= Some;
  return Sum;
}

/// Brackets are checked elsewhere: here, each acquire up to the next commit
/// of R, section by section.
std::vector<Window> windows(const Task &T, unsigned R, unsigned Ctas) {
  std::vector<Window> Out;
  Window Open;
  for (Section S :
       {Section::Head, Section::Loop, Section::Inner, Section::Tail})
    for (const Op &O : T.Ops) {
      if (O.Sec != S || O.Resource != R || O.R != Role::Producer)
        continue;
      if (O.Kind == OpKind::Acquire) {
        Open = Window();
        Open.Acquire = &O;
      } else if (O.Kind == OpKind::Work && Open.Acquire) {
        Open.Worked = true;
        Open.Loaded |= O.TmaLoad && O.G == Open.Acquire->G;
        if (O.TmaLoad || O.TmaLoadMaybeSkipped) {
          bool Same = O.TmaLoad && O.G == Open.Acquire->G;
          bool Known = Same;
          Open.Bytes += Same ? deliveredBy(O, Ctas, Known) : 0;
          Open.BytesKnown &= Known;
          Open.Load = Open.Load ? Open.Load : &O;
          if (O.LoadPerWarp && !Open.PerWarp)
            Open.PerWarp = &O;
        }
        if (O.TmaLoadMaybeSkipped && !Open.Skippable)
          Open.Skippable = &O;
        for (const std::string &F : O.LoadFields)
          if (F.empty())
            Open.Whole = true;
          else
            Open.Fields.insert(F);
        Open.FieldsKnown &= O.LoadFieldsKnown;
      } else if (O.Kind == OpKind::Commit && Open.Acquire) {
        Open.Commit = &O;
        Out.push_back(Open);
        Open = Window();
      }
    }
  return Out;
}

/// Loads in an if-else whose branches load unalike: the stage's bytes
/// depend on the path.
bool unalike(const Op *O) {
  return O &&
         std::any_of(O->Boxes.begin(), O->Boxes.end(),
                     [](const TmaLoadBox &B) { return B.UnalikeBranches; });
}

void reportUnloaded(const Resource &Res, uint64_t TxBytes, const Window &W,
                    DiagList &Out) {
  std::string Bytes = std::to_string(TxBytes);
  if (unalike(W.Skippable)) {
    Diag &D = report(Out, Check::TmaBytes, W.Skippable->Loc,
                     "the branches of an if-else load different bytes or "
                     "members into " +
                         quote(Res.Name) +
                         ": a path may deliver fewer bytes "
                         "than the stage arms");
    note(D, W.Acquire->Loc,
         "acquire armed " + Bytes +
             " transaction bytes here, which every path to the commit must "
             "deliver");
    note(D, W.Commit->Loc,
         "load the same bytes into the same members in both branches "
         "(through any maps), or move the loads out of the if-else");
    return;
  }
  Diag &D = report(
      Out, Check::TmaBytes, W.Skippable ? W.Skippable->Loc : W.Acquire->Loc,
      W.Skippable
          ? "TMA load into " + quote(Res.Name) +
                " may be skipped, but its stage is committed anyway"
          : "stage of " + quote(Res.Name) + " is committed without a TMA load");
  note(D, W.Acquire->Loc,
       "acquire armed " + Bytes +
           " transaction bytes here; only TMA loads deliver them, "
           "so consumers of an undelivered stage wait forever");
  note(D, W.Commit->Loc,
       W.Skippable ? "issue the load on every path between acquire "
                     "and commit (guard the work around it, not the "
                     "load)"
                   : "call ts::tma::load(..., s.barrier()) in the "
                     "task between acquire and commit");
  if (!W.Load && !Res.Multicast)
    note(D, Res.Loc,
         "or, if the task fills the stage with its threads beside the other "
         "producers' loads, declare " +
             quote(Res.Name) + " ts::merge");
}

/// With the whole payload armed, every member must be some load's
/// destination: a member no load writes never delivers its bytes. Producer
/// tasks of one resource fill a stage together.
bool checkMembers(const Program &P, const Kernel &K, unsigned R,
                  const PipelinePlan &PP, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  uint64_t TxBytes = PP.TxBytes;
  if (Res.Fields.empty() || TxBytes != Res.PayloadBytes)
    return false;
  std::set<std::string> Written;
  std::optional<Window> First; // where to report
  for (unsigned TI : K.Tasks) {
    if (PP.fillsWithThreads(TI))
      continue;
    std::vector<Window> Ws = windows(P.Tasks[TI], R, K.clusterCtas());
    std::optional<std::set<std::string>> Every; // members every window writes
    for (const Window &W : Ws) {
      if (!W.FieldsKnown || W.Whole || !W.Loaded)
        return false; // unresolved, or reported by the check above
      std::set<std::string> Both;
      for (const std::string &F : W.Fields)
        if (!Every || Every->count(F))
          Both.insert(F);
      Every = Both;
      if (!First)
        First = W;
    }
    if (Every)
      Written.insert(Every->begin(), Every->end());
  }
  for (const Resource::Field &F : Res.Fields) {
    if (!First || Written.count(F.Name))
      continue;
    Diag &D =
        report(Out, Check::TmaBytes, First->Commit->Loc,
               "stage of " + quote(Res.Name) +
                   " is committed without a TMA load into " + quote(F.Name));
    note(D, First->Acquire->Loc,
         "acquire armed " + std::to_string(TxBytes) +
             " transaction bytes here, the whole payload; no load on every "
             "path to the commit "
             "writes the " +
             std::to_string(F.Bytes) + " bytes of " + quote(F.Name) +
             ", so consumers of the stage wait forever");
    note(D, F.Loc ? F.Loc : Res.Loc,
         "load " + quote(F.Name) +
             " between acquire and commit, or declare "
             "ts::tx_bytes(N) with the bytes the loads deliver");
    return true;
  }
  return false;
}

/// load_with_barrier is issued by lane 0 of every calling warp: into a
/// stage armed once, a task of several warps delivers its box once per warp.
void checkPerWarp(const Task &T, const Resource &Res, const Window &W,
                  DiagList &Out) {
  if (!W.PerWarp || T.NumWarps < 2)
    return;
  Diag &D = report(Out, Check::TmaBytes, W.PerWarp->Loc,
                   "ts::tma::load_with_barrier into " + quote(Res.Name) +
                       " is issued by each of the " +
                       std::to_string(T.NumWarps) + " warps of " +
                       quote(T.Name) + ", so the stage receives its box " +
                       std::to_string(T.NumWarps) + " times");
  note(D, W.Acquire->Loc,
       "the acquire arms the stage's bytes once; call ts::tma::load(..., "
       "s.barrier()), which one elected thread issues");
}

std::string deliveredWords(uint64_t Delivered, uint64_t Armed) {
  return Delivered < Armed
             ? "consumers of the stage wait forever for the rest"
             : "the phase completes before the last bytes land and the "
               "surplus counts against a later phase";
}

/// The bytes a stage's loads deliver must be the bytes its acquire arms: a
/// load's box is its destination (a whole member, or the stage), so the
/// sum is known when every load names one. Producer tasks of one resource
/// fill a stage together: the armed bytes are their sum.
void checkDelivered(const Program &P, const Kernel &K, unsigned R,
                    const PipelinePlan &PP, DiagList &Out) {
  const Resource &Res = P.Resources[R];
  uint64_t Armed = PP.TxBytes, Total = 0;
  bool Known = true;
  std::vector<std::pair<const Task *, std::vector<Window>>> Parts;
  for (unsigned TI : K.Tasks) {
    if (PP.fillsWithThreads(TI))
      continue;
    const Task &T = P.Tasks[TI];
    std::vector<Window> Ws = windows(T, R, K.clusterCtas());
    if (Ws.empty())
      continue;
    for (const Window &W : Ws)
      Known &= W.BytesKnown && W.Loaded && !W.PerWarp;
    Total += Ws.front().Bytes;
    Parts.push_back({&T, std::move(Ws)});
  }
  for (auto &[T, Ws] : Parts)
    for (const Window &W : Ws) {
      uint64_t Delivered = Total - Ws.front().Bytes + W.Bytes;
      if (!W.Load || (Known ? Delivered == Armed : W.Bytes <= Armed))
        continue;
      Diag &D = report(Out, Check::TmaBytes, W.Load->Loc,
                       "TMA loads into " + quote(Res.Name) + " deliver " +
                           (Known ? "" : "at least ") +
                           std::to_string(Known ? Delivered : W.Bytes) +
                           " bytes per stage, but its acquire arms " +
                           std::to_string(Armed));
      note(D, W.Acquire->Loc,
           "acquire armed " + std::to_string(Armed) +
               (Res.TxBytes ? " transaction bytes here (ts::tx_bytes); "
                            : " transaction bytes here (the payload); ") +
               deliveredWords(Known ? Delivered : W.Bytes, Armed));
      note(D, Res.Loc,
           "a load delivers its ts::tma::map's box (a plain CUtensorMap's is "
           "taken to be its destination): declare ts::tx_bytes(N) with the "
           "bytes the loads deliver");
      return;
    }
}

/// Only a tma_async stage's acquire arms transaction bytes; another
/// stage's full barrier completes on its producer's arrivals, before the
/// load lands.
void checkNotTma(const Task &T, const Resource &Res, unsigned R,
                 DiagList &Out) {
  for (const Op &O : T.Ops)
    if (O.Resource == R && (O.TmaLoad || O.TmaLoadMaybeSkipped)) {
      Diag &D = report(Out, Check::TmaBytes, O.Loc,
                       "TMA load completes a stage of " + quote(Res.Name) +
                           ", which is not a ts::tma_async resource");
      note(D, Res.Loc,
           "its stages complete when the producer's threads arrive, "
           "before the load lands; declare it ts::tma_async, whose "
           "acquire arms the bytes the load delivers");
      return;
    }
}

/// A ts::tma::map's box is its type: one larger than the object it lands
/// in writes past it. A plain CUtensorMap's box is set on the host: the
/// bytes above take it to be the destination, which nothing here checks.
void checkBoxes(const Task &T, unsigned R, std::set<std::string> &Warned,
                DiagList &Out) {
  for (const Op &O : T.Ops) {
    if (O.Resource != R)
      continue;
    for (const TmaLoadBox &B : O.Boxes) {
      std::string Shape =
          B.Suggest.empty() ? "ts::tma::map<T, rows, cols>" : B.Suggest;
      if (B.Box && B.Dst && *B.Box > *B.Dst) {
        Diag &D = report(
            Out, Check::TmaBytes, B.Loc,
            "the box of " + quote(B.Map) + " is " + std::to_string(*B.Box) +
                " bytes, larger than the " + std::to_string(*B.Dst) +
                " bytes of the destination: the load writes "
                "past it");
        note(D, B.Loc,
             "a ts::tma::map's box is its type: declare the map as " + Shape +
                 " or load into an object of the box's size");
      } else if (!B.Box && Warned.insert(B.Map).second) {
        Diag &D = report(
            Out, Check::TmaBox, B.Loc,
            "TMA load through " + quote(B.Map) +
                ", a plain CUtensorMap: its box is set on the host, so " +
                (B.Dst ? "libts takes it to be the " + std::to_string(*B.Dst) +
                             " bytes of the destination"
                       : std::string("libts cannot count the bytes it "
                                     "delivers")));
        note(D, B.Loc,
             "declare the descriptor as " + Shape +
                 " and encode it with ts::tensor_map::encode, which takes "
                 "the box from the type; the bytes are then checked against "
                 "the box");
      }
    }
  }
}

/// A thread filler of a ts::merge stage must write it: a loader whose load
/// was forgotten would otherwise count as one and leave its members
/// unwritten.
void checkFillerWrites(const Task &T, const Resource &Res, unsigned R,
                       unsigned Ctas, DiagList &Out) {
  for (const Window &W : windows(T, R, Ctas)) {
    if (W.Worked)
      continue;
    Diag &D = report(Out, Check::TmaBytes, W.Commit->Loc,
                     "task " + quote(T.Name) + " commits a stage of " +
                         quote(Res.Name) +
                         " with neither a TMA load nor a write into it");
    note(D, W.Acquire->Loc,
         "a producer of a ts::merge stage loads its members with TMA "
         "(ts::tma::load(..., s.barrier())) or writes them with its threads "
         "between acquire and commit");
    return;
  }
}

/// A loader's one arrival on the full barrier comes at its acquire, so
/// nothing orders its threads' own accesses to the stage before the
/// consumers' reads: only its loads (and address arithmetic for them) may
/// touch the stage.
void checkLoaderThreads(const Task &T, const Resource &Res, unsigned R,
                        DiagList &Out) {
  bool Loads = std::any_of(T.Ops.begin(), T.Ops.end(), [&](const Op &O) {
    return O.Resource == R && (O.TmaLoad || O.TmaLoadMaybeSkipped);
  });
  for (const Op &O : T.Ops) {
    if (!Loads) // no loader: "committed without a TMA load" says why
      break;
    if (O.Resource != R || O.R != Role::Producer || O.Kind != OpKind::Work ||
        O.TmaLoad || O.TmaLoadMaybeSkipped || O.AddressOnly)
      continue;
    Diag &D =
        report(Out, Check::TmaBytes, O.Loc,
               "task " + quote(T.Name) + " loads stages of " + quote(Res.Name) +
                   " with TMA and also accesses them with its threads");
    note(D, O.Loc,
         "a loader arrives on the full barrier at its acquire, before these "
         "accesses, so consumers may read the stage first; write those "
         "members from another producer task (with ts::merge on the "
         "resource) or load them with TMA");
    return;
  }
}

/// A ts::merge stage: the thread fillers write what the TMA loads leave,
/// so the loads may not fill the whole payload, and bytes are armed only
/// where some task loads them.
bool checkMerge(const Program &P, unsigned R, const PipelinePlan &PP,
                DiagList &Out) {
  const Resource &Res = P.Resources[R];
  if (!Res.Merge || PP.ThreadFillers.empty())
    return false;
  const Task &Filler = P.Tasks[PP.ThreadFillers.front()];
  bool NoTma = PP.ThreadFillers.size() == PP.Producers.size();
  if (NoTma && Res.TxBytes) {
    Diag &D = report(Out, Check::TmaBytes, Res.Loc,
                     "ts::tx_bytes(" + std::to_string(*Res.TxBytes) + ") on " +
                         quote(Res.Name) +
                         ", but no producer task loads it with TMA");
    note(D, Filler.Loc,
         "its producers fill it with threads, which deliver no "
         "transaction bytes: the stage would wait for them forever; remove "
         "ts::tx_bytes");
    return true;
  }
  if (NoTma || PP.TxBytes < Res.PayloadBytes)
    return false;
  Diag &D = report(Out, Check::TmaBytes, Filler.Loc,
                   quote(Filler.Name) + " fills stages of " + quote(Res.Name) +
                       " with threads, but its TMA loads fill the whole "
                       "payload (" +
                       std::to_string(PP.TxBytes) + " bytes)");
  note(D, Res.Loc,
       "in a ts::merge stage the loads and the threads write different "
       "members: load named members (s->member) and leave the thread-written "
       "ones out, or declare ts::tx_bytes(N) with the bytes the loads "
       "deliver");
  return true;
}

} // namespace

void checkTmaBytes(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out) {
  std::set<unsigned> Produced;
  std::set<std::string> Warned; // one ts-tma-box warning per descriptor
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    for (unsigned R : T.Produces) {
      if (isTma(P.Resources[R].Kind) &&
          Plan.pipeline(R)->fillsWithThreads(TI)) {
        Produced.insert(R); // a ts::merge stage's thread filler: no loads
        checkFillerWrites(T, P.Resources[R], R, K.clusterCtas(), Out);
        continue;
      }
      if (!isTma(P.Resources[R].Kind)) {
        checkNotTma(T, P.Resources[R], R, Out);
        continue;
      }
      Produced.insert(R);
      checkBoxes(T, R, Warned, Out);
      checkLoaderThreads(T, P.Resources[R], R, Out);
      for (const Window &W : windows(T, R, K.clusterCtas())) {
        if (!W.Loaded)
          reportUnloaded(P.Resources[R], Plan.pipeline(R)->TxBytes, W, Out);
        checkPerWarp(T, P.Resources[R], W, Out);
      }
    }
  }
  for (unsigned R : Produced) {
    const PipelinePlan &PP = *Plan.pipeline(R);
    if (!checkMerge(P, R, PP, Out) && !checkMembers(P, K, R, PP, Out))
      checkDelivered(P, K, R, PP, Out);
  }
}

} // namespace ts
