//===- Html.cpp - One self-contained HTML page per translation unit -------===//
//
// The page and the sections of each kernel; the graph and the timeline are
// drawn in HtmlGraph.cpp and HtmlTimeline.cpp. Everything is computed from
// the plan and the verification result the other reports print, so the
// picture and the text can never disagree.
//
//===----------------------------------------------------------------------===//
#include "report/Html.h"
#include "report/HtmlParts.h"
#include "report/Svg.h"

#include <algorithm>

namespace ts {
namespace {

const char *const Style = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1f2328;background:#fff;margin:0 24px 48px}
h1{font-size:22px;margin:20px 0 4px}h2{font-size:18px;margin:0 0 6px}h3{font-size:15px;margin:22px 0 6px}
code,.mono,table.data td{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:12.5px}
nav ul{margin:6px 0 14px;padding-left:20px}
section.kernel{border:1px solid #d0d7de;border-radius:8px;padding:14px 18px;margin:16px 0}
.verdict{font-size:13px;font-weight:600;padding:2px 8px;border-radius:10px;margin-left:8px;vertical-align:2px}
.verdict.passed{background:#dafbe1;color:#116329}.verdict.failed{background:#ffebe9;color:#a40e26}
.facts,.note-text{color:#57606a}
.scroll{overflow-x:auto;border:1px solid #eaeef2;border-radius:6px;padding:4px;background:#fcfcfd}
svg.graph{max-width:100%;height:auto}
table.data{border-collapse:collapse;margin:6px 0}table.data th,table.data td{border:1px solid #d8dee4;padding:2px 8px;text-align:left}
table.data td.num,table.data th.num{text-align:right}table.data th{background:#f6f8fa;font-weight:600}table.data caption{text-align:left;padding:2px 0}
ol.findings{padding-left:22px}li.finding{margin:8px 0 14px}
.level{font-weight:700;text-transform:uppercase;font-size:12px;padding:1px 6px;border-radius:4px}
.level.error{background:#cf222e;color:#fff}.level.warning{background:#bf8700;color:#fff}
.at{color:#57606a;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
.message{font-weight:600;margin:4px 0}pre.excerpt{margin:2px 0 4px;padding:4px 8px;background:#f6f8fa;border-radius:4px;font-size:12.5px;overflow-x:auto}ul.notes{margin:2px 0 6px;padding-left:20px}
.legend{margin:6px 0;color:#57606a;font-size:12.5px}.legend span.key{display:inline-block;margin-right:14px}
.swatch{display:inline-block;width:12px;height:12px;border:1px solid #8c959f;border-radius:2px;vertical-align:-2px;margin-right:4px}
svg text{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:10px;fill:#1f2328}
svg .name{font-size:12px;font-weight:600}svg .facts,svg .lane-facts{fill:#57606a}svg .lane-name{font-size:12px;font-weight:600}
svg .axis{fill:#8c959f}
.node .box{stroke:#57606a;stroke-width:1.2;rx:6}.node.task .box{fill:#ddf4ff}.node.resource .box{fill:#fff8c5;rx:18}
.node.kind-gmem .box{fill:#eaeef2}.node.kind-task_owned .box{fill:#fbefff}
.edge{fill:none;stroke:#57606a;stroke-width:1.4}.edge.use{stroke-dasharray:2 3}
.edge.derived{stroke:#8250df;stroke-width:1}.edge.declared{stroke:#bf3989;stroke-dasharray:6 4;stroke-width:1}
.arrowhead{fill:#57606a}.arrowhead.derived{fill:#8250df}
.lane{fill:#f6f8fa}.lane.stages{fill:#fff}.band.even{fill:#f6f8fa}.band.odd{fill:#eaeef2}
.op .cell{stroke:#8c959f;stroke-width:.8;rx:3}.op.guarded .cell{stroke-dasharray:3 2;stroke-width:1.4;stroke:#1f2328}
.op.blocked .cell{fill:#ffebe9;stroke:#cf222e;stroke-width:2}.op.blocked text{fill:#a40e26;font-weight:700}
.op-acquire{fill:#b6e3ff;background:#b6e3ff}.op-commit{fill:#54aeff;background:#54aeff}
.op-wait{fill:#aceebb;background:#aceebb}.op-release{fill:#4ac26b;background:#4ac26b}
.op-work{fill:#fff;background:#fff}.op-mma{fill:#e0d7ff;background:#e0d7ff}.op-pdl{fill:#ffd8b5;background:#ffd8b5}.op-turn{fill:#c8f0d0;background:#c8f0d0}
svg .op-name{font-weight:600}svg .op-tag,svg .op-res{fill:#424a53}
.stage-capacity{fill:#fff;stroke:#d0d7de}.stage-filling{fill:#54aeff;background:#54aeff}
.stage-full{fill:#bf8700;background:#bf8700}.stage-draining{fill:#4ac26b;background:#4ac26b}svg .stage-count{font-size:9px;fill:#57606a}
.mark{fill:#cf222e;stroke:#fff;stroke-width:1.5}svg .mark-label{fill:#fff;font-size:9px;font-weight:700}
.seg{stroke:#fff;stroke-width:.5}.seg.stage{fill:#54aeff;background:#54aeff}.seg.stage.alt{fill:#218bff}
.seg.stage-padding{fill:#b6e3ff;background:#b6e3ff}.seg.align-padding{fill:#d0d7de;background:#d0d7de}
.seg.barriers{fill:#cf222e;background:#cf222e;stroke:#cf222e;stroke-width:1}.seg.launch-slack{fill:#eaeef2;background:#eaeef2}
.seg.free{fill:#fff;background:#fff;stroke:#d0d7de;stroke-width:1}.seg.overflow{fill:#ff8182;background:#ff8182}
.seg.regs{fill:#8250df;background:#8250df}.seg.regs.alt{fill:#a475f9}.seg.regs.baseline{fill:#c297ff;background:#c297ff}
svg .seg-label{fill:#fff;font-size:10px;font-weight:600}
)css";

std::string esc(std::string_view S) { return escapeHtml(S); }

std::string code(std::string_view S) { return "<code>" + esc(S) + "</code>"; }

std::string bytes(uint64_t B) { return std::to_string(B) + " B"; }

std::string tag(std::string_view Name, std::string_view Class,
                const std::string &Inner) {
  std::string Open = "<" + std::string(Name);
  if (!Class.empty())
    Open += " class=\"" + esc(Class) + "\"";
  return Open + ">" + Inner + "</" + std::string(Name) + ">";
}

/// One table row; cells starting with '#' are right-aligned numbers.
std::string row(const std::vector<std::string> &Cells, bool Header = false) {
  std::string Out = "<tr>";
  for (const std::string &C : Cells) {
    bool Num = !C.empty() && C[0] == '#';
    std::string Text = Num ? C.substr(1) : C;
    Out += tag(Header ? "th" : "td", Num ? "num" : "", Text);
  }
  return Out + "</tr>\n";
}

std::string swatch(std::string_view Class, std::string_view Label) {
  return "<span class=\"key\"><span class=\"swatch " + esc(Class) +
         "\"></span>" + esc(Label) + "</span>";
}

struct Verdict {
  std::vector<const Diag *> Shown;
  unsigned Errors = 0, Warnings = 0;
};

Verdict verdictOf(const VerifyResult &V, const LevelOf &Level) {
  Verdict R;
  for (const Diag &D : V.Diags) {
    std::string L = Level(D);
    if (L.empty())
      continue;
    R.Shown.push_back(&D);
    R.Errors += L == "error";
    R.Warnings += L == "warning";
  }
  return R;
}

std::string located(const Locator &Where, SourceHandle H) {
  std::string At = H ? Where(H) : "";
  return At.empty() ? "" : "<span class=\"at\">" + esc(At) + "</span> ";
}

//===-- Findings ----------------------------------------------------------===//

std::string traceTable(const Diag &D, const Locator &Where, bool Marked) {
  size_t Total = std::max(D.TraceTotal, D.Trace.size());
  size_t Number = Total - D.Trace.size();
  std::string Caption =
      "counterexample: " +
      (Total > D.Trace.size()
           ? "the last " + std::to_string(D.Trace.size()) + " of " +
                 std::to_string(Total) + " events"
           : std::to_string(Total) + (Total == 1 ? " event" : " events")) +
      (Marked ? ", numbered on the timeline" : "");
  std::string Out = "<table class=\"data trace\"><caption>" + esc(Caption) +
                    "</caption>\n" +
                    row({"##", "task", "op", "resource", "when", "at"}, true);
  for (const TraceStep &S : D.Trace)
    Out += row({"#" + std::to_string(++Number), esc(S.Task), esc(S.Op),
                esc(S.Resource), esc(S.When), esc(S.Loc ? Where(S.Loc) : "")});
  return Out + "</table>\n";
}

/// The line a finding is at, as the source has it.
std::string excerpt(const SourceLines &Lines, SourceHandle H) {
  std::string Line = Lines && H ? Lines(H) : "";
  return Line.empty() ? "" : tag("pre", "excerpt", esc(Line)) + "\n";
}

std::string findingItem(const Diag &D, const char *Level, const Locator &Where,
                        const SourceLines &Lines, bool Marked) {
  std::string Out = "<li class=\"finding " + std::string(Level) + "\">\n<p>" +
                    tag("span", std::string("level ") + Level, Level) + " " +
                    code(std::string("-W") + checkFlag(D.Group)) + " " +
                    located(Where, D.Loc) + "</p>\n" +
                    tag("p", "message", esc(D.Message)) + "\n" +
                    excerpt(Lines, D.Loc);
  if (!D.Notes.empty()) {
    Out += "<ul class=\"notes\">\n";
    for (const DiagNote &N : D.Notes)
      Out += "<li>" + located(Where, N.Loc) +
             tag("span", "note-text", esc(N.Message)) + "</li>\n";
    Out += "</ul>\n";
  }
  if (!D.Trace.empty())
    Out += traceTable(D, Where, Marked);
  return Out + "</li>\n";
}

//===-- Shared memory -----------------------------------------------------===//

const char *segmentClass(SmemSegment::Kind K) {
  switch (K) {
  case SmemSegment::Stage:
    return "seg stage";
  case SmemSegment::StagePadding:
    return "seg stage-padding";
  case SmemSegment::AlignPadding:
    return "seg align-padding";
  case SmemSegment::Barriers:
    return "seg barriers";
  case SmemSegment::LaunchSlack:
    return "seg launch-slack";
  case SmemSegment::Free:
    return "seg free";
  case SmemSegment::Overflow:
    return "seg overflow";
  }
  return "seg";
}

constexpr int BarRowH = 30;

std::string smemSvg(const Kernel &K, const SmemBar &Bar) {
  int Height = int(Bar.Rows) * BarRowH + 22;
  Svg Out(0, unsigned(Height), "smem-bar",
          "shared memory layout of kernel " + K.Name);
  unsigned Parity = 0;
  for (const SmemSegment &S : Bar.Segments) {
    std::string Class = segmentClass(S.K);
    if (S.K == SmemSegment::Stage && Parity++ % 2)
      Class += " alt";
    std::string X = percent(S.Offset, Bar.Scale) + "%";
    std::string W = percent(S.Bytes, Bar.Scale) + "%";
    std::string Title = S.Label + ": " + bytes(S.Bytes) + " at " +
                        std::to_string(S.Offset) + " (" +
                        percent(S.Bytes, Bar.Scale, 2) + "%)";
    int Y = int(S.Row) * BarRowH;
    Out.open("segment", Title);
    Out.rectPct(X, Y, W, BarRowH - 4, Class);
    // A label only where it fits: about 7 px a character at 1100 px.
    if (S.Bytes * 1100 / Bar.Scale > 7 * S.Label.size() + 10)
      Out.textPct(percent(2 * S.Offset + S.Bytes, 2 * Bar.Scale) + "%", Y + 17,
                  S.Label, "seg-label", "middle");
    Out.close();
  }
  int Axis = int(Bar.Rows) * BarRowH + 14;
  Out.textPct("0%", Axis, "0", "axis");
  Out.textPct("100%", Axis, bytes(Bar.Scale), "axis", "end");
  return Out.str();
}

std::string smemTable(const Program &P, const Kernel &K, const KernelPlan &Plan,
                      const SmemBar &Bar) {
  const BlockLayout &L = Plan.Layout;
  uint64_t Cap = Plan.SmemCapacity;
  std::string Out = "<table class=\"data smem\">\n" +
                    row({"resource", "kind", "#stages", "#stage B", "#align",
                         "#offset", "#end", "#bytes", "#of capacity"},
                        true);
  for (const ResourceLayout &RL : L.Resources) {
    const Resource &R = P.Resources[RL.Resource];
    uint64_t Size = RL.RegionBytes;
    Out += row(
        {code(R.Name), esc(pipelineKindName(R.Kind)),
         "#" + std::to_string(R.Stages), "#" + std::to_string(RL.StageStride),
         "#" + std::to_string(RL.Align), "#" + std::to_string(RL.DataOffset),
         "#" + std::to_string(RL.DataOffset + Size), "#" + std::to_string(Size),
         "#" + percent(Size, Cap, 2) + "%"});
  }
  std::string Barrier = "#" + std::to_string(Plan.Tgt->BarrierBytes);
  Out += row({"barriers", "mbarrier", "", Barrier, Barrier,
              "#" + std::to_string(L.BarrierOffset),
              "#" + std::to_string(L.TotalBytes),
              "#" + std::to_string(L.BarrierBytes),
              "#" + percent(L.BarrierBytes, Cap, 2) + "%"});
  Out += "</table>\n";
  std::string Summary = "data " + bytes(L.DataBytes) + " + barriers " +
                        bytes(L.BarrierBytes) + " = " + bytes(L.TotalBytes) +
                        " (launch size " + bytes(L.DynamicBytes) +
                        ") / capacity " + bytes(Cap) + ": " +
                        percent(L.DynamicBytes, Cap, 2) + "% used";
  if (L.AliasSavedBytes)
    Summary += "; aliasing saves " + bytes(L.AliasSavedBytes);
  if (Bar.Rows > 1)
    Summary += "; aliased resources share bytes (one row each)";
  return Out + tag("p", "facts smem-total", esc(Summary)) + "\n";
}

/// The ts::tmem resources' columns, next to shared memory ("" without).
std::string tmemSection(const Program &P, const KernelPlan &Plan) {
  const TmemPlan &TP = Plan.Tmem;
  if (TP.Regions.empty())
    return "";
  std::string Out =
      "<h3>Tensor memory</h3>\n<table class=\"data tmem\">\n" +
      row({"resource", "#columns", "#first", "#end", "#of capacity"}, true);
  for (const TmemRegion &TR : TP.Regions)
    Out +=
        row({code(P.Resources[TR.Resource].Name),
             "#" + std::to_string(TR.Columns), "#" + std::to_string(TR.Column),
             "#" + std::to_string(TR.Column + TR.Columns),
             "#" + percent(TR.Columns, TP.Capacity, 2) + "%"});
  std::string Summary =
      "used " + std::to_string(TP.Used) + " columns, allocated " +
      std::to_string(TP.Alloc) + " / capacity " + std::to_string(TP.Capacity) +
      " (128 lanes x 32 bits each; warp " + std::to_string(TP.Warp) +
      " allocates before the block's first barrier and frees after its last)";
  return Out + "</table>\n" + tag("p", "facts tmem-total", esc(Summary)) + "\n";
}

std::string smemSection(const Program &P, const Kernel &K,
                        const KernelPlan &Plan) {
  SmemBar Bar = smemBar(P, K, Plan);
  std::string Legend =
      "<p class=\"legend\">" + swatch("seg stage", "stage payload") +
      swatch("seg stage-padding", "stage padding") +
      swatch("seg align-padding", "alignment gap") +
      swatch("seg barriers", "mbarriers") +
      swatch("seg launch-slack", "launch slack (base alignment)") +
      swatch("seg free", "free") + swatch("seg overflow", "over capacity") +
      "</p>\n";
  return "<h3>Shared memory</h3>\n<figure class=\"smem\">\n" + smemSvg(K, Bar) +
         "</figure>\n" + Legend + smemTable(P, K, Plan, Bar) +
         tmemSection(P, Plan);
}

//===-- Registers ---------------------------------------------------------===//

std::string taskNames(const std::vector<const Task *> &Tasks) {
  std::string S;
  for (const Task *T : Tasks)
    S += (S.empty() ? "" : ", ") +
         (T->Padding ? std::string("(padding)") : T->Name);
  return S.empty() ? "-" : S;
}

std::string budgetText(const RegisterGroupUse &G) {
  std::vector<unsigned> Values = G.PerWarp;
  std::sort(Values.begin(), Values.end());
  Values.erase(std::unique(Values.begin(), Values.end()), Values.end());
  std::string S;
  for (unsigned V : Values)
    S += (S.empty() ? "" : " / ") + std::to_string(V);
  return G.Budgeted ? "setmaxnreg " + S : "baseline " + S;
}

std::string registerSection(const Program &P, const Kernel &K,
                            const KernelPlan &Plan) {
  RegisterUse U = registerUse(P, K, Plan);
  uint64_t Scale = std::max<uint64_t>({U.File, U.Total, 1});
  Svg Out(0, 50, "reg-bar", "register budget of kernel " + K.Name);
  uint64_t At = 0;
  for (const RegisterGroupUse &G : U.Groups) {
    std::string Class = G.Budgeted ? (G.Index % 2 ? "seg regs alt" : "seg regs")
                                   : "seg regs baseline";
    std::string Label = "group " + std::to_string(G.Index);
    Out.open("segment", Label + " (warps " + std::to_string(G.FirstWarp) + "-" +
                            std::to_string(G.EndWarp - 1) + ", " +
                            budgetText(G) +
                            "): " + std::to_string(G.Registers) + " registers");
    Out.rectPct(percent(At, Scale) + "%", 0, percent(G.Registers, Scale) + "%",
                26, Class);
    if (G.Registers * 1100 / Scale > 7 * Label.size() + 10)
      Out.textPct(percent(2 * At + G.Registers, 2 * Scale) + "%", 17, Label,
                  "seg-label", "middle");
    Out.close();
    At += G.Registers;
  }
  if (At < Scale)
    Out.rectPct(percent(At, Scale) + "%", 0, percent(Scale - At, Scale) + "%",
                26, "seg free",
                "unused: " + std::to_string(Scale - At) + " registers");
  Out.textPct("0%", 42, "0", "axis");
  Out.textPct("100%", 42, std::to_string(Scale) + " registers", "axis", "end");

  std::string Table = "<table class=\"data regs\">\n" +
                      row({"warp group", "warps", "tasks",
                           "budget (regs/thread)", "#registers", "#of file"},
                          true);
  for (const RegisterGroupUse &G : U.Groups)
    Table += row({"#" + std::to_string(G.Index),
                  esc("[" + std::to_string(G.FirstWarp) + ", " +
                      std::to_string(G.EndWarp) + ")"),
                  esc(taskNames(G.Tasks)), esc(budgetText(G)),
                  "#" + std::to_string(G.Registers),
                  "#" + percent(G.Registers, U.File, 2) + "%"});
  Table += "</table>\n";
  std::string Summary = "total " + std::to_string(U.Total) + " of " +
                        std::to_string(U.File) + " registers (" +
                        percent(U.Total, U.File, 2) + "%); launch baseline " +
                        std::to_string(U.Baseline) + " registers/thread";
  return "<h3>Registers</h3>\n<figure class=\"regs\">\n" + Out.str() +
         "</figure>\n" + Table + tag("p", "facts reg-total", esc(Summary)) +
         "\n";
}

//===-- Graph and schedule ------------------------------------------------===//

std::string graphSection(const Program &P, const Kernel &K,
                         const std::string &Id) {
  return "<h3>Task/resource graph</h3>\n<div class=\"scroll\">\n" +
         graphSvg(P, K, Id) +
         "</div>\n<p class=\"legend\">tasks (blue) point at what they produce, "
         "resources at the tasks consuming them; purple arcs: derived "
         "consumed &rarr; produced edges; dashed: declared "
         "<code>ts::edge</code>.</p>\n";
}

std::string opsTable(const Program &P, const Kernel &K) {
  std::string Out = "<table class=\"data program\">\n" +
                    row({"task", "head", "loop", "tail"}, true);
  for (unsigned TI : K.Tasks) {
    const Task &T = P.Tasks[TI];
    std::string Cells[3];
    for (const Op &O : T.Ops) {
      // Ops of a domain loop nested in the task's loop run inside it.
      bool Nested = O.Sec != Section::Head && O.Sec != Section::Loop &&
                    O.Sec != Section::Tail;
      std::string Item =
          std::string(Nested ? "inner " : "") + shortOpName(O.Kind);
      if (O.onResource())
        Item += " " + P.Resources[O.Resource].Name;
      if (O.G != Guard::Always)
        Item += std::string(" [") + guardName(O.G) + "]";
      std::string &C = Cells[O.Sec == Section::Head   ? 0
                             : O.Sec == Section::Tail ? 2
                                                      : 1];
      C += (C.empty() ? "" : ", ") + esc(Item);
    }
    std::string Name = T.Name;
    if (T.Dom.Present)
      Name += " domain(" + T.Dom.StartText + ", " + T.Dom.EndText + ", " +
              T.Dom.StepText + ")";
    Out += row({esc(Name), Cells[0], Cells[1], Cells[2]});
  }
  return Out + "</table>\n";
}

std::string scheduleSection(const Program &P, const Kernel &K,
                            const KernelPlan &Plan, const VerifyResult &V,
                            const std::vector<TraceMark> &Marks) {
  std::string Out = "<h3>Schedule</h3>\n";
  if (V.Sim.Steps.empty()) {
    Out += tag("p", "facts",
               "the credit simulation did not run (" + esc(V.Coverage) + ")") +
           "\n";
    return Out + opsTable(P, K);
  }
  unsigned Steps = V.Sim.Steps.back().Step + 1;
  std::string Caption =
      "credit simulation at trip count " + std::to_string(V.Sim.Trips) + ", " +
      std::to_string(Steps) + " steps" +
      (V.Sim.Deadlocked ? "; deadlock at step " + std::to_string(Steps - 1)
                        : std::string());
  Out += tag("p", "facts", esc(Caption)) + "\n<div class=\"scroll\">\n" +
         timelineSvg(V.simProgram(P), K, Plan, V.Sim, Marks) + "</div>\n";
  Out += "<p class=\"legend\">" + swatch("op-acquire", "acquire") +
         swatch("op-commit", "commit") + swatch("op-wait", "wait") +
         swatch("op-release", "release") + swatch("op-work", "work") +
         swatch("op-mma", "wgmma group") + swatch("op-pdl", "PDL") +
         "dashed outline: guarded op; #i iteration; H head, T tail, LF/LL "
         "first/last iteration only, L&gt;/L&lt; all but the first/last. "
         "Stages: " +
         swatch("stage-filling", "filling") + swatch("stage-full", "full") +
         swatch("stage-draining", "draining") + "</p>\n";
  return Out + opsTable(P, K);
}

//===-- The page ----------------------------------------------------------===//

std::string kernelSection(const Program &P, const HtmlKernel &HK,
                          unsigned Index, const Locator &Where,
                          const LevelOf &Level, const SourceLines &Lines) {
  const Kernel &K = *HK.K;
  const KernelPlan &Plan = *HK.Plan;
  const VerifyResult &V = *HK.Verify;
  Verdict Vd = verdictOf(V, Level);
  std::string Id = "kernel-" + std::to_string(Index);
  std::string Out =
      "<section class=\"kernel\" id=\"" + Id + "\">\n<h2>kernel " +
      code(K.Name) +
      (Vd.Errors       ? "<span class=\"verdict failed\">FAILED</span>"
       : V.ProtocolRun ? "<span class=\"verdict passed\">PASSED</span>"
                       : "<span class=\"verdict failed\">NOT VERIFIED</span>") +
      "</h2>\n";
  std::string Facts =
      std::to_string(Plan.Warps) + " warps, " + std::to_string(Plan.Threads) +
      " threads, " + bytes(Plan.Layout.DynamicBytes) +
      " dynamic shared memory, baseline " + std::to_string(Plan.BaselineRegs) +
      " registers/thread" +
      (Plan.ClusterCtas > 1
           ? ", clusters of " + std::to_string(Plan.ClusterCtas) +
                 " CTAs (per CTA)"
           : std::string()) +
      "; " + std::to_string(Vd.Errors) + " error(s), " +
      std::to_string(Vd.Warnings) + " warning(s)";
  Out += tag("p", "facts", esc(Facts)) + "\n" +
         tag("p", "facts protocol", "protocol: " + esc(V.Coverage)) + "\n";
  std::vector<TraceMark> Marks;
  if (!Vd.Shown.empty()) {
    Out += "<h3>Findings</h3>\n<ol class=\"findings\">\n";
    for (size_t I = 0; I < Vd.Shown.size(); ++I) {
      std::vector<TraceMark> M =
          traceMarks(V.simProgram(P), V.Sim, *Vd.Shown[I], I + 1);
      Out += findingItem(*Vd.Shown[I], Level(*Vd.Shown[I]), Where, Lines,
                         !M.empty());
      Marks.insert(Marks.end(), M.begin(), M.end());
    }
    Out += "</ol>\n";
  }
  Out += graphSection(P, K, Id) + scheduleSection(P, K, Plan, V, Marks) +
         smemSection(P, K, Plan) + registerSection(P, K, Plan);
  return Out + "</section>\n";
}

std::string navigation(const std::vector<HtmlKernel> &Kernels,
                       const LevelOf &Level) {
  std::string Out = "<nav><ul>\n";
  for (size_t I = 0; I < Kernels.size(); ++I) {
    Verdict Vd = verdictOf(*Kernels[I].Verify, Level);
    Out += "<li><a href=\"#kernel-" + std::to_string(I) + "\">" +
           code(Kernels[I].K->Name) + "</a> " +
           (Vd.Errors                        ? "FAILED"
            : Kernels[I].Verify->ProtocolRun ? "PASSED"
                                             : "NOT VERIFIED") +
           "</li>\n";
  }
  return Out + "</ul></nav>\n";
}

} // namespace

std::string htmlReport(const std::string &Title, const Program &P,
                       const std::vector<HtmlKernel> &Kernels,
                       const Locator &Where, const LevelOf &Level,
                       const SourceLines &Lines) {
  std::string Out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
      "<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"libts\">\n<title>libts: " +
      esc(Title) + "</title>\n<style>" + Style +
      "</style>\n</head>\n<body>\n<h1>libts report: " + code(Title) + "</h1>\n";
  if (Kernels.empty())
    Out += "<p class=\"facts\">no <code>[[ts::kernel]]</code> in this "
           "translation unit</p>\n";
  else
    Out += navigation(Kernels, Level);
  for (size_t I = 0; I < Kernels.size(); ++I)
    Out += kernelSection(P, Kernels[I], I, Where, Level, Lines);
  return Out + "</body>\n</html>\n";
}

//===-- Geometry ----------------------------------------------------------===//

SmemBar smemBar(const Program &P, const Kernel &K, const KernelPlan &Plan) {
  const BlockLayout &L = Plan.Layout;
  SmemBar Bar;
  Bar.Scale = std::max<uint64_t>({Plan.SmemCapacity, L.DynamicBytes, 1});
  auto Add = [&](SmemSegment::Kind Kd, std::string Label, uint64_t Off,
                 uint64_t Bytes, unsigned Row) {
    if (Bytes)
      Bar.Segments.push_back({Kd, std::move(Label), Off, Bytes, Row});
  };
  // Data blocks by offset; an alias phase overlapping an earlier block
  // takes the first row where it does not.
  std::vector<const ResourceLayout *> ByOffset;
  for (const ResourceLayout &RL : L.Resources)
    ByOffset.push_back(&RL);
  std::stable_sort(ByOffset.begin(), ByOffset.end(),
                   [](const ResourceLayout *A, const ResourceLayout *B) {
                     return A->DataOffset < B->DataOffset;
                   });
  std::vector<uint64_t> RowEnd;
  uint64_t End = 0;
  for (const ResourceLayout *RL : ByOffset) {
    const Resource &R = P.Resources[RL->Resource];
    unsigned Row = 0;
    while (Row < RowEnd.size() && RowEnd[Row] > RL->DataOffset)
      ++Row;
    if (Row == RowEnd.size())
      RowEnd.push_back(0);
    if (RL->DataOffset > End)
      Add(SmemSegment::AlignPadding, "alignment", End, RL->DataOffset - End, 0);
    uint64_t Payload = std::min(R.PayloadBytes, RL->StageStride);
    for (unsigned S = 0; S < R.Stages; ++S) {
      uint64_t At = RL->DataOffset + S * RL->StageStride;
      std::string Label =
          R.Stages > 1 ? R.Name + " #" + std::to_string(S) : R.Name;
      Add(SmemSegment::Stage, Label, At, Payload, Row);
      Add(SmemSegment::StagePadding, Label + " padding", At + Payload,
          RL->StageStride - Payload, Row);
    }
    RowEnd[Row] = RL->DataOffset + RL->RegionBytes;
    End = std::max(End, RowEnd[Row]);
  }
  Add(SmemSegment::AlignPadding, "alignment", End,
      L.BarrierOffset > End ? L.BarrierOffset - End : 0, 0);
  for (const ResourceLayout &RL : L.Resources) {
    if (!Plan.pipeline(RL.Resource))
      continue;
    const std::string &Name = P.Resources[RL.Resource].Name;
    uint64_t Each = RL.EmptyBarOffset - RL.FullBarOffset;
    Add(SmemSegment::Barriers, Name + ".full", RL.FullBarOffset, Each, 0);
    Add(SmemSegment::Barriers, Name + ".empty", RL.EmptyBarOffset, Each, 0);
  }
  if (Plan.Tmem.Alloc)
    Add(SmemSegment::Barriers, "tensor-memory address", Plan.Tmem.SlotOffset,
        16, 0);
  Add(SmemSegment::LaunchSlack, "launch slack", L.TotalBytes,
      L.DynamicBytes - L.TotalBytes, 0);
  if (Plan.SmemCapacity > L.DynamicBytes)
    Add(SmemSegment::Free, "free", L.DynamicBytes,
        Plan.SmemCapacity - L.DynamicBytes, 0);
  Bar.Rows = std::max<unsigned>(1, RowEnd.size());
  // What exceeds the capacity gets a row of its own under the layout.
  if (L.DynamicBytes > Plan.SmemCapacity)
    Add(SmemSegment::Overflow, "over capacity", Plan.SmemCapacity,
        L.DynamicBytes - Plan.SmemCapacity, Bar.Rows++);
  std::stable_sort(Bar.Segments.begin(), Bar.Segments.end(),
                   [](const SmemSegment &A, const SmemSegment &B) {
                     return A.Row != B.Row ? A.Row < B.Row
                                           : A.Offset < B.Offset;
                   });
  return Bar;
}

RegisterUse registerUse(const Program &P, const Kernel &K,
                        const KernelPlan &Plan) {
  const Target &T = *Plan.Tgt;
  RegisterUse U;
  U.File = T.RegisterFile;
  U.Baseline = Plan.BaselineRegs;
  unsigned G = T.WarpGroupWarps;
  // The block's warps by group, as the ts-registers check sums them: the
  // last group holds the warps the block has.
  unsigned Warps = std::max(Plan.Warps, 1u);
  for (unsigned First = 0; First < Warps; First += G) {
    RegisterGroupUse R;
    R.Index = First / G;
    R.FirstWarp = First;
    R.EndWarp = std::min(First + G, Warps);
    for (const Task *Tk : Plan.tasks(P, K))
      if (Tk->endWarp() > First && Tk->FirstWarp < R.EndWarp)
        R.Tasks.push_back(Tk);
    for (unsigned W = First; W < R.EndWarp; ++W) {
      R.PerWarp.push_back(Plan.warpRegs(W));
      R.Budgeted |=
          W < Plan.WarpBudget.size() && Plan.WarpBudget[W].has_value();
    }
    for (unsigned Regs : R.PerWarp)
      R.Registers += uint64_t(T.WarpThreads) * Regs;
    U.Total += R.Registers;
    U.Groups.push_back(std::move(R));
  }
  return U;
}

} // namespace ts
