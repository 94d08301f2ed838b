//===- ExtractResource.cpp - [[ts::resource]] to Resource -----------------===//
#include "frontend/DiagEmitter.h"
#include "frontend/Extractor.h"
#include "frontend/Schedule.h"
#include "frontend/Vocabulary.h"
#include "plan/Target.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/QualTypeNames.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace ts {

void Extractor::resource(const SeenAttr &A) {
  const auto *RD = cast<CXXRecordDecl>(A.D);
  Attributed.insert(RD->getCanonicalDecl());
  if (!RD->isThisDeclarationADefinition()) {
    error(A.Range.getBegin(),
          "[[ts::resource]] must be on the struct's definition",
          "move the attribute to the definition of '" + RD->getNameAsString() +
              "'");
    return;
  }
  Resource R;
  R.Name = RD->getNameAsString();
  R.TypeName = qualified(RD);
  if (isa<ClassTemplateSpecializationDecl>(
          RD)) { // spell the template arguments
    PrintingPolicy Policy = Ctx.getPrintingPolicy();
    Policy.SuppressUnwrittenScope = true;
    R.TypeName =
        TypeName::getFullyQualifiedName(Ctx.getRecordType(RD), Ctx, Policy,
                                        /*WithGlobalNsPrefix=*/true);
  }
  R.Loc = toHandle(RD->getLocation());
  ResourceSeen Seen;
  for (const Expr *E : exprArgs(A, "ts::resource"))
    resourceOption(E, R, Seen);
  if (Seen.KindBad) // Reported; nothing else about the kind is checked.
    return;
  if (!Seen.Kind)
    error(A.Range.getBegin(), "[[ts::resource]] needs a kind",
          "add ts::gmem, ts::async_async, ts::tma_async, ts::task_owned, "
          "ts::turns, ts::tma_umma, ts::umma_async, ts::clc_async, "
          "ts::async_umma or ts::umma_umma");
  if (RD->isInvalidDecl())
    return;
  if (RD->isDependentContext()) {
    error(RD->getLocation(),
          "[[ts::resource]] struct '" + R.Name +
              "' is a template or inside one",
          "declare a non-template struct for each payload type (an alias of a "
          "template specialization is not a resource)");
    return;
  }
  if (!payloadIsPlainData(RD, R))
    return;
  payloadLayout(RD, R);
  resourceConsistency(A, RD, R, Seen);
  ResourceIndex[RD->getCanonicalDecl()] = unsigned(X.P.Resources.size());
  X.P.Resources.push_back(std::move(R));
}

void Extractor::resourceOption(const Expr *E, Resource &R, ResourceSeen &Seen) {
  QualType T = E->getType().getCanonicalType().getUnqualifiedType();
  SourceLocation L = E->getExprLoc();
  const auto *ET = T->getAs<EnumType>();
  if (ET && isTsDecl(ET->getDecl(), "pipeline_kind")) {
    auto V = evaluate(E, "ts::resource");
    if (!V)
      return;
    Seen.Kind = true;
    int64_t K = V->getInt().getExtValue();
    if (K < 0 || K > 9) {
      error(L, std::to_string(K) + " is not a ts::pipeline_kind",
            "use ts::gmem, ts::async_async, ts::tma_async, ts::task_owned, "
            "ts::turns, ts::tma_umma, ts::umma_async, ts::clc_async, "
            "ts::async_umma or ts::umma_umma");
      Seen.KindBad = true;
      return;
    }
    if (!firstTime(Seen.Given, "the resource kind", L))
      return;
    static const PipelineKind Kinds[] = {
        PipelineKind::Gmem,      PipelineKind::AsyncAsync,
        PipelineKind::TmaAsync,  PipelineKind::TaskOwned,
        PipelineKind::Turns,     PipelineKind::TmaUmma,
        PipelineKind::UmmaAsync, PipelineKind::ClcAsync,
        PipelineKind::AsyncUmma, PipelineKind::UmmaUmma};
    R.Kind = Kinds[K];
  } else if (intOption(resourceIntOptions(), E, L, R, Seen.Given)) {
    Seen.Tx = R.TxBytes.has_value();
  } else if (tsRecord(T, "tmem_t")) {
    tmemOption(E, L, R, Seen);
  } else if (tsRecord(T, "swizzled_t")) {
    if (firstTime(Seen.Given, "ts::swizzled", L))
      R.Swizzled = true;
  } else if (tsRecord(T, "fork_t")) {
    if (firstTime(Seen.Given, "ts::fork", L)) {
      R.Fork = true;
      R.ForkLoc = toHandle(L);
    }
  } else if (tsRecord(T, "merge_t")) {
    if (firstTime(Seen.Given, "ts::merge", L)) {
      R.Merge = true;
      R.MergeLoc = toHandle(L);
    }
  } else if (tsRecord(T, "cta_pair_t")) {
    if (firstTime(Seen.Given, "ts::cta_pair", L)) {
      R.Pair = true;
      R.PairLoc = toHandle(L);
    }
  } else if (tsRecord(T, "multicast_t")) {
    if (firstTime(Seen.Given, "ts::multicast", L)) {
      R.Multicast = true;
      R.MulticastLoc = toHandle(L);
    }
  } else {
    error(L, "unexpected argument to [[ts::resource]]",
          "expected ts::gmem, ts::async_async, ts::tma_async, ts::task_owned, "
          "ts::turns, ts::tma_umma, ts::umma_async, ts::clc_async, "
          "ts::async_umma, ts::umma_umma, ts::stages(N), ts::tx_bytes(B), "
          "ts::align(B), ts::swizzled, "
          "ts::multicast, ts::fork, ts::merge, ts::cta_pair or ts::tmem(N)");
  }
}

