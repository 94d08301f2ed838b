//===- Lower.h - Generated CUDA source for a kernel -------------*- C++ -*-===//
//
// Turns a verified kernel and its layout into CUDA source text. Knows
// nothing of clang: the front end supplies spellings it read from the AST.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_LOWER_LOWER_H
#define LIBTS_LOWER_LOWER_H

#include "model/Model.h"
#include "model/Source.h"
#include "plan/Plan.h"

#include <string>
#include <vector>

namespace ts {

/// The kernel's definition: at global scope (reopening the declaration's
/// scopes), or `InScope` for right after the declaration.
std::string lowerKernel(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, const KernelSource &KS,
                        const std::vector<TaskSource> &Tasks,
                        bool InScope = false);

/// What follows the kernel declaration: its traits (at global scope) and
/// its definition in the declaration's own scope, so it sees the names and
/// macros the declaration sees.
std::string definitionAfterDeclaration(const Program &P, const Kernel &K,
                                       const KernelPlan &Plan,
                                       const KernelSource &KS,
                                       const std::vector<TaskSource> &Tasks);

/// One line placed right after the kernel declaration: closes its scopes,
/// specialises ts::kernel_traits, reopens the scopes.
std::string kernelTraits(const KernelPlan &Plan, const KernelSource &KS);

} // namespace ts

#endif
