// Lowering: the generated kernel text follows the layout and the derived
// protocol (arrival counts, start phases, register budgets, drains).
#include "Builders.h"

#include "lower/Lower.h"
#include "plan/Plan.h"
#include "report/Report.h"
#include "verify/Verify.h"

#include <gtest/gtest.h>

using namespace ts;
using namespace ts::test;

namespace {

struct Copy {
  Builder B;
  unsigned Tiles, Out;
  KernelSource KS;
  std::vector<TaskSource> Src;

  Copy() {
    Tiles = B.tma("Tiles", 3, 4096);
    Out = B.resource("Out", PipelineKind::Gmem, 1, 0);
    B.task("load", 4, 1)
        .regs(40)
        .produces(Tiles)
        .loop(std::nullopt)
        .body()
        .fill(Tiles);
    B.task("store", 0, 4)
        .regs(232)
        .consumes(Tiles)
        .produces(Out)
        .loop(std::nullopt)
        .body()
        .drain(Tiles);
    KS.Name = "copy";
    KS.QualifiedName = "::copy";
    KS.ParamsText = "const Params p";
    for (const Task &T : B.P.Tasks)
      Src.push_back({"::" + T.Name});
  }
  std::string lower() {
    DiagList D;
    pad(B.P, B.kernel(), D);
    Src.resize(B.P.Tasks.size());
    return lowerKernel(B.P, B.kernel(), planFor(B.P, B.kernel()), KS, Src);
  }
};

TEST(Lower, BarrierInitUsesDerivedCounts) {
  Copy C;
  std::string S = C.lower();
  // Full: one TMA producer task; empty: 128 consumer threads.
  EXPECT_NE(S.find("init_barriers(reinterpret_cast<::uint64_t *>(ts_smem + "
                   "12288), 3u, 1u); // Tiles.full"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("init_barriers(reinterpret_cast<::uint64_t *>(ts_smem + "
                   "12312), 3u, 128u); // Tiles.empty"),
            std::string::npos)
      << S;
  EXPECT_NE(
      S.find("__attribute__((global)) void __attribute__((launch_bounds(256, "
             "1))) copy(const Params p) {"),
      std::string::npos);
}

TEST(Lower, SetmaxnregOpensEachRegisterRegion) {
  Copy C;
  std::string S = C.lower();
  EXPECT_NE(S.find("  if (ts_warp < 4u) { // warps [0, 4): 232 registers\n"
                   "    ::ts::detail::setmaxnreg_dec<232>();\n"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("  else if (ts_warp >= 4u && ts_warp < 8u) { // warps [4, "
                   "8): 40 registers\n"
                   "    ::ts::detail::setmaxnreg_dec<40>();\n"),
            std::string::npos)
      << S;
}

TEST(Lower, GroupsWithOneBudgetShareARegion) {
  Builder B;
  unsigned T = B.tma("Tiles", 2, 4096);
  B.task("cons", 0, 8).regs(232).consumes(T).loop(std::nullopt).body().drain(T);
  B.task("prod", 8, 1).regs(40).produces(T).loop(std::nullopt).body().fill(T);
  DiagList D;
  pad(B.P, B.kernel(), D);
  KernelSource KS{"k", "::k", "int n", {"n"}, {}};
  std::vector<TaskSource> Src(B.P.Tasks.size(), TaskSource{"::t"});
  Src[0] = {"::cons"};
  Src[1] = {"::prod"};
  std::string S =
      lowerKernel(B.P, B.kernel(), planFor(B.P, B.kernel()), KS, Src);
  // 12 warps: baseline 168, so consumers increase and the producer decreases.
  EXPECT_NE(S.find("  if (ts_warp < 8u) { // warps [0, 8): 232 registers\n"
                   "    ::ts::detail::setmaxnreg_inc<232>();\n"
                   "    // cons\n"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("  else if (ts_warp >= 8u && ts_warp < 12u) { // warps [8, "
                   "12): 40 registers\n"
                   "    ::ts::detail::setmaxnreg_dec<40>();\n"
                   "    if (ts_warp >= 8u && ts_warp < 9u) { // prod\n"),
            std::string::npos)
      << S;
}

TEST(Lower, WithoutBudgetsTaskBranchesStandAlone) {
  Builder B;
  unsigned T = B.tma("Tiles", 2, 4096);
  B.task("cons", 0, 4).consumes(T).loop(std::nullopt).body().drain(T);
  B.task("prod", 4, 1).produces(T).loop(std::nullopt).body().fill(T);
  KernelSource KS{"k", "::k", "int n", {"n"}, {}};
  std::vector<TaskSource> Src{{"::cons"}, {"::prod"}};
  std::string S =
      lowerKernel(B.P, B.kernel(), planFor(B.P, B.kernel()), KS, Src);
  EXPECT_NE(S.find("  if (ts_warp < 4u) { // cons\n"), std::string::npos) << S;
  EXPECT_NE(S.find("  else if (ts_warp >= 4u && ts_warp < 5u) { // prod\n"),
            std::string::npos)
      << S;
  EXPECT_EQ(S.find("setmaxnreg"), std::string::npos) << S;
}

TEST(Lower, BranchesInWarpOrderWithCursorsAndDrain) {
  Copy C;
  std::string S = C.lower();
  size_t Store = S.find("// store");
  size_t Load = S.find("if (ts_warp >= 4u && ts_warp < 5u) { // load");
  ASSERT_NE(Store, std::string::npos) << S;
  ASSERT_NE(Load, std::string::npos) << S;
  EXPECT_LT(Store, Load);
  // Consumers wait for parity 0, producers for parity 1 (the phase "before").
  EXPECT_NE(
      S.find("cursor ts_cons_0{0u, 0u};\n    "
             "::store(::ts::detail::param_t<decltype(&::store), 0>(ts_pipe_0, "
             "ts_cons_0), ::ts::detail::param_t<decltype(&::store), 1>());"),
      std::string::npos)
      << S;
  EXPECT_NE(S.find("cursor ts_prod_0{0u, 1u};\n      "
                   "::load(::ts::detail::param_t<decltype(&::load), "
                   "0>(ts_pipe_0, ts_prod_0, ts_warp == 4u));\n      "
                   "::ts::detail::producer_drain(ts_pipe_0, ts_prod_0);"),
            std::string::npos)
      << S;
  // The padding task gets no branch of its own.
  EXPECT_EQ(S.find("__ts_padding"), std::string::npos);
}

TEST(Lower, NoSetmaxnregWhenBudgetIsTheBaseline) {
  Builder B;
  unsigned Out = B.resource("Out", PipelineKind::Gmem, 1, 0);
  B.task("t", 0, 8).regs(256).produces(Out);
  KernelSource KS{"k", "::k", "int n", {"n"}, {}};
  std::vector<TaskSource> Src{{"::t"}};
  std::string S =
      lowerKernel(B.P, B.kernel(), planFor(B.P, B.kernel()), KS, Src);
  EXPECT_EQ(S.find("setmaxnreg"), std::string::npos) << S;
  // No pipelines: no shared memory, no barriers.
  EXPECT_EQ(S.find("ts_smem"), std::string::npos) << S;
  EXPECT_EQ(baselineRegisters(targetSm90a(), 8), 256u);
}

TEST(Lower, TraitsReopenTheKernelsNamespaces) {
  Copy C;
  C.KS.QualifiedName = "::a::copy";
  C.KS.Scopes = {"namespace a", "inline namespace v1"};
  DiagList D;
  pad(C.B.P, C.B.kernel(), D);
  std::string T = kernelTraits(planFor(C.B.P, C.B.kernel()), C.KS);
  EXPECT_EQ(T, " } } namespace ts { template <> struct "
               "kernel_traits<&::a::copy> { static "
               "constexpr unsigned smem_bytes = 12448u; static constexpr "
               "unsigned threads = "
               "256u; }; } namespace a { inline namespace v1 {");
}

TEST(Lower, GraphDotHasDerivedAndDeclaredEdges) {
  Copy C;
  C.B.edge(C.Tiles, C.Out);
  std::string G = graphDot(C.B.P, C.B.kernel());
  EXPECT_NE(G.find("\"Tiles\" -> \"Out\";"), std::string::npos) << G;
  EXPECT_NE(G.find("\"Tiles\" -> \"Out\" [style=dashed];"), std::string::npos)
      << G;
}

TEST(Lower, ReportStatesVerdictAndTrips) {
  Copy C;
  DiagList D;
  pad(C.B.P, C.B.kernel(), D);
  VerifyResult V;
  V.Coverage = "every trip count (runs 0 to 7 decide all)";
  std::string R =
      kernelReport(C.B.P, C.B.kernel(), planFor(C.B.P, C.B.kernel()), V, 0, 1);
  EXPECT_NE(R.find("== libts kernel 'k': 8 warps, 256 threads, 12448 B dynamic "
                   "shared memory"),
            std::string::npos)
      << R;
  EXPECT_NE(R.find("  Tiles -> Out\n"), std::string::npos) << R;
  EXPECT_NE(R.find("-- verification: PASSED (0 error(s), 1 warning(s)"),
            std::string::npos)
      << R;
  EXPECT_NE(R.find("   protocol: every trip count (runs 0 to 7 decide all)\n"),
            std::string::npos)
      << R;
  EXPECT_NE(R.find("   checks: ts-syntax ts-warps"), std::string::npos) << R;
}

TEST(Model, DomainTripsAndSignature) {
  Domain D;
  D.Present = true;
  D.Start = 3, D.End = 10, D.Step = 3;
  EXPECT_EQ(D.constantTrips(), std::optional<uint64_t>(3)); // 3, 6, 9
  D.End = 3;
  EXPECT_EQ(D.constantTrips(), std::optional<uint64_t>(0));
  D.End.reset();
  EXPECT_FALSE(D.constantTrips().has_value());
  D.StartText = "blockIdx.x", D.EndText = "p.n", D.StepText = "gridDim.x";
  EXPECT_EQ(D.signature(), "blockIdx.x;p.n;gridDim.x");
}

TEST(Model, DeriveEdgesOncePerPair) {
  Copy C;
  std::vector<Edge> E = deriveEdges(C.B.P, C.B.kernel());
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].From, C.Tiles);
  EXPECT_EQ(E[0].To, C.Out);
  EXPECT_EQ(blockWarps(C.B.P, C.B.kernel()), 5u);
}

} // namespace