void Extractor::tmemOption(const Expr *E, SourceLocation L, Resource &R,
                           ResourceSeen &Seen) {
  // Given even when malformed: the resource is meant for tensor memory.
  if (!firstTime(Seen.Given, "ts::tmem", L))
    return;
  auto V = evaluate(E, "ts::tmem");
  if (!V)
    return;
  int64_t N = field(*V, 0);
  unsigned Max = targetSm100a().TmemColumns;
  if (N < 1 || N > int64_t(Max)) {
    error(L, "ts::tmem(" + std::to_string(N) + ") is out of range",
          "a tensor-memory resource has between 1 and " + std::to_string(Max) +
              " columns");
    return;
  }
  R.TmemColumns = unsigned(N);
  R.TmemLoc = toHandle(L);
}

bool Extractor::payloadIsPlainData(const CXXRecordDecl *RD, const Resource &R) {
  // Stages are raw shared memory, never constructed: the payload must be
  // plain data with a size that covers all of it.
  if (RD->isPolymorphic() || RD->getNumVBases()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name +
              "' has virtual functions or virtual bases",
          "a stage is raw shared memory that is never constructed; keep the "
          "payload plain data without virtual members");
    return false;
  }
  for (const FieldDecl *F : RD->fields()) {
    if (F->getType()->isReferenceType()) {
      error(F->getLocation(),
            "payload of resource '" + R.Name + "' has a reference member",
            "a stage is raw shared memory that is never constructed; hold a "
            "pointer or the data itself");
      return false;
    }
    if (F->hasInClassInitializer()) {
      error(F->getLocation(),
            "member '" + F->getNameAsString() + "' of resource '" + R.Name +
                "' has a default value that is never applied",
            "a stage is raw shared memory that is never constructed; remove "
            "the initializer and write the value in the producer's work");
      return false;
    }
  }
  if (!RD->hasTrivialDefaultConstructor() || !RD->hasTrivialDestructor()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name +
              "' has a constructor or destructor that never runs",
          "a stage is raw shared memory that is never constructed or "
          "destroyed; keep the payload trivially constructible plain data");
    return false;
  }
  if (RD->hasFlexibleArrayMember()) {
    error(RD->getLocation(),
          "payload of resource '" + R.Name +
              "' ends in a flexible array member",
          "give the array its size: one stage holds exactly sizeof(payload) "
          "bytes");
    return false;
  }
  return true;
}

