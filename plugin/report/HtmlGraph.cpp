//===- HtmlGraph.cpp - The task/resource graph as SVG ---------------------===//
//
// Tasks and resources are nodes; a task points at what it produces and a
// resource at the tasks consuming it. Columns follow the data flow (longest
// path from the sources, cycles broken where a depth-first search closes
// them), so a pipeline reads left to right as in the -dot output's
// consumed -> produced edges, which are drawn as arcs above the nodes
// (declared ts::edge arcs dashed).
//
//===----------------------------------------------------------------------===//
#include "report/HtmlParts.h"
#include "report/Svg.h"

#include <algorithm>

namespace ts {
namespace {

constexpr int NodeW = 156, NodeH = 46, ColGap = 72, RowGap = 30;
constexpr int Margin = 16, ArcRise = 44;
/// Columns per band: a wider graph wraps onto further bands rather than
/// run off the page (5 columns fit the page's 1100-pixel content width).
constexpr unsigned BandCols = 5;

struct GraphEdge {
  unsigned From, To;
  const char *Class; ///< "produce", "consume", "use".
};

struct Graph {
  std::vector<unsigned> Tasks;     ///< Nodes 0..: program task indices.
  std::vector<unsigned> Resources; ///< Nodes Tasks.size()..: resources.
  std::vector<GraphEdge> Edges;
  std::vector<unsigned> Rank, Row;
  int Top = Margin; ///< Room for arcs above the nodes where there are some.
  int Left = Margin;
  unsigned Cols = ~0u; ///< Ranks per band.
  int BandH = 0;       ///< From one band's top to the next's.
  int RowsH = 0;       ///< The nodes of one band.

