//===- DiagEmitter.cpp - ts::Diag records as clang diagnostics ------------===//
#include "frontend/DiagEmitter.h"

using namespace clang;

namespace ts {

bool DiagEmitter::emit(const Diag &D) {
  Level L = Policy.level(D.Group);
  if (L == Level::Ignored)
    return false;
  // The flag goes in the text, as clang prints "[-Wfoo]" for its own groups.
  std::string Text = D.Message;
  if (D.Group != Check::Syntax)
    Text +=
        std::string(" [-W") +
        (L == Level::Error && !checkIsErrorByDefault(D.Group) ? "error=" : "") +
        checkFlag(D.Group) + "]";
  unsigned ID = DE.getCustomDiagID(
      L == Level::Error ? DiagnosticsEngine::Error : DiagnosticsEngine::Warning,
      "%0");
  DE.Report(fromHandle(D.Loc), ID) << Text;
  unsigned NoteID = DE.getCustomDiagID(DiagnosticsEngine::Note, "%0");
  for (const DiagNote &N : D.Notes)
    DE.Report(fromHandle(N.Loc), NoteID) << N.Message;
  if (L == Level::Error)
    ++Errors;
  return L == Level::Error;
}

} // namespace ts