void Extractor::payloadLayout(const CXXRecordDecl *RD, Resource &R) {
  R.PayloadBytes =
      uint64_t(Ctx.getTypeSizeInChars(Ctx.getRecordType(RD)).getQuantity());
  for (const FieldDecl *F : RD->fields())
    if (!F->isZeroSize(Ctx))
      R.Fields.push_back(
          {F->getNameAsString(),
           F->isBitField()
               ? 0
               : uint64_t(Ctx.getTypeSizeInChars(F->getType()).getQuantity()),
           toHandle(F->getLocation())});
  // Members TMA cannot address one by one: no per-member check.
  if (RD->getNumBases() || std::any_of(R.Fields.begin(), R.Fields.end(),
                                       [](const Resource::Field &F) {
                                         return F.Name.empty() || !F.Bytes;
                                       }))
    R.Fields.clear();
  R.PayloadAlign =
      unsigned(Ctx.getTypeAlignInChars(Ctx.getRecordType(RD)).getQuantity());
  if (RD->isEmpty())
    R.PayloadBytes = 0;
}

void Extractor::resourceConsistency(const SeenAttr &A, const CXXRecordDecl *RD,
                                    const Resource &R,
                                    const ResourceSeen &Seen) {
  if (R.inTmem() || Seen.Given.count("ts::tmem") || mmaProduces(R.Kind))
    tmemConsistency(A, RD, R, Seen);
  else if (inSharedMemory(R.Kind) && R.PayloadBytes == 0)
    error(RD->getLocation(),
          std::string(isPipelined(R.Kind) ? "pipelined" : "task-owned") +
              " resource '" + R.Name + "' has no payload",
          isPipelined(R.Kind)
              ? "give the struct the members one stage holds"
              : "give the struct the members the task keeps in shared memory");
  clcConsistency(RD, R, Seen);
  if (R.Kind == PipelineKind::Turns && R.PayloadBytes)
    error(RD->getLocation(), "ts::turns resource '" + R.Name + "' holds data",
          "leave the struct empty: it only names the turn its tasks pass "
          "round");
  if (isTma(R.Kind)) {
    if (Seen.Tx && *R.TxBytes > R.PayloadBytes)
      error(A.Range.getBegin(),
            "ts::tx_bytes(" + std::to_string(*R.TxBytes) +
                ") exceeds the payload of " + std::to_string(R.PayloadBytes) +
                " bytes",
            "TMA cannot deliver more bytes than a stage holds");
  } else if (Seen.Tx) {
    error(A.Range.getBegin(),
          "ts::tx_bytes applies only to TMA-filled (ts::tma_async, "
          "ts::tma_umma) resources",
          "remove it, or make the resource ts::tma_async");
  }
  if (Seen.Kind && !isPipelined(R.Kind) && R.Stages != 1)
    error(A.Range.getBegin(),
          std::string("a ts::") + pipelineKindName(R.Kind) +
              " resource has no stages",
          R.Kind == PipelineKind::TaskOwned
              ? "remove ts::stages; for several buffers, give the struct an "
                "array of them"
              : "remove ts::stages, or make the resource a pipeline");
  if (Seen.Kind && R.Fork && R.Kind != PipelineKind::TmaUmma &&
      R.Kind != PipelineKind::AsyncUmma)
    error(fromHandle(R.ForkLoc),
          std::string("ts::fork applies only to ts::tma_umma and "
                      "ts::async_umma resources, not ts::") +
              pipelineKindName(R.Kind),
          "it lets thread tasks read a shared-memory stage beside the MMA "
          "task; the consumers of other kinds are all of one kind already");
  if (Seen.Kind && R.Merge && R.Kind != PipelineKind::TmaAsync &&
      R.Kind != PipelineKind::TmaUmma)
    error(fromHandle(R.MergeLoc),
          std::string("ts::merge applies only to ts::tma_async and "
                      "ts::tma_umma resources, not ts::") +
              pipelineKindName(R.Kind),
          "it lets thread tasks fill a TMA stage beside the loads; the "
          "producers of other kinds are all of one kind already");
  if (Seen.Kind && R.Merge && R.Multicast)
    error(fromHandle(R.MergeLoc),
          "ts::merge and ts::multicast together are not supported",
          "a multicast stage is filled by every CTA's loads; fill the "
          "thread-written members in a separate resource");
  pairConsistency(R, Seen);
  if (Seen.Kind && R.Multicast && !isTma(R.Kind))
    error(fromHandle(R.MulticastLoc),
          std::string("ts::multicast applies only to ts::tma_async and "
                      "ts::tma_umma resources, not ts::") +
              pipelineKindName(R.Kind),
          "only TMA loads multicast across a cluster; remove ts::multicast or "
          "make the resource ts::tma_async");
}

