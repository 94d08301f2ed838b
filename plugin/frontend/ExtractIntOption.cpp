//===- ExtractIntOption.cpp - One integer option, parsed from its row -----===//
#include "frontend/Extractor.h"
#include "frontend/Vocabulary.h"

using namespace clang;

namespace ts {

template <class Entity>
bool Extractor::intOption(const std::vector<IntOption<Entity>> &Rows,
                          const Expr *E, SourceLocation L, Entity &Out,
                          std::map<std::string, SourceLocation> &Given) {
  QualType Ty = E->getType();
  for (const IntOption<Entity> &Row : Rows) {
    if (!tsRecord(Ty, Row.Record))
      continue;
    if (!firstTime(Given, Row.Spelling, L))
      return true;
    auto V = evaluate(E, Row.Spelling);
    if (!V)
      return true;
    int64_t N = field(*V, 0);
    if (N < Row.Min || (Row.PowerOfTwo && (N & (N - 1))))
      error(L, optionMessage(Row.Below, N), Row.BelowFix);
    else if (N > Row.Max)
      error(L, optionMessage(Row.Above, N), Row.AboveFix);
    else
      Row.Set(Out, N);
    return true;
  }
  return false;
}

template bool Extractor::intOption(const std::vector<IntOption<Resource>> &,
                                   const Expr *, SourceLocation, Resource &,
                                   std::map<std::string, SourceLocation> &);
template bool Extractor::intOption(const std::vector<IntOption<Task>> &,
                                   const Expr *, SourceLocation, Task &,
                                   std::map<std::string, SourceLocation> &);
template bool Extractor::intOption(const std::vector<IntOption<Kernel>> &,
                                   const Expr *, SourceLocation, Kernel &,
                                   std::map<std::string, SourceLocation> &);

} // namespace ts