  unsigned size() const { return Tasks.size() + Resources.size(); }
  unsigned resourceNode(unsigned R) const {
    auto It = std::find(Resources.begin(), Resources.end(), R);
    return Tasks.size() + unsigned(It - Resources.begin());
  }
  unsigned band(unsigned N) const { return Rank[N] / Cols; }
  int x(unsigned N) const {
    return Left + int(Rank[N] % Cols) * (NodeW + ColGap);
  }
  int y(unsigned N) const {
    return Top + int(band(N)) * BandH + int(Row[N]) * (NodeH + RowGap);
  }
};

bool contains(const std::vector<unsigned> &V, unsigned X) {
  return std::find(V.begin(), V.end(), X) != V.end();
}

Graph buildGraph(const Program &P, const Kernel &K) {
  Graph G;
  G.Tasks = K.Tasks;
  G.Resources = kernelResources(P, K);
  for (unsigned N = 0; N < G.Tasks.size(); ++N) {
    const Task &T = P.Tasks[G.Tasks[N]];
    for (unsigned R : T.Produces)
      G.Edges.push_back({N, G.resourceNode(R), "produce"});
    for (unsigned R : T.Consumes)
      G.Edges.push_back({G.resourceNode(R), N, "consume"});
    // Memory a task holds without a role in a pipeline (task-owned
    // buffers): an undirected use.
    for (const TaskParam &Param : T.Params)
      if (Param.K != TaskParam::Kind::Value && !T.produces(Param.Resource) &&
          !T.consumes(Param.Resource) && contains(G.Resources, Param.Resource))
        G.Edges.push_back({N, G.resourceNode(Param.Resource), "use"});
  }
  return G;
}

/// Longest-path ranks over the edges a depth-first search keeps (those
/// closing a cycle are dropped), so every kept edge points rightwards.
void rankNodes(Graph &G) {
  unsigned N = G.size();
  std::vector<std::vector<unsigned>> Out(N);
  std::vector<unsigned> InDegree(N, 0);
  for (const GraphEdge &E : G.Edges) {
    Out[E.From].push_back(E.To);
    ++InDegree[E.To];
  }
  enum State { New, Open, Done };
  std::vector<State> St(N, New);
  std::vector<unsigned> Post;
  std::vector<std::vector<bool>> Kept(N);
  for (unsigned U = 0; U < N; ++U)
    Kept[U].assign(Out[U].size(), false);
  // Iterative DFS: a kernel's graph is small, but recursion depth should
  // not depend on user input.
  auto Visit = [&](unsigned Root) {
    std::vector<std::pair<unsigned, size_t>> Stack{{Root, 0}};
    St[Root] = Open;
    while (!Stack.empty()) {
      auto &[U, I] = Stack.back();
      if (I == Out[U].size()) {
        St[U] = Done;
        Post.push_back(U);
        Stack.pop_back();
        continue;
      }
      unsigned V = Out[U][I];
      Kept[U][I] = St[V] != Open;
      ++I;
      if (St[V] == New) {
        St[V] = Open;
        Stack.push_back({V, 0});
      }
    }
  };
  for (bool Sources : {true, false})
    for (unsigned U = 0; U < N; ++U)
      if (St[U] == New && (!Sources || InDegree[U] == 0))
        Visit(U);
  G.Rank.assign(N, 0);
  for (auto It = Post.rbegin(); It != Post.rend(); ++It)
    for (size_t I = 0; I < Out[*It].size(); ++I)
      if (Kept[*It][I])
        G.Rank[Out[*It][I]] = std::max(G.Rank[Out[*It][I]], G.Rank[*It] + 1);
  G.Row.assign(N, 0);
  std::vector<unsigned> Used;
  for (unsigned U = 0; U < N; ++U) {
    if (G.Rank[U] >= Used.size())
      Used.resize(G.Rank[U] + 1, 0);
    G.Row[U] = Used[G.Rank[U]]++;
  }
}

std::string taskFacts(const Task &T) {
  std::string S = "warps [" + std::to_string(T.FirstWarp) + ", " +
                  std::to_string(T.endWarp()) + ")";
  if (T.Regs)
    S += " regs " + std::to_string(*T.Regs);
  return S;
}

std::string resourceFacts(const Resource &R) {
  std::string S = pipelineKindName(R.Kind);
  if (isPipelined(R.Kind))
    S += " x" + std::to_string(R.Stages);
  return S;
}

void drawNode(Svg &Out, const Graph &G, const Program &P, unsigned N) {
  bool IsTask = N < G.Tasks.size();
  std::string Name, Facts, Class;
  if (IsTask) {
    const Task &T = P.Tasks[G.Tasks[N]];
    Name = T.Name;
    Facts = taskFacts(T);
    Class = "node task";
  } else {
    const Resource &R = P.Resources[G.Resources[N - G.Tasks.size()]];
    Name = R.Name;
    Facts = resourceFacts(R);
    Class = std::string("node resource kind-") + pipelineKindName(R.Kind);
  }
  int X = G.x(N), Y = G.y(N);
  Out.open(Class, (IsTask ? "task " : "resource ") + Name + ": " + Facts);
  Out.rect(X, Y, NodeW, NodeH, "box");
  Out.text(X + NodeW / 2, Y + 19, clip(Name, 22), "name", "middle");
  Out.text(X + NodeW / 2, Y + 36, clip(Facts, 26), "facts", "middle");
  Out.close();
}

std::string forwardPath(const Graph &G, unsigned U, unsigned V) {
  int X1 = G.x(U) + NodeW, Y1 = G.y(U) + NodeH / 2;
  int X2 = G.x(V), Y2 = G.y(V) + NodeH / 2, Mid = (X1 + X2) / 2;
  return "M " + std::to_string(X1) + " " + std::to_string(Y1) + " C " +
         std::to_string(Mid) + " " + std::to_string(Y1) + " " +
         std::to_string(Mid) + " " + std::to_string(Y2) + " " +
         std::to_string(X2) + " " + std::to_string(Y2);
}

/// A forward edge into a later band: right of its source, down into the
/// gap below the source's band, back to the left edge, and into the target.
std::string wrapPath(const Graph &G, unsigned U, unsigned V) {
  int X1 = G.x(U) + NodeW, Y1 = G.y(U) + NodeH / 2;
  int X2 = G.x(V), Y2 = G.y(V) + NodeH / 2;
  int Right = X1 + ColGap / 2, LeftX = X2 - ColGap / 2;
  int Gap =
      G.Top + int(G.band(U)) * G.BandH + G.RowsH + (G.BandH - G.RowsH) / 2;
  auto P = [](int X, int Y) {
    return std::to_string(X) + " " + std::to_string(Y);
  };
  return "M " + P(X1, Y1) + " L " + P(Right, Y1) + " L " + P(Right, Gap) +
         " L " + P(LeftX, Gap) + " L " + P(LeftX, Y2) + " L " + P(X2, Y2);
}

/// An edge that closes a cycle (or joins one column) runs below the nodes;
/// resource-to-resource arcs run above them (Rise < 0).
std::string arcPath(const Graph &G, unsigned U, unsigned V, int Rise) {
  int Edge = Rise < 0 ? 0 : NodeH;
  int X1 = G.x(U) + NodeW / 2, Y1 = G.y(U) + Edge;
  int X2 = G.x(V) + NodeW / 2 + (U == V ? 12 : 0), Y2 = G.y(V) + Edge;
  return "M " + std::to_string(X1) + " " + std::to_string(Y1) + " C " +
         std::to_string(X1) + " " + std::to_string(Y1 + Rise) + " " +
         std::to_string(X2) + " " + std::to_string(Y2 + Rise) + " " +
         std::to_string(X2) + " " + std::to_string(Y2);
}

} // namespace

std::string graphSvg(const Program &P, const Kernel &K, const std::string &Id) {
  Graph G = buildGraph(P, K);
  rankNodes(G);
  unsigned Ranks = 1, Rows = 1;
  for (unsigned N = 0; N < G.size(); ++N) {
    Ranks = std::max(Ranks, G.Rank[N] + 1);
    Rows = std::max(Rows, G.Row[N] + 1);
  }
  bool Below =
      std::any_of(G.Edges.begin(), G.Edges.end(), [&](const GraphEdge &E) {
        return G.Rank[E.From] >= G.Rank[E.To];
      });
  bool Above = !deriveEdges(P, K).empty() || !K.DeclaredEdges.empty();
  if (Above)
    G.Top = Margin + ArcRise;
  G.RowsH = int(Rows) * (NodeH + RowGap) - RowGap;
  unsigned Bands = 1;
  if (Ranks > BandCols) {
    G.Cols = BandCols;
    G.Left = ColGap / 2 + 4; // room for the wrapping edges' turns
    Bands = (Ranks + BandCols - 1) / BandCols;
    G.BandH =
        G.RowsH + (Below ? ArcRise : 0) + (Above ? ArcRise : 0) + 2 * Margin;
  }
  unsigned Cols = std::min(Ranks, G.Cols);
  int Width = 2 * G.Left + int(Cols) * (NodeW + ColGap) - ColGap;
  int Height = G.Top + int(Bands - 1) * G.BandH + G.RowsH +
               (Below ? ArcRise + Margin : Margin);
  Svg Out(unsigned(Width), unsigned(Height), "graph",
          "task/resource graph of kernel " + K.Name);
  Out.arrowMarker(Id + "-arrow", "arrowhead");
  Out.arrowMarker(Id + "-arrow-derived", "arrowhead derived");
  for (const GraphEdge &E : G.Edges) {
    bool Forward = G.Rank[E.From] < G.Rank[E.To];
    std::string D = !Forward ? arcPath(G, E.From, E.To, ArcRise)
                    : G.band(E.From) == G.band(E.To)
                        ? forwardPath(G, E.From, E.To)
                        : wrapPath(G, E.From, E.To);
    bool Arrow = std::string(E.Class) != "use";
    Out.path(D, std::string("edge ") + E.Class, Arrow ? Id + "-arrow" : "");
  }
  auto Arcs = [&](const std::vector<Edge> &Es, const char *Class, int Rise) {
    for (const Edge &E : Es)
      if (contains(G.Resources, E.From) && contains(G.Resources, E.To))
        Out.path(arcPath(G, G.resourceNode(E.From), G.resourceNode(E.To), Rise),
                 Class, Id + "-arrow-derived");
  };
  Arcs(deriveEdges(P, K), "edge derived", -ArcRise + 8);
  Arcs(K.DeclaredEdges, "edge declared", -ArcRise - 4);
  for (unsigned N = 0; N < G.size(); ++N)
    drawNode(Out, G, P, N);
  return Out.str();
}

} // namespace ts
