//===- Target.h - Constants of one GPU target -------------------*- C++ -*-===//
//
// Every hardware number the layers use lives here, so a second target
// (sm_100a) is one more table entry rather than edits across the layers.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_TARGET_H
#define LIBTS_PLAN_TARGET_H

#include "model/Model.h"

#include <cstdint>

namespace ts {

struct Target {
  unsigned RegisterFile;     ///< 32-bit registers per SM block.
  unsigned MinRegs, MaxRegs; ///< setmaxnreg range.
  unsigned RegGranule;       ///< setmaxnreg multiple.
  unsigned WarpGroupWarps;   ///< setmaxnreg acts on this many warps.
  unsigned WarpThreads;
  unsigned MaxBlockThreads;
  uint64_t SmemCapacity;     ///< Default dynamic shared memory per block.
  unsigned BarrierBytes;     ///< One mbarrier.
  unsigned DynamicSmemAlign; ///< What CUDA guarantees for the base.
  unsigned SwizzleAlign;     ///< 128-byte-swizzled TMA destinations.
  unsigned DefaultStageAlign;
  /// CTAs a cluster may hold on every part without opting in.
  unsigned PortableClusterCtas;
  unsigned NamedBarriers; ///< bar.sync ids 0 .. NamedBarriers - 1.
  unsigned TmemColumns;   ///< Tensor-memory columns per CTA (0: none).
  unsigned TmemGranule;   ///< tcgen05.alloc's smallest power of two.
  /// Per SM: shared memory (each CTA also takes CtaReservedSmem of it),
  /// threads and CTAs, which bound how many CTAs of a kernel share one.
  uint64_t SmSmem;
  unsigned CtaReservedSmem, SmThreads, SmCtas;
  const char *Name; ///< As nvcc spells the architecture.
};

/// Hopper (H100/H200): 227 KiB of dynamic shared memory less 1 KiB.
const Target &targetSm90a();
/// Blackwell (B200): Hopper's block limits plus 512 columns of tensor
/// memory allocated in powers of two from 32 (docs/blackwell-facts.md).
const Target &targetSm100a();
const Target &targetOf(TargetArch A);

} // namespace ts

#endif
