//===- HiddenCalls.cpp - Schedule calls inside helper functions -----------===//
#include "frontend/HiddenCalls.h"
#include "frontend/AstWalk.h"
#include "frontend/Vocabulary.h"
#include "frontend/Wgmma.h"

#include <algorithm>
#include <map>
#include <set>

using namespace clang;

namespace ts {

namespace {

struct CallSites : AstWalk {
  std::vector<const CallExpr *> Found;
  std::vector<const AsmStmt *> Asm;
  bool visitCallExpr(CallExpr *C) override {
    Found.push_back(C);
    return true;
  }
  bool visitAsmStmt(AsmStmt *A) override {
    Asm.push_back(A);
    return true;
  }
};

bool isScheduleCall(const CallExpr *C) {
  bool IsWait = false;
  OpKind Kind;
  unsigned Pending = 0;
  if (asPdlCall(C, IsWait) || asMmaGroupCall(C, Kind, Pending))
    return true;
  // A stream-K settle() must be seen once per segment (verify/Fixup.cpp).
  const auto *M = dyn_cast<CXXMemberCallExpr>(C);
  const CXXMethodDecl *MD = M ? M->getMethodDecl() : nullptr;
  return MD && MD->getIdentifier() && MD->getName() == "settle" &&
         tsRecord(M->getImplicitObjectArgument()->getType(), "stream_k");
}

/// The first schedule call in F's body or in the functions it calls.
const CallExpr *scheduleCallIn(const FunctionDecl *F,
                               std::set<const Decl *> &Seen, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > MaxHelperDepth || !F->hasBody(Def) || !Def ||
      !Seen.insert(Def->getCanonicalDecl()).second)
    return nullptr;
  CallSites Calls;
  Calls.walk(Def->getBody());
  for (const CallExpr *C : Calls.Found)
    if (isScheduleCall(C))
      return C;
  for (const CallExpr *C : Calls.Found)
    if (const FunctionDecl *G = userCallee(C))
      if (const CallExpr *In = scheduleCallIn(G, Seen, Depth + 1))
        return In;
  return nullptr;
}

/// The function a reach walk enters for C: a user function, or a lambda's
/// call operator (its body is not part of the statement that calls it).
const FunctionDecl *reachCallee(const CallExpr *C) {
  if (const FunctionDecl *F = userCallee(C))
    return F;
  const auto *M = dyn_cast_or_null<CXXMethodDecl>(C->getDirectCallee());
  return M && M->getParent()->isLambda() ? M : nullptr;
}

/// The first statement in Body, or in a user function it calls, that Match
/// accepts.
const Stmt *reachIn(const Stmt *Body, const ReachMatch &Match,
                    const ReachEnter &Enter, std::set<const Decl *> &Seen,
                    unsigned Depth) {
  if (Depth > MaxHelperDepth)
    return nullptr;
  CallSites Sites;
  Sites.walk(Body);
  for (const CallExpr *C : Sites.Found)
    if (Match(C))
      return C;
  for (const AsmStmt *A : Sites.Asm)
    if (Match(A))
      return A;
  for (const CallExpr *C : Sites.Found) {
    const FunctionDecl *G = reachCallee(C), *Def = nullptr;
    if (G && (!Enter || Enter(G)) && G->hasBody(Def) && Def &&
        Seen.insert(Def->getCanonicalDecl()).second)
      if (const Stmt *In =
              reachIn(Def->getBody(), Match, Enter, Seen, Depth + 1))
        return In;
  }
  return nullptr;
}

/// Nested user functions below F, F included (a recursive call adds none:
/// the walks see each body once).
unsigned chainDepth(const FunctionDecl *F,
                    std::map<const Decl *, unsigned> &Memo,
                    std::set<const Decl *> &Path) {
  const FunctionDecl *Def = nullptr;
  if (!F->hasBody(Def) || !Def)
    return 0;
  const Decl *Key = Def->getCanonicalDecl();
  if (auto It = Memo.find(Key); It != Memo.end())
    return It->second;
  if (!Path.insert(Key).second)
    return 0;
  CallSites Sites;
  Sites.walk(Def->getBody());
  unsigned Most = 0;
  for (const CallExpr *C : Sites.Found)
    if (const FunctionDecl *G = reachCallee(C))
      Most = std::max(Most, chainDepth(G, Memo, Path));
  Path.erase(Key);
  return Memo[Key] = 1 + Most;
}

} // namespace

const CallExpr *tooDeepCall(const Stmt *Body) {
  std::map<const Decl *, unsigned> Memo;
  std::set<const Decl *> Path;
  CallSites Sites;
  Sites.walk(Body);
  for (const CallExpr *C : Sites.Found)
    if (const FunctionDecl *G = reachCallee(C))
      if (chainDepth(G, Memo, Path) > MaxHelperDepth)
        return C;
  return nullptr;
}

const CallExpr *indirectCall(const Stmt *Body) {
  return cast_or_null<CallExpr>(reaches(Body, [](const Stmt *S) {
    const auto *C = dyn_cast<CallExpr>(S);
    return C && !C->getDirectCallee() &&
           !isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParens());
  }));
}

/// Declared in namespace ts (or one nested in it): libts's own functions.
bool inLibts(const FunctionDecl *F) {
  const DeclContext *DC = F->getDeclContext();
  const NamespaceDecl *Outer = nullptr;
  for (; DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer && Outer->getIdentifier() && Outer->getName() == "ts";
}

/// A user function the walk follows: not libts's, not a lambda of the body.
const FunctionDecl *userCallee(const CallExpr *C) {
  const FunctionDecl *F = C->getDirectCallee();
  if (!F || inLibts(F))
    return nullptr;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F);
      M && M->getParent()->isLambda())
    return nullptr;
  return F;
}

const Stmt *reaches(const Stmt *S, const ReachMatch &Match,
                    const ReachEnter &Enter) {
  std::set<const Decl *> Seen;
  return reachIn(S, Match, Enter, Seen, 0);
}

std::vector<HiddenCall> hiddenScheduleCalls(const Stmt *Body) {
  CallSites Calls;
  Calls.walk(Body);
  std::vector<HiddenCall> Out;
  for (const CallExpr *C : Calls.Found) {
    const FunctionDecl *F = userCallee(C);
    std::set<const Decl *> Seen;
    if (F)
      if (const CallExpr *In = scheduleCallIn(F, Seen, 0))
        Out.push_back({C, In});
  }
  return Out;
}

} // namespace ts