namespace {
bool isClcResponse(QualType T) {
  const auto *B = T->getAsCXXRecordDecl();
  return B && B->getQualifiedNameAsString() == "ts::clc::response";
}
} // namespace

void Extractor::pairConsistency(const Resource &R, const ResourceSeen &Seen) {
  if (!Seen.Kind || !R.Pair)
    return;
  SourceLocation L = fromHandle(R.PairLoc);
  if (R.Kind != PipelineKind::TmaUmma && R.Kind != PipelineKind::UmmaAsync) {
    error(L,
          std::string("ts::cta_pair applies only to ts::tma_umma and "
                      "ts::umma_async resources, not ts::") +
              pipelineKindName(R.Kind),
          "a pair splits the MMA's operand stages and its accumulator "
          "between two CTAs; other resources stay per CTA");
    return;
  }
  const char *Group = R.Fork        ? "ts::fork"
                      : R.Merge     ? "ts::merge"
                      : R.Multicast ? "ts::multicast"
                                    : nullptr;
  if (Group)
    error(L,
          std::string("ts::cta_pair and ") + Group +
              " together are not supported",
          "a paired stage is read by rank 0's MMAs only and filled by TMA "
          "loads only; give the other readers or writers a resource of "
          "their own");
}

void Extractor::clcConsistency(const CXXRecordDecl *RD, const Resource &R,
                               const ResourceSeen &Seen) {
  bool Base = std::any_of(
      RD->bases_begin(), RD->bases_end(),
      [](const CXXBaseSpecifier &B) { return isClcResponse(B.getType()); });
  bool Exact = Base && RD->getNumBases() == 1 && RD->field_empty();
  if (Seen.Kind && R.Kind == PipelineKind::ClcAsync && !Exact)
    error(RD->getLocation(),
          "ts::clc_async resource '" + R.Name + "' is not a ts::clc::response",
          "declare it 'struct " + R.Name +
              " : ts::clc::response {};': try_cancel writes the 16-byte "
              "response into each stage, and ts::tiles decodes it");
  else if (Seen.Kind && R.Kind != PipelineKind::ClcAsync && Base)
    error(RD->getLocation(),
          std::string("ts::") + pipelineKindName(R.Kind) + " resource '" +
              R.Name + "' holds a ts::clc::response",
          "a cluster-launch-control response is the payload of a "
          "ts::clc_async tile queue; make the resource ts::clc_async");
}

void Extractor::tmemConsistency(const SeenAttr &A, const CXXRecordDecl *RD,
                                const Resource &R, const ResourceSeen &Seen) {
  // Tensor memory is a task's own columns or the stages MMAs fill.
  bool Tmem = R.Kind == PipelineKind::TaskOwned || mmaProduces(R.Kind);
  if (R.inTmem() && Seen.Kind && !Tmem)
    error(fromHandle(R.TmemLoc),
          std::string("ts::tmem applies only to ts::task_owned, "
                      "ts::umma_async and ts::umma_umma resources, not ts::") +
              pipelineKindName(R.Kind),
          mmaConsumes(R.Kind)
              ? "a ts::" + std::string(pipelineKindName(R.Kind)) +
                    " stage is shared memory that the MMAs read; the "
                    "MMAs' accumulators are a ts::umma_async resource"
              : "keep the columns in one task (ts::task_owned), or make "
                "them the stages of a ts::umma_async pipeline");
  if (mmaProduces(R.Kind) && !Seen.Given.count("ts::tmem"))
    error(A.Range.getBegin(),
          std::string("ts::") + pipelineKindName(R.Kind) + " resource '" +
              R.Name + "' has no tensor-memory columns",
          "its stages live in tensor memory: give each stage's columns with "
          "ts::tmem(N)");
  if (R.PayloadBytes && Tmem)
    error(RD->getLocation(),
          "tensor-memory resource '" + R.Name + "' has members",
          "leave the struct empty: its columns live in tensor memory, "
          "reached through " +
              (isPipelined(R.Kind) ? std::string("a stage's s.tmem()")
                                   : "ts::owned<" + R.Name + ">::tmem()"));
}

} // namespace ts
