//===- ChecksTest.cpp - The check table and the docs built on it ----------===//
#include "model/Diag.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

using namespace ts;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// The README's row for a check, as the table defines it.
std::string readmeRow(const CheckInfo &I) {
  return std::string("| `") + I.Flag + "` | " +
         (I.Off     ? "off"
          : I.Error ? "error"
                    : "warning") +
         " | " + I.Rule + " |";
}

TEST(Checks, EveryGroupOnceWithAFlagAndARule) {
  std::set<std::string> Flags;
  for (const CheckInfo &I : checkTable()) {
    EXPECT_TRUE(Flags.insert(I.Flag).second) << I.Flag;
    EXPECT_EQ(std::string(I.Flag).rfind("ts-", 0), 0u) << I.Flag;
    EXPECT_FALSE(std::string(I.Rule).empty()) << I.Flag;
    EXPECT_EQ(checkFlag(I.C), std::string(I.Flag));
  }
  EXPECT_TRUE(checkIsErrorByDefault(Check::Credit));
  EXPECT_FALSE(checkIsErrorByDefault(Check::Bound));
}

TEST(Checks, ReadmeTableIsTheCheckTable) {
  std::string Readme = readFile(LIBTS_SOURCE_DIR "/README.md");
  ASSERT_FALSE(Readme.empty());
  for (const CheckInfo &I : checkTable())
    EXPECT_NE(Readme.find(readmeRow(I)), std::string::npos)
        << "README.md lacks the row:\n"
        << readmeRow(I);
}

TEST(Checks, VerifierDocsNameEveryGroup) {
  std::string Docs = readFile(LIBTS_SOURCE_DIR "/docs/verification.md");
  for (const CheckInfo &I : checkTable())
    if (I.C != Check::Syntax && I.C != Check::Padding)
      EXPECT_NE(Docs.find(std::string("| ") + I.Flag), std::string::npos)
          << I.Flag;
}

} // namespace

//===-- The check registry ------------------------------------------------===//

#include "verify/Registry.h"

namespace {

TEST(Registry, EveryRowIsOneFileOfVerify) {
  std::set<std::string> Names;
  for (const CheckRow &Row : checkRegistry()) {
    EXPECT_TRUE(Names.insert(Row.Name).second) << Row.Name;
    std::string File =
        LIBTS_SOURCE_DIR "/plugin/verify/" + std::string(Row.Name) + ".cpp";
    EXPECT_FALSE(readFile(File).empty()) << File;
    EXPECT_FALSE(Row.Groups.empty()) << Row.Name;
    EXPECT_NE(Row.Run, nullptr) << Row.Name;
  }
  // The protocol runs last, once.
  EXPECT_EQ(checkRegistry().back().Where, Scope::Protocol);
  size_t Protocols = 0;
  for (const CheckRow &Row : checkRegistry())
    Protocols += Row.Where == Scope::Protocol;
  EXPECT_EQ(Protocols, 1u);
}

TEST(Registry, EveryDocumentedGroupHasItsChecks) {
  // ts-syntax also comes from the front end, ts-padding from the plan.
  std::set<Check> Reported = {Check::Padding};
  for (const CheckRow &Row : checkRegistry())
    Reported.insert(Row.Groups.begin(), Row.Groups.end());
  std::set<Check> Documented;
  for (const CheckInfo &I : checkTable()) {
    Documented.insert(I.C);
    EXPECT_TRUE(Reported.count(I.C))
        << I.Flag << " is reported by no registered check";
  }
  for (Check C : Reported)
    EXPECT_TRUE(Documented.count(C)) << int(C);
}

} // namespace

namespace {

const char *scopeName(const CheckRow &Row) {
  if (Row.Where == Scope::Protocol)
    return "protocol";
  if (Row.Where == Scope::View)
    return "view";
  if (Row.Where == Scope::Unit)
    return "unit";
  return Row.NestedOnly ? "kernel (nested only)" : "kernel";
}

/// The row docs/architecture.md gives a registered check.
std::string architectureRow(const CheckRow &Row) {
  std::string Groups;
  for (Check C : Row.Groups)
    Groups += (Groups.empty() ? "`" : ", `") + std::string(checkFlag(C)) + "`";
  return std::string("| `") + Row.Name + "` | " + Groups + " | " +
         scopeName(Row) + " | " + (Row.Structural ? "yes" : "no") + " |";
}

TEST(Registry, ArchitectureDocsListTheRegistryInOrder) {
  std::string Docs = readFile(LIBTS_SOURCE_DIR "/docs/architecture.md");
  size_t At = 0;
  for (const CheckRow &Row : checkRegistry()) {
    size_t Found = Docs.find(architectureRow(Row));
    EXPECT_NE(Found, std::string::npos)
        << "docs/architecture.md lacks the row:\n"
        << architectureRow(Row);
    if (Found != std::string::npos) {
      EXPECT_GT(Found, At) << Row.Name << " is out of order";
      At = Found;
    }
  }
}

} // namespace
