//===- Target.cpp - Constants of one GPU target ---------------------------===//
#include "plan/Target.h"

namespace ts {

const Target &targetSm90a() {
  // sm_90a: field order as in Target.h.
  // Per SM: 228 KiB of shared memory, 1 KiB reserved per CTA, 2048
  // threads, 32 CTAs (the CUDA programming guide's tables, both targets).
  static const Target T{65536,  24, 256,    8,    4,    32, 1024,
                        232448, 8,  16,     1024, 128,  8,  16,
                        0,      0,  233472, 1024, 2048, 32, "sm_90a"};
  return T;
}

const Target &targetSm100a() {
  static const Target T{65536,  24, 256,    8,    4,    32, 1024,
                        232448, 8,  16,     1024, 128,  8,  16,
                        512,    32, 233472, 1024, 2048, 32, "sm_100a"};
  return T;
}

const Target &targetOf(TargetArch A) {
  return A == TargetArch::Sm100a ? targetSm100a() : targetSm90a();
}

} // namespace ts
