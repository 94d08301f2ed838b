//===- Rewrite.h - The rewritten translation unit ---------------*- C++ -*-===//
//
// Assembles the rewritten main file (docs/generated-code.md) from the
// user's text and the generated kernels. The front end says where things go
// (offsets in the main file); this knows nothing of clang.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_DRIVER_REWRITE_H
#define LIBTS_DRIVER_REWRITE_H

#include "driver/Driver.h"
#include "model/Source.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ts {

/// The main file as the front end read it.
struct MainFile {
  std::string Name; ///< As #line directives name it.
  std::string Text;
  /// Where `__forceinline__` goes before each task (parallel to
  /// Program::Tasks; none when the task is not in the main file).
  std::vector<std::optional<unsigned>> TaskInline;
  /// Offset and line of each kernel declaration's ';' (parallel to
  /// Program::Kernels).
  std::vector<std::pair<unsigned, unsigned>> KernelSemi;
  /// The command line's -D/-U ("N=V", isUndef) and -include files: the
  /// rewrite restates them, since its layout was computed under them.
  std::vector<std::pair<std::string, bool>> Macros;
  std::vector<std::string> Includes;
};

/// The rewritten main file, or "" when the outcome has errors or nothing
/// to generate.
std::string rewriteMainFile(const MainFile &F, const Program &P,
                            const Outcome &R,
                            const std::vector<KernelSource> &Kernels,
                            const std::vector<TaskSource> &Tasks);

} // namespace ts

#endif
