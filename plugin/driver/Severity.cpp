//===- Severity.cpp - -W flags for libts checks ---------------------------===//
#include "driver/Severity.h"

namespace ts {

void SeverityPolicy::set(const std::string &Group, bool Enable, int Error) {
  for (const CheckInfo &I : checkTable()) {
    Check C = I.C;
    if (Group != "ts" && Group != I.Flag)
      continue;
    State &S = States[C];
    if (Error >= 0)
      S.Error = Error;
    else
      S.Enabled = Enable ? 1 : 0;
    if (Error == 1)
      S.Enabled = 1;
  }
}

std::string flagGroup(const std::string &Flag) {
  std::string F = Flag.rfind("-W", 0) == 0 ? Flag.substr(2) : Flag;
  if (F == "error" || F == "no-error")
    return "";
  for (const char *Prefix : {"no-error=", "error=", "no-"})
    if (F.rfind(Prefix, 0) == 0)
      return F.substr(std::string(Prefix).size());
  return F;
}

bool isTsGroup(const std::string &Group) {
  if (Group == "ts")
    return true;
  for (const CheckInfo &I : checkTable())
    if (Group == I.Flag)
      return true;
  return false;
}

void SeverityPolicy::apply(const std::vector<std::string> &Flags) {
  for (std::string F : Flags) {
    if (F.rfind("-W", 0) == 0)
      F = F.substr(2);
    if (F == "error")
      WarningsAsErrors = true;
    else if (F == "no-error")
      WarningsAsErrors = false;
    else if (F.rfind("no-error=", 0) == 0)
      set(F.substr(9), true, 0);
    else if (F.rfind("error=", 0) == 0)
      set(F.substr(6), true, 1);
    else if (F.rfind("no-", 0) == 0)
      set(F.substr(3), false, -1);
    else
      set(F, true, -1);
  }
}

Level SeverityPolicy::level(Check C) const {
  // A schedule the model cannot follow is never verified, so it stays fatal.
  if (C == Check::Syntax)
    return Level::Error;
  State S;
  if (auto It = States.find(C); It != States.end())
    S = It->second;
  if (S.Enabled == 0 || (S.Enabled == -1 && checkIsOffByDefault(C)))
    return Level::Ignored;
  bool Error = S.Error == 1 || (S.Error == -1 && checkIsErrorByDefault(C)) ||
               (S.Error == -1 && WarningsAsErrors);
  if (Error)
    return Level::Error;
  return IgnoreWarnings ? Level::Ignored : Level::Warning;
}

} // namespace ts
