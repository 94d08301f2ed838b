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

void checkCapacity(const Program &P, const Kernel &K, const KernelPlan &Plan,
                   DiagList &Out) {
  const BlockLayout &L = Plan.Layout;

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
  note(D, K.Loc,
       "use fewer stages or smaller stages, or raise the limit with "
       "ts::smem_capacity(bytes) on the kernel");
}

} // namespace ts
