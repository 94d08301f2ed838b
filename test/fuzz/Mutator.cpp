//===- Mutator.cpp - structure-aware mutations of libts kernel files ------===//
#include "Mutator.h"

#include <cctype>
#include <vector>

namespace tsfuzz {
namespace {

using Rng = std::minstd_rand;

size_t pick(Rng &R, size_t N) {
  return std::uniform_int_distribution<size_t>(0, N - 1)(R);
}

std::vector<std::string> splitLines(const std::string &S) {
  std::vector<std::string> L;
  size_t B = 0;
  for (size_t E; (E = S.find('\n', B)) != std::string::npos; B = E + 1)
    L.push_back(S.substr(B, E - B));
  L.push_back(S.substr(B));
  return L;
}

std::string joinLines(const std::vector<std::string> &L) {
  std::string S;
  for (size_t I = 0; I < L.size(); ++I)
    S += (I ? "\n" : "") + L[I];
  return S;
}

/// Lines that carry the protocol: what a mutation of a schedule touches.
bool isProtocolLine(const std::string &L) {
  static const char *const Marks[] = {"acquire", "commit", "wait",   "release",
                                      "try_",    "pdl_",   "domain", "#pragma",
                                      "tma::",   "if ("};
  for (const char *M : Marks)
    if (L.find(M) != std::string::npos)
      return true;
  return false;
}

std::vector<size_t> protocolLines(const std::vector<std::string> &L) {
  std::vector<size_t> Out;
  for (size_t I = 0; I < L.size(); ++I)
    if (isProtocolLine(L[I]))
      Out.push_back(I);
  return Out;
}

/// Deletes, duplicates or moves one protocol line.
bool editLine(std::string &Src, Rng &R) {
  std::vector<std::string> L = splitLines(Src);
  std::vector<size_t> P = protocolLines(L);
  if (P.empty())
    return false;
  size_t I = P[pick(R, P.size())];
  switch (pick(R, 3)) {
  case 0:
    L.erase(L.begin() + I);
    break;
  case 1:
    L.insert(L.begin() + I, L[I]);
    break;
  default:
    if (I + 1 >= L.size())
      return false;
    std::swap(L[I], L[I + 1]);
  }
  Src = joinLines(L);
  return true;
}

/// Statements and guards libts models, inserted after a statement.
bool insertSnippet(std::string &Src, Rng &R) {
  static const char *const Snippets[] = {
      "ts::pdl_wait();",
      "ts::pdl_launch_dependents();",
      "__syncthreads();",
      "#pragma unroll 1",
      "if (threadIdx.x == 0) return;",
      "goto out; out:;",
      "for (auto j : ts::domain(0, 3)) { (void)j; }",
      "asm volatile(\"\" ::: \"memory\");",
      "{ auto t = ts::token(true); (void)t; }",
      "[[ts::task(ts::warps(0, 1))]] int bad;",
      "static __shared__ int extra[1 << 20];",
      "while (true) {}"};
  std::vector<std::string> L = splitLines(Src);
  std::vector<size_t> At;
  for (size_t I = 0; I < L.size(); ++I)
    if (!L[I].empty() && (L[I].back() == ';' || L[I].back() == '{'))
      At.push_back(I);
  if (At.empty())
    return false;
  size_t I = At[pick(R, At.size())];
  L.insert(L.begin() + I + 1,
           Snippets[pick(R, sizeof(Snippets) / sizeof(*Snippets))]);
  Src = joinLines(L);
  return true;
}

/// Replaces one integer literal by a boundary value.
bool editNumber(std::string &Src, Rng &R) {
  static const char *const Values[] = {
      "0",    "1",     "2",          "3",          "7",   "31",
      "32",   "33",    "64",         "255",        "256", "1024",
      "4096", "65536", "2147483647", "4294967296", "-1"};
  std::vector<std::pair<size_t, size_t>> Nums;
  for (size_t I = 0; I < Src.size(); ++I) {
    if (!isdigit((unsigned char)Src[I]) ||
        (I && (isalnum((unsigned char)Src[I - 1]) || Src[I - 1] == '_' ||
               Src[I - 1] == '.')))
      continue;
    size_t E = I;
    while (E < Src.size() && isalnum((unsigned char)Src[E]))
      ++E;
    Nums.push_back({I, E - I});
    I = E;
  }
  if (Nums.empty())
    return false;
  auto [B, N] = Nums[pick(R, Nums.size())];
  Src.replace(B, N, Values[pick(R, sizeof(Values) / sizeof(*Values))]);
  return true;
}

/// Edits one argument of a [[ts::...]] attribute: drops it, repeats it, or
/// replaces it with a libts spelling or a name from elsewhere in the file.
bool editAttribute(std::string &Src, Rng &R) {
  static const char *const Args[] = {"ts::stages(0)",
                                     "ts::stages(64)",
                                     "ts::warps(0, 0)",
                                     "ts::warps(30, 4)",
                                     "ts::regs(7)",
                                     "ts::regs(256)",
                                     "ts::tx_bytes(3)",
                                     "ts::align(3)",
                                     "ts::swizzled",
                                     "ts::cta",
                                     "ts::gmem",
                                     "ts::tma_async",
                                     "ts::async_async",
                                     "ts::pdl_waited",
                                     "ts::trip_bound(1)",
                                     "ts::smem_capacity(1)",
                                     "static_cast<ts::pipeline_kind>(10)",
                                     "ts::alias<int, float>",
                                     "ts::grid_dependent<int>",
                                     "main",
                                     "threadIdx"};
  std::vector<std::pair<size_t, size_t>>
      Spans; // argument lists of [[ts::...(...)]]
  for (size_t P = Src.find("[[ts::"); P != std::string::npos;
       P = Src.find("[[ts::", P + 1)) {
    size_t Open = Src.find('(', P), Close = Src.find(")]]", P);
    if (Open != std::string::npos && Close != std::string::npos && Open < Close)
      Spans.push_back({Open + 1, Close});
  }
  if (Spans.empty())
    return false;
  auto [B, E] = Spans[pick(R, Spans.size())];
  // Top-level commas split the arguments.
  std::vector<size_t> Cuts{B};
  int Depth = 0;
  for (size_t I = B; I < E; ++I) {
    Depth += Src[I] == '(' || Src[I] == '<';
    Depth -= Src[I] == ')' || Src[I] == '>';
    if (Src[I] == ',' && Depth == 0)
      Cuts.push_back(I + 1);
  }
  Cuts.push_back(E + 1);
  size_t K = pick(R, Cuts.size() - 1);
  size_t AB = Cuts[K], AE = Cuts[K + 1] - 1;
  std::string Arg = Src.substr(AB, AE - AB);
  switch (pick(R, 3)) {
  case 0:
    Src.erase(K ? AB - 1 : AB, AE - AB + (K ? 1 : 0));
    break;
  case 1:
    Src.insert(AE, "," + Arg);
    break;
  default:
    Src.replace(AB, AE - AB,
                std::string(" ") + Args[pick(R, sizeof(Args) / sizeof(*Args))]);
  }
  return true;
}

} // namespace

bool mutate(std::string &Src, Rng &R) {
  switch (pick(R, 4)) {
  case 0:
    return editLine(Src, R);
  case 1:
    return insertSnippet(Src, R);
  case 2:
    return editNumber(Src, R);
  default:
    return editAttribute(Src, R);
  }
}

} // namespace tsfuzz
