//===- Capacity.cpp - Shared-memory capacity ------------------------------===//
//
// The launch size (data, barriers and base-alignment slack) must fit the
// target's dynamic shared memory, or the launch fails at run time.
//
//===----------------------------------------------------------------------===//
#include "verify/Verify.h"
#include "verify/VerifyUtil.h"

namespace ts {
using namespace detail;

namespace {

/// How to fit: the fewest stages of the largest stage to drop, and a
/// higher ts::smem_capacity only while the hardware has more.
std::string capacityFix(const Program &P, const KernelPlan &Plan) {
  const BlockLayout &L = Plan.Layout;
  uint64_t Over = L.DynamicBytes - Plan.SmemCapacity;
  std::string Fix = "use fewer or smaller stages";
  const ResourceLayout *Big = nullptr;
  for (const ResourceLayout &RL : L.Resources)
    if (P.Resources[RL.Resource].Stages > 1 &&
        (!Big || RL.StageStride > Big->StageStride))
      Big = &RL;
  if (Big) {
    const Resource &R = P.Resources[Big->Resource];
    uint64_t Drop = (Over + Big->StageStride - 1) / Big->StageStride;
    if (Drop < R.Stages)
      Fix += " (ts::stages(" + std::to_string(R.Stages - Drop) + ") on " +
             quote(R.Name) + " fits)";
  }
  uint64_t Hardware = Plan.Tgt->SmemCapacity;
  if (Plan.SmemCapacity < Hardware)
    return Fix + ", or raise ts::smem_capacity up to " +
           std::to_string(Hardware) + " bytes, all a block can use";
  return Fix + ": " + std::to_string(Hardware) +
         " bytes is all the shared memory a block can use";
}

} // namespace

/// Tensor memory over the capacity (a target without any is ts-target's).
static void checkTmemCapacity(const Program &P, const Kernel &K,
                              const KernelPlan &Plan, DiagList &Out) {
  const TmemPlan &TP = Plan.Tmem;
  if (!Plan.Tgt->TmemColumns || TP.Used <= TP.Capacity)
    return;
  Diag &D =
      report(Out, Check::Capacity, K.Loc,
             "kernel " + quote(K.Name) + " needs " + std::to_string(TP.Used) +
                 " columns of tensor memory; the capacity is " +
                 std::to_string(TP.Capacity) + " columns");
  for (const TmemRegion &TR : TP.Regions)
    note(D, P.Resources[TR.Resource].TmemLoc,
         quote(P.Resources[TR.Resource].Name) + ": columns [" +
             std::to_string(TR.Column) + ", " +
             std::to_string(TR.Column + TR.Columns) + ")");
  note(D, K.Loc,
       TP.Capacity < Plan.Tgt->TmemColumns
           ? "use fewer columns, or raise ts::tmem_capacity up to " +
                 std::to_string(Plan.Tgt->TmemColumns)
           : "use fewer columns: " + std::to_string(TP.Capacity) +
                 " is all the tensor memory a CTA has (each resource starts "
                 "on a " +
                 std::to_string(Plan.Tgt->TmemGranule) + "-column granule)");
}

void checkCapacity(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out) {
  const BlockLayout &L = Plan.Layout;
  checkTmemCapacity(P, K, Plan, Out);

  // Launch sizes are 32-bit: past that no -W flag can make a kernel.
  if (L.DynamicBytes > UINT32_MAX) {
    Diag &D = report(
        Out, Check::Syntax, K.Loc,
        "kernel " + quote(K.Name) + " needs " + std::to_string(L.DynamicBytes) +
            " bytes of shared memory, more than a launch can request");
    note(D, K.Loc,
         "dynamic shared memory is a 32-bit launch parameter; use fewer or "
         "smaller stages");
  }
  if (L.DynamicBytes <= Plan.SmemCapacity)
    return;
  Diag &D = report(Out, Check::Capacity, K.Loc,
                   "kernel " + quote(K.Name) + " needs " +
                       std::to_string(L.DynamicBytes) +
                       " bytes of shared memory; the capacity is " +
                       std::to_string(Plan.SmemCapacity) + " bytes");
  uint64_t Payload = 0;
  for (const ResourceLayout &RL : L.Resources) {
    const Resource &R = P.Resources[RL.Resource];
    Payload += RL.RegionBytes;
    note(D, R.Loc,
         quote(R.Name) + ": " + std::to_string(R.Stages) + " stages x " +
             std::to_string(RL.StageStride) +
             " B = " + std::to_string(RL.RegionBytes) + " B");
  }
  std::string Rest = "barriers: " + std::to_string(L.BarrierBytes) + " B";
  if (L.DynamicBytes > L.TotalBytes)
    Rest += ", base alignment slack: " +
            std::to_string(L.DynamicBytes - L.TotalBytes) + " B";
  if (L.BarrierOffset > Payload)
    Rest +=
        ", alignment padding: " + std::to_string(L.BarrierOffset - Payload) +
        " B";
  note(D, K.Loc, Rest);
  note(D, K.Loc, capacityFix(P, Plan));
}

} // namespace ts
