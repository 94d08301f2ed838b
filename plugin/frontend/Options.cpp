//===- Options.cpp - The integer options of the attributes ----------------===//
#include "frontend/Options.h"
#include "plan/Target.h"

namespace ts {

const std::vector<IntOption<Resource>> &resourceIntOptions() {
  static const std::vector<IntOption<Resource>> Rows = {
      {"stages_t", "ts::stages", 1, 64, false, "ts::stages({}) is out of range",
       "a pipeline has between 1 and 64 stages",
       "ts::stages({}) is out of range",
       "a pipeline has between 1 and 64 stages",
       [](Resource &R, int64_t N) { R.Stages = unsigned(N); }},
      {"tx_bytes_t", "ts::tx_bytes", 1, INT64_MAX, false,
       "ts::tx_bytes must be positive",
       "give the bytes one stage's TMA copies deliver", "", "",
       [](Resource &R, int64_t N) { R.TxBytes = uint64_t(N); }},
      {"align_t", "ts::align", 16, INT64_MAX, true,
       "ts::align({}) is not a power of two of at least 16",
       "use 16, 32, 64, 128, 256, 512 or 1024", "", "",
       [](Resource &R, int64_t N) { R.Align = unsigned(N); }},
  };
  return Rows;
}

const std::vector<IntOption<Task>> &taskIntOptions() {
  static const std::vector<IntOption<Task>> Rows = {
      {"regs_t", "ts::regs", 0, INT64_MAX, false, "ts::regs({}) is negative",
       "setmaxnreg takes a multiple of 8 between 24 and 256", "", "",
       [](Task &T, int64_t N) { T.Regs = unsigned(N); }},
      {"cta_t", "ts::cta", 0, INT64_MAX, false,
       "ts::cta rank must not be negative",
       "give a CTA rank within the cluster", "", "",
       [](Task &T, int64_t N) { T.Cta = unsigned(N); }},
  };
  return Rows;
}

const std::vector<IntOption<Kernel>> &kernelIntOptions() {
  static const std::vector<IntOption<Kernel>> Rows = {
      {"smem_capacity_t", "ts::smem_capacity", 1,
       int64_t(targetSm90a().SmemCapacity), false,
       "ts::smem_capacity must be positive",
       "give the target's bytes per block",
       "ts::smem_capacity({}) is more shared memory than a block can use",
       "a block of sm_90 uses at most " +
           std::to_string(targetSm90a().SmemCapacity) +
           " bytes of dynamic shared memory (the default)",
       [](Kernel &K, int64_t N) { K.SmemCapacity = uint64_t(N); }},
      {"tmem_capacity_t", "ts::tmem_capacity", 32,
       int64_t(targetSm100a().TmemColumns), true,
       "ts::tmem_capacity({}) is not a power of two of at least 32",
       "tcgen05.alloc takes 32, 64, 128, 256 or 512 columns",
       "ts::tmem_capacity({}) is more tensor memory than a CTA has",
       "a CTA of sm_100a has " + std::to_string(targetSm100a().TmemColumns) +
           " columns (the default)",
       [](Kernel &K, int64_t N) { K.TmemCapacity = unsigned(N); }},
  };
  return Rows;
}

std::string optionMessage(const std::string &Text, int64_t Value) {
  std::string Out = Text;
  if (size_t At = Out.find("{}"); At != std::string::npos)
    Out.replace(At, 2, std::to_string(Value));
  return Out;
}

} // namespace ts
