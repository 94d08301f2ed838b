//===- Target.h - Constants of one GPU target -------------------*- C++ -*-===//
//
// Every hardware number the layers use lives here, so a second target
// (sm_100a) is one more table entry rather than edits across the layers.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_PLAN_TARGET_H
#define LIBTS_PLAN_TARGET_H

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
};

/// Hopper (H100/H200): 227 KiB of dynamic shared memory less 1 KiB.
const Target &targetSm90a();

} // namespace ts

#endif
