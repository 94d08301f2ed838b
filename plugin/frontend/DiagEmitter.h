//===- DiagEmitter.h - ts::Diag records as clang diagnostics ----*- C++ -*-===//
#ifndef LIBTS_FRONTEND_DIAGEMITTER_H
#define LIBTS_FRONTEND_DIAGEMITTER_H

#include "driver/Severity.h"
#include "model/Diag.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

namespace ts {

inline SourceHandle toHandle(clang::SourceLocation L) {
  return L.isValid() ? SourceHandle(L.getRawEncoding()) : 0;
}
inline clang::SourceLocation fromHandle(SourceHandle H) {
  return H ? clang::SourceLocation::getFromRawEncoding(
                 static_cast<clang::SourceLocation::UIntTy>(H))
           : clang::SourceLocation();
}

class DiagEmitter {
public:
  DiagEmitter(clang::DiagnosticsEngine &DE, const SeverityPolicy &P)
      : DE(DE), Policy(P) {}
  /// Emits D at its policy level; returns true if it counted as an error.
  bool emit(const Diag &D);
  unsigned errors() const { return Errors; }

private:
  clang::DiagnosticsEngine &DE;
  const SeverityPolicy &Policy;
  unsigned Errors = 0;
};

} // namespace ts

#endif
