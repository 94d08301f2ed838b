//===- ChecksTest.cpp - The check table and the docs built on it -----------===//
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
  return std::string("| `") + I.Flag + "` | " + (I.Off ? "off" : I.Error ? "error" : "warning") + " | " +
         I.Rule + " |";
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
        << "README.md lacks the row:\n" << readmeRow(I);
}

TEST(Checks, VerifierDocsNameEveryGroup) {
  std::string Docs = readFile(LIBTS_SOURCE_DIR "/docs/verification.md");
  for (const CheckInfo &I : checkTable())
    if (I.C != Check::Syntax && I.C != Check::Padding)
      EXPECT_NE(Docs.find(std::string("| ") + I.Flag), std::string::npos) << I.Flag;
}

} // namespace
