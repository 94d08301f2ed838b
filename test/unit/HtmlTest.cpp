//===- HtmlTest.cpp - The -html page: escaping, numbers, geometry ---------===//
#include "report/Html.h"
#include "Builders.h"
#include "report/HtmlParts.h"
#include "report/Svg.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

TEST(HtmlEscape, MarkupQuotesAndControlCharacters) {
  EXPECT_EQ(escapeHtml("Tile<4> & 'a' \"b\""),
            "Tile&lt;4&gt; &amp; &#39;a&#39; &quot;b&quot;");
  EXPECT_EQ(escapeHtml("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(escapeHtml(std::string("x\0y", 3)), "x&#xfffd;y");
  EXPECT_EQ(escapeHtml("\x1b[0m\x7f"), "&#xfffd;[0m&#xfffd;");
  EXPECT_EQ(escapeHtml("&amp;"), "&amp;amp;");   // Text, never markup.
  EXPECT_EQ(escapeHtml("\xc3\xa9"), "\xc3\xa9"); // UTF-8 passes through.
}

TEST(HtmlPercent, RoundsHalfUpInIntegers) {
  EXPECT_EQ(percent(1, 3), "33.333");
  EXPECT_EQ(percent(2, 3), "66.667");
  EXPECT_EQ(percent(1, 2), "50");
  EXPECT_EQ(percent(1, 8), "12.5");
  EXPECT_EQ(percent(0, 5), "0");
  EXPECT_EQ(percent(5, 0), "0");
  EXPECT_EQ(percent(7, 7), "100");
  EXPECT_EQ(percent(196608, 232448, 2), "84.58");
  EXPECT_EQ(percent(1, 200000, 3), "0.001"); // 0.0005 rounds up.
  EXPECT_EQ(percent(1, 200001, 3), "0");
  // Far beyond 64-bit intermediate products.
  EXPECT_EQ(percent(uint64_t(1) << 62, uint64_t(1) << 63), "50");
}

TEST(HtmlClip, CountsCodePoints) {
  EXPECT_EQ(clip("short", 8), "short");
  EXPECT_EQ(clip("exactly8", 8), "exactly8");
  EXPECT_EQ(clip("a_long_name", 8), "a_lon...");
  // Four two-byte letters fit in 4 code points; cutting keeps them whole.
  EXPECT_EQ(clip("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4),
            "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
  EXPECT_EQ(clip("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4), "\xc3\xa9...");
}

Builder copyKernel(int64_t Trips, unsigned Stages = 4) {
  Builder B;
  unsigned T = B.resource("Tiles", PipelineKind::TmaAsync, Stages, 16384);
  B.task("store", 0, 4).consumes(T).regs(232).loop(Trips).drain(T);
  B.task("load", 4, 1).produces(T).regs(40).loop(Trips).fill(T);
  return B;
}

/// Row 0 tiles the bar: each segment starts where the previous ended.
void expectContiguousRow0(const SmemBar &Bar) {
  uint64_t At = 0;
  for (const SmemSegment &S : Bar.Segments) {
    if (S.Row != 0)
      continue;
    EXPECT_EQ(S.Offset, At) << S.Label;
    At = S.Offset + S.Bytes;
  }
  EXPECT_EQ(At, Bar.Scale);
}

TEST(HtmlSmemBar, StagesBarriersSlackAndFreeToScale) {
  Builder B = copyKernel(8);
  KernelPlan Plan = planFor(B.P, B.kernel());
  SmemBar Bar = smemBar(B.P, B.kernel(), Plan);
  EXPECT_EQ(Bar.Scale, 232448u);
  EXPECT_EQ(Bar.Rows, 1u);
  ASSERT_EQ(Bar.Segments.size(), 4u + 2u + 1u + 1u);
  for (unsigned S = 0; S < 4; ++S) {
    EXPECT_EQ(Bar.Segments[S].K, SmemSegment::Stage);
    EXPECT_EQ(Bar.Segments[S].Label, "Tiles #" + std::to_string(S));
    EXPECT_EQ(Bar.Segments[S].Offset, 16384u * S);
    EXPECT_EQ(Bar.Segments[S].Bytes, 16384u);
  }
  EXPECT_EQ(Bar.Segments[4].K, SmemSegment::Barriers);
  EXPECT_EQ(Bar.Segments[4].Label, "Tiles.full");
  EXPECT_EQ(Bar.Segments[4].Offset, 65536u);
  EXPECT_EQ(Bar.Segments[4].Bytes, 32u);
  EXPECT_EQ(Bar.Segments[5].Label, "Tiles.empty");
  EXPECT_EQ(Bar.Segments[6].K, SmemSegment::LaunchSlack);
  EXPECT_EQ(Bar.Segments[6].Bytes,
            Plan.Layout.DynamicBytes - Plan.Layout.TotalBytes);
  EXPECT_EQ(Bar.Segments[7].K, SmemSegment::Free);
  EXPECT_EQ(Bar.Segments[7].Offset, Plan.Layout.DynamicBytes);
  expectContiguousRow0(Bar);
  // What the page prints for the first stage: 16384 of 232448 bytes.
  EXPECT_EQ(percent(Bar.Segments[1].Offset, Bar.Scale), "7.048");
}

TEST(HtmlSmemBar, PaddingAndAliasRows) {
  Builder B;
  unsigned Ab = B.resource("AB", PipelineKind::TmaAsync, 4, 8192, 128, true);
  unsigned St = B.resource("Staging", PipelineKind::AsyncAsync, 1, 20000, 256);
  unsigned X = B.resource("X", PipelineKind::AsyncAsync, 2, 100, 128);
  B.task("load", 0, 1).produces(Ab).produces(X).loop(4).fill(Ab).fill(X);
  B.task("mma", 1, 1)
      .consumes(Ab)
      .consumes(X)
      .produces(St)
      .loop(4)
      .drain(Ab)
      .drain(X)
      .tail()
      .acquire(St)
      .pwork(St)
      .commit(St);
  B.task("store", 2, 1).consumes(St).head().drain(St);
  B.kernel().Aliases.push_back({{Ab, St}, 700});
  SmemBar Bar = smemBar(B.P, B.kernel(), planFor(B.P, B.kernel()));
  EXPECT_EQ(Bar.Rows, 2u);
  expectContiguousRow0(Bar);
  std::vector<const SmemSegment *> Row1;
  for (const SmemSegment &S : Bar.Segments)
    if (S.Row == 1)
      Row1.push_back(&S);
  // The aliased phase shares AB's bytes: a row of its own, same base.
  ASSERT_EQ(Row1.size(), 2u);
  EXPECT_EQ(Row1[0]->Label, "Staging");
  EXPECT_EQ(Row1[0]->Offset, 0u);
  EXPECT_EQ(Row1[0]->Bytes, 20000u);
  EXPECT_EQ(Row1[1]->K, SmemSegment::StagePadding);
  EXPECT_EQ(Row1[1]->Bytes, 224u);
  // X's 100-byte stages are padded to their 128-byte stride.
  bool SawXPadding = false;
  for (const SmemSegment &S : Bar.Segments)
    if (S.Label == "X #1 padding") {
      SawXPadding = true;
      EXPECT_EQ(S.Offset, 32768u + 128u + 100u);
      EXPECT_EQ(S.Bytes, 28u);
    }
  EXPECT_TRUE(SawXPadding);
}

TEST(HtmlSmemBar, OverCapacityWidensTheScale) {
  Builder B = copyKernel(8);
  B.kernel().SmemCapacity = 1024;
  KernelPlan Plan = planFor(B.P, B.kernel());
  SmemBar Bar = smemBar(B.P, B.kernel(), Plan);
  EXPECT_EQ(Bar.Scale, Plan.Layout.DynamicBytes);
  ASSERT_EQ(Bar.Rows, 2u);
  const SmemSegment &Over = Bar.Segments.back();
  EXPECT_EQ(Over.K, SmemSegment::Overflow);
  EXPECT_EQ(Over.Row, 1u);
  EXPECT_EQ(Over.Offset, 1024u);
  EXPECT_EQ(Over.Bytes, Plan.Layout.DynamicBytes - 1024u);
  for (const SmemSegment &S : Bar.Segments)
    EXPECT_NE(S.K, SmemSegment::Free);
}

TEST(HtmlRegisters, BudgetsPerWarpGroup) {
  Builder B = copyKernel(8);
  DiagList Pad;
  pad(B.P, B.kernel(), Pad);
  RegisterUse U = registerUse(B.P, B.kernel(), planFor(B.P, B.kernel()));
  EXPECT_EQ(U.File, 65536u);
  ASSERT_EQ(U.Groups.size(), 2u);
  EXPECT_EQ(U.Groups[0].Registers, 128u * 232u);
  EXPECT_TRUE(U.Groups[0].Budgeted);
  EXPECT_EQ(U.Groups[1].Registers, 128u * 40u);
  EXPECT_EQ(U.Groups[1].Tasks.size(), 2u); // load and its padding.
  EXPECT_EQ(U.Total, 128u * (232u + 40u));
}

TEST(HtmlRegisters, UnpaddedWarpsKeepTheBaseline) {
  // Budgets that disagree in warp group 1 (an error): nothing is padded.
  Builder B = copyKernel(8);
  unsigned T = B.tma("Other");
  B.task("other", 5, 1).produces(T).regs(48).loop(8).fill(T);
  B.task("drain", 8, 4).consumes(T).loop(8).drain(T);
  KernelPlan Plan = planFor(B.P, B.kernel());
  ASSERT_TRUE(Plan.Padding.empty());
  RegisterUse U = registerUse(B.P, B.kernel(), Plan);
  ASSERT_EQ(U.Groups.size(), 3u);
  const RegisterGroupUse &G = U.Groups[1];
  EXPECT_EQ(G.FirstWarp, 4u);
  EXPECT_EQ(G.EndWarp, 8u);
  ASSERT_EQ(G.PerWarp.size(), 4u);
  EXPECT_EQ(G.PerWarp[0], 40u);
  EXPECT_EQ(G.PerWarp[1], 48u);
  EXPECT_EQ(G.PerWarp[3], Plan.BaselineRegs);
  EXPECT_EQ(G.Registers, 32u * (40u + 48u + 2u * Plan.BaselineRegs));
}

TEST(HtmlStages, NeverMoreInFlightThanStages) {
  // A slow consumer (three steps of work a stage) lets the producer run
  // ahead until every stage is taken.
  Builder B;
  unsigned T = B.resource("Tiles", PipelineKind::AsyncAsync, 3, 1024);
  B.task("use", 0, 4)
      .consumes(T)
      .loop(8)
      .wait(T)
      .cwork(T)
      .cwork(T)
      .cwork(T)
      .release(T);
  B.task("load", 4, 4).produces(T).loop(8).fill(T);
  KernelPlan Plan = planFor(B.P, B.kernel());
  VerifyResult V = verifyKernel(B.P, B.kernel(), Plan);
  ASSERT_TRUE(V.Diags.empty()) << dump(V.Diags);
  auto Counts = stagesInFlight(B.P, B.kernel(), Plan, V.Sim);
  ASSERT_EQ(Counts.size(), 1u);
  ASSERT_EQ(Counts[0].size(), V.Sim.Steps.back().Step + 1);
  unsigned Peak = 0;
  for (const StageCounts &C : Counts[0]) {
    EXPECT_LE(C.inFlight(), 3u);
    Peak = std::max(Peak, C.inFlight());
  }
  EXPECT_EQ(Peak, 3u);
  EXPECT_EQ(Counts[0].front().Filling, 1u);   // Step 0: the first acquire.
  EXPECT_EQ(Counts[0].back().inFlight(), 0u); // Balanced at the end.
}

TEST(HtmlTrace, DeadlockTraceLandsOnItsSteps) {
  Builder B;
  unsigned T = B.resource("Tile", PipelineKind::AsyncAsync, 2, 4096);
  B.task("fill", 0, 1)
      .produces(T)
      .loop(std::nullopt)
      .acquire(T, Guard::LastIter)
      .commit(T, Guard::LastIter);
  B.task("drain", 1, 1).consumes(T).loop(std::nullopt).drain(T);
  KernelPlan Plan = planFor(B.P, B.kernel());
  VerifyResult V = verifyKernel(B.P, B.kernel(), Plan);
  ASSERT_TRUE(V.Sim.Deadlocked);
  DiagList Credit = only(V.Diags, Check::Credit);
  ASSERT_FALSE(Credit.empty()) << dump(V.Diags);
  const Diag &D = Credit.front();
  ASSERT_FALSE(D.Trace.empty());
  std::vector<TraceMark> Marks = traceMarks(B.P, V.Sim, D, 1);
  ASSERT_EQ(Marks.size(), D.Trace.size());
  for (size_t I = 0; I < Marks.size(); ++I) {
    EXPECT_EQ(B.P.Tasks[Marks[I].Task].Name, D.Trace[I].Task);
    if (I)
      EXPECT_GE(Marks[I].Step, Marks[I - 1].Step);
  }
  EXPECT_EQ(Marks.back().Label, std::to_string(D.TraceTotal));
}

TEST(HtmlPage, EscapedDeterministicAndComplete) {
  Builder B;
  unsigned T = B.resource("Tile<4>", PipelineKind::AsyncAsync, 2, 1024);
  B.task("load&go", 0, 4).produces(T).loop(4).fill(T);
  B.task("use", 4, 4).consumes(T).loop(4).drain(T);
  KernelPlan Plan = planFor(B.P, B.kernel());
  VerifyResult V = verifyKernel(B.P, B.kernel(), Plan);
  std::vector<HtmlKernel> Ks{{&B.kernel(), &Plan, &V}};
  Locator Where = [](SourceHandle H) { return "k.cu:" + std::to_string(H); };
  LevelOf Level = [](const Diag &) { return "error"; };
  std::string Page = htmlReport("a<b>.cu", B.P, Ks, Where, Level);
  EXPECT_EQ(Page, htmlReport("a<b>.cu", B.P, Ks, Where, Level));
  EXPECT_TRUE(contains(Page, "<title>libts: a&lt;b&gt;.cu</title>"));
  EXPECT_TRUE(contains(Page, "Tile&lt;4&gt;"));
  EXPECT_TRUE(contains(Page, "load&amp;go"));
  EXPECT_FALSE(contains(Page, "Tile<4>"));
  EXPECT_FALSE(contains(Page, "load&go"));
  EXPECT_FALSE(contains(Page, "<script"));
  size_t Svgs = 0;
  for (size_t I = 0; (I = Page.find("<svg ", I)) != std::string::npos; ++I)
    ++Svgs;
  EXPECT_EQ(Svgs, 4u); // Graph, timeline, shared memory, registers.
  EXPECT_TRUE(contains(Page, "class=\"verdict passed\""));
  EXPECT_TRUE(contains(Page, "</html>\n"));
}

TEST(HtmlPage, NoKernels) {
  Program P;
  std::string Page = htmlReport(
      "empty.cu", P, {}, [](SourceHandle) { return ""; },
      [](const Diag &) { return ""; });
  EXPECT_TRUE(contains(Page, "no <code>[[ts::kernel]]</code>"));
}

} // namespace
