//===- Source.h - Spellings the user wrote ----------------------*- C++ -*-===//
//
// What the generated code must spell as the user did: names, parameters and
// scopes of kernels and tasks. The front end reads them from the AST; the
// lowering prints them.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_MODEL_SOURCE_H
#define LIBTS_MODEL_SOURCE_H

#include <string>
#include <vector>

namespace ts {

/// Spellings of a kernel declaration, as written by the user.
struct KernelSource {
  std::string Name;          ///< Unqualified name.
  std::string QualifiedName; ///< "::ns::name", for kernel_traits.
  /// The kernel's address as a template argument: "&::ns::name", or a
  /// static_cast to its pointer type when the name is overloaded.
  std::string Address;
  std::string ParamsText; ///< "const __grid_constant__ Params p".
  std::vector<std::string> ParamNames;
  std::string Trailing; ///< " noexcept", repeated after the parameters.
  /// Enclosing scopes, outermost first: "namespace a", "inline namespace b",
  /// "namespace" (anonymous), "extern \"C\"".
  std::vector<std::string> Scopes;
};

/// Spelling used to call a task function.
struct TaskSource {
  std::string QualifiedName;
};

} // namespace ts

#endif
