//===- Lower.cpp - Generated CUDA source for a kernel ---------------------===//
//
// The generated body is what a careful author would write by hand: barrier
// init by one thread, fences, a block barrier, one setmaxnreg per warp
// group, then one branch per warp range calling the force-inlined task.
//
//===----------------------------------------------------------------------===//
#include "lower/Lower.h"

#include <algorithm>
#include <sstream>

namespace ts {

/// "namespace a { inline namespace b {" (no trailing space).
static std::string openScopes(const std::vector<std::string> &Scopes) {
  std::string S;
  for (const std::string &Sc : Scopes)
    S += (S.empty() ? "" : " ") + Sc + " {";
  return S;
}

/// "} }" (no trailing space).
static std::string closeScopes(const std::vector<std::string> &Scopes) {
  std::string S;
  for (size_t I = 0; I < Scopes.size(); ++I)
    S += I ? " }" : "}";
  return S;
}

static const char *kindSpelling(PipelineKind K) {
  switch (K) {
  case PipelineKind::Gmem:
    return "::ts::pipeline_kind::gmem";
  case PipelineKind::AsyncAsync:
    return "::ts::pipeline_kind::async_async";
  case PipelineKind::TmaAsync:
    return "::ts::pipeline_kind::tma_async";
  case PipelineKind::TaskOwned:
    return "::ts::pipeline_kind::task_owned";
  case PipelineKind::Turns:
    return "::ts::pipeline_kind::turns";
  case PipelineKind::TmaUmma:
    return "::ts::pipeline_kind::tma_umma";
  case PipelineKind::UmmaAsync:
    return "::ts::pipeline_kind::umma_async";
  case PipelineKind::ClcAsync:
    return "::ts::pipeline_kind::clc_async";
  case PipelineKind::AsyncUmma:
    return "::ts::pipeline_kind::async_umma";
  case PipelineKind::UmmaUmma:
    return "::ts::pipeline_kind::umma_umma";
  }
  return "";
}

std::string kernelTraits(const KernelPlan &Plan, const KernelSource &KS) {
  std::ostringstream OS;
  OS << " " << closeScopes(KS.Scopes) << (KS.Scopes.empty() ? "" : " ")
     << "namespace ts { template <> struct kernel_traits<"
     << (KS.Address.empty() ? "&" + KS.QualifiedName : KS.Address)
     << "> { static constexpr unsigned smem_bytes = "
     << Plan.Layout.DynamicBytes
     << "u; static constexpr unsigned threads = " << Plan.Threads << "u;"
     << (Plan.Pdl ? " static constexpr bool pdl = true;" : "");
  if (Plan.ClusterCtas > 1)
    OS << " static constexpr unsigned cluster_x = " << Plan.Cluster[0]
       << "u, cluster_y = " << Plan.Cluster[1]
       << "u, cluster_z = " << Plan.Cluster[2] << "u;";
  OS << " }; }";
  if (!KS.Scopes.empty())
    OS << " " << openScopes(KS.Scopes);
  return OS.str();
}

namespace {

class BodyWriter {
public:
  BodyWriter(const Program &P, const KernelPlan &Plan, const KernelSource &KS,
             const std::vector<TaskSource> &Tasks, bool InScope)
      : P(P), Plan(Plan), L(Plan.Layout), KS(KS), Tasks(Tasks),
        InScope(InScope) {}

  std::string write() {
    unsigned Threads = Plan.Threads;
    if (!InScope)
      OS << openScopes(KS.Scopes) << (KS.Scopes.empty() ? "" : "\n");
    // Attribute spellings, not the CUDA headers' macros: preprocessed input
    // (-save-temps) has no macros left.
    OS << "__attribute__((global)) void __attribute__((launch_bounds("
       << Threads << ", 1))) " << KS.Name << "(" << KS.ParamsText << ")"
       << KS.Trailing << " {\n";
    targetGuard();
    prologue();
    branches();
    // No CTA leaves while a peer may still arrive on its barriers.
    if (Plan.ClusterCtas > 1)
      OS << "  ::ts::detail::cluster_sync();\n";
    freeTmem();
    OS << "}\n";
    if (!InScope && !KS.Scopes.empty())
      OS << closeScopes(KS.Scopes) << "\n";
    return OS.str();
  }

private:
  static std::string warpTest(unsigned First, unsigned End) {
    std::string Hi = "ts_warp < " + std::to_string(End) + "u";
    return First == 0 ? Hi
                      : "ts_warp >= " + std::to_string(First) + "u && " + Hi;
  }

  std::string barPtr(uint64_t Offset) {
    return "reinterpret_cast<::uint64_t *>(ts_smem + " +
           std::to_string(Offset) + ")";
  }

  /// A device compile for another architecture stops here, not in ptxas
  /// or, worse, at a trap at run time.
  void targetGuard() {
    if (Plan.Tgt != &targetSm100a())
      return;
    OS << "#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM100_ALL)\n"
       << "#error \"kernel '" << KS.Name
       << "' targets sm_100a: compile it with "
          "-gencode=arch=compute_100a,code=sm_100a\"\n"
       << "#endif\n";
  }

  std::string slotPtr() {
    return "reinterpret_cast<::uint32_t *>(ts_smem + " +
           std::to_string(Plan.Tmem.SlotOffset) + ")";
  }

  /// Every task has finished with the columns: the allocating warp frees
  /// them (a block must free its tensor memory before it exits).
  void freeTmem() {
    const TmemPlan &TP = Plan.Tmem;
    if (!TP.Alloc)
      return;
    if (Plan.ClusterCtas == 1)
      OS << "  __syncthreads();\n";
    OS << "  if (ts_warp == " << TP.Warp << "u) ::ts::detail::tmem_free<"
       << TP.Alloc << "u>(ts_tmem);\n";
  }

  void prologue() {
    if (L.Resources.empty() && !Plan.Tmem.Alloc) {
      OS << "  const unsigned ts_warp = ::ts::detail::warp_index();\n";
      return;
    }
    OS << "  extern __attribute__((shared)) __attribute__((aligned(16))) "
          "unsigned char "
          "ts_smem_raw[];\n"
       << "  unsigned char *const ts_smem = ::ts::detail::align_base<"
       << L.BaseAlign << ">(ts_smem_raw);\n"
       << "  const unsigned ts_warp = ::ts::detail::warp_index();\n";
    if (Plan.Pipelines.empty() && !Plan.Tmem.Alloc)
      return;
    initBarriers();
    // The columns are allocated before the first barrier, which publishes
    // their address to every warp.
    if (Plan.Tmem.Alloc)
      OS << "  if (ts_warp == " << Plan.Tmem.Warp
         << "u) ::ts::detail::tmem_alloc<" << Plan.Tmem.Alloc << "u>("
         << slotPtr() << ");\n";
    // Peers arrive on and multicast into this CTA's barriers: all of the
    // cluster's must be initialised before any CTA goes on.
    if (Plan.ClusterCtas > 1)
      OS << "  ::ts::detail::expect_cluster_ctas<" << Plan.ClusterCtas
         << "u>();\n"
         << "  ::ts::detail::cluster_sync();\n";
    else
      OS << "  __syncthreads();\n";
    if (Plan.Tmem.Alloc)
      OS << "  const ::uint32_t ts_tmem = ::ts::detail::tmem_base(" << slotPtr()
         << ");\n";
    pipes();
  }

  void initBarriers() {
    if (Plan.Pipelines.empty())
      return;
    OS << "  if (::threadIdx.x == 0) {\n";
    for (const ResourceLayout &R : L.Resources) {
      if (!R.Barriers)
        continue;
      const Resource &Res = P.Resources[R.Resource];
      const ArrivalCounts &C = Plan.pipeline(R.Resource)->Counts;
      unsigned S = Res.Stages;
      OS << "    ::ts::detail::init_barriers(" << barPtr(R.FullBarOffset)
         << ", " << S << "u, " << C.Full << "u); // " << Res.Name << ".full\n"
         << "    ::ts::detail::init_barriers(" << barPtr(R.EmptyBarOffset)
         << ", " << S << "u, " << C.Empty << "u); // " << Res.Name
         << ".empty\n";
    }
    OS << "    ::ts::detail::fence_barrier_init();\n"
       << "  }\n";
  }

  void pipes() {
    for (const ResourceLayout &R : L.Resources) {
      if (!R.Barriers)
        continue;
      const Resource &Res = P.Resources[R.Resource];
      OS << "  const ::ts::detail::pipe ts_pipe_" << R.Resource << "{ts_smem + "
         << R.DataOffset << ", " << R.StageStride << "u, " << Res.Stages
         << "u, " << barPtr(R.FullBarOffset) << ", " << barPtr(R.EmptyBarOffset)
         << ", " << Plan.pipeline(R.Resource)->armedBytes() << "u, "
         << kindSpelling(Res.Kind);
      const PipelinePlan &PP = *Plan.pipeline(R.Resource);
      const TmemRegion *TR = Plan.Tmem.find(R.Resource);
      if (PP.Peers > 1 || TR)
        OS << ", " << PP.Peers << "u, " << PP.McastMask << "u";
      if (TR) // stages in tensor memory
        OS << ", ts_tmem + " << TR->Column << "u, " << TR->Stride << "u";
      else if (PP.Pair)
        OS << ", 0u, 0u";
      if (PP.Pair) // the two CTAs of a pair, not a multicast cluster
        OS << ", true";
      OS << "}; // " << Res.Name << "\n";
    }
  }

  void branches() {
    // setmaxnreg sits at the top of each region's branch, so ptxas bounds
    // each task by its own budget only.
    unsigned Base = Plan.BaselineRegs;
    const std::vector<RegisterRegion> &Rs = Plan.Regions;
    // Without budgets the task branches stand alone.
    bool Flat =
        std::none_of(Rs.begin(), Rs.end(), [&](const RegisterRegion &R) {
          return R.Budget && *R.Budget != Base;
        });
    if (Flat) {
      bool First = true;
      for (const RegisterRegion &R : Rs)
        for (unsigned TI : R.Tasks) {
          task(TI, First ? "  if" : "  else if", "  ");
          First = false;
        }
      return;
    }
    bool First = true;
    for (const RegisterRegion &R : Rs) {
      bool Sets = R.Budget && *R.Budget != Base;
      if (!Sets && R.Tasks.empty())
        continue;
      OS << (First ? "  if" : "  else if") << " (" << warpTest(R.First, R.End)
         << ") { // warps [" << R.First << ", " << R.End << ")";
      if (R.Budget)
        OS << ": " << *R.Budget << " registers";
      OS << "\n";
      First = false;
      if (Sets)
        OS << "    ::ts::detail::setmaxnreg_"
           << (*R.Budget > Base ? "inc" : "dec") << "<" << *R.Budget
           << ">();\n";
      bool FirstTask = true;
      for (unsigned TI : R.Tasks) {
        const Task &T = P.Tasks[TI];
        bool Whole = T.FirstWarp == R.First && T.endWarp() == R.End;
        task(TI, Whole ? "" : FirstTask ? "    if" : "    else if", "    ");
        FirstTask = false;
      }
      OS << "  }\n";
    }
  }

  /// A pipeline handle of task TI: its cursor (and, with -debug-hangs, its
  /// site) declared before the call, the producer's drain after it.
  std::string pipelineHandle(unsigned TI, const TaskParam &TP,
                             const std::string &Handle, const std::string &In,
                             std::vector<std::string> &Drains) {
    const Task &T = P.Tasks[TI];
    // One cursor per role: a task may produce and consume one resource.
    std::string Cur =
        std::string(TP.R == Role::Producer ? "ts_prod_" : "ts_cons_") +
        std::to_string(TP.Resource);
    const PipelinePlan &PP = *Plan.pipeline(TP.Resource);
    std::string Pipe = "ts_pipe_" + std::to_string(TP.Resource);
    OS << In << "::ts::detail::cursor " << Cur << "{0u, "
       << (TP.R == Role::Producer ? PP.ProducerStartPhase
                                  : PP.ConsumerStartPhase)
       << "u};\n";
    // -debug-hangs: the handle's waits name where they stand.
    std::string Site = Plan.WatchHangs ? "ts_site" + Cur.substr(2) : "";
    if (Plan.WatchHangs)
      OS << In << "const ::ts::detail::hang_site " << Site << "{\"" << KS.Name
         << "\", \"" << T.Name << "\", \"" << P.Resources[TP.Resource].Name
         << "\"};\n";
    std::string SiteArg = Plan.WatchHangs ? ", &" + Site : "";
    if (TP.R == Role::Producer) {
      const char *Fill = PP.fillsWithThreads(TI)             ? "threads"
                         : PP.TxBytes && !PP.armsTxBytes(TI) ? "arrives"
                         : Plan.WatchHangs                   ? "arms"
                                                             : nullptr;
      std::string Arms =
          Fill ? std::string(", ::ts::detail::fill_mode::") + Fill : "";
      Drains.push_back("::ts::detail::producer_drain(" + Pipe + ", " + Cur +
                       SiteArg + ");");
      return Handle + "(" + Pipe + ", " + Cur +
             ", ts_warp == " + std::to_string(T.FirstWarp) + "u" + Arms +
             SiteArg + ")";
    }
    // A consumer that never stores from a stage skips the store wait;
    // one that only reads through awaited MMAs hands back unfenced.
    bool Stores = PP.consumerStores(TI);
    bool Unfenced = PP.consumerReadsAsync(TI);
    std::string Tail;
    if (PP.releasesByCommit(TI))
      Tail = ", ::ts::detail::release_mode::by_commit";
    else if (!Stores || Unfenced || Plan.WatchHangs)
      Tail = std::string(", ::ts::detail::release_mode::") +
             (Stores ? "after_store_reads" : "at_once") +
             (Unfenced ? "_unfenced" : "");
    return Handle + "(" + Pipe + ", " + Cur + Tail + SiteArg + ")";
  }

  /// ts::turn<R, Pos>(own barrier, its threads, next position's, its
  /// threads), from the plan.
  std::string turnHandle(unsigned TI, const TaskParam &TP,
                         const std::string &Handle) {
    const TurnPlan &TP2 = *Plan.turn(TP.Resource);
    unsigned Pos = *TP2.position(TI);
    unsigned Next = unsigned((Pos + 1) % TP2.Ring.size());
    return Handle + "(" + std::to_string(TP2.BarrierId[Pos]) + "u, " +
           std::to_string(TP2.Threads[Pos]) + "u, " +
           std::to_string(TP2.BarrierId[Next]) + "u, " +
           std::to_string(TP2.Threads[Next]) + "u)";
  }

  /// The ring's last position gives position 0 its first turn, before
  /// either runs its task.
  void firstTurns(unsigned TI, const std::string &In) {
    for (const TurnPlan &TP : Plan.Turns)
      if (TP.Ring.size() >= 2 && TP.Ring.back() == TI)
        OS << In << "::ts::detail::first_turn(" << TP.BarrierId[0] << "u, "
           << TP.Threads[0] << "u);\n";
  }

  /// One task call with its cursors and drains. `Keyword` opens a branch on
  /// the task's warps ("" when the enclosing region is exactly the task).
  void task(unsigned TI, const std::string &Keyword,
            const std::string &Indent) {
    const Task &T = P.Tasks[TI];
    std::string In = Indent;
    if (!Keyword.empty()) {
      OS << Keyword << " (" << warpTest(T.FirstWarp, T.endWarp()) << ") { // "
         << T.Name << "\n";
      In += "  ";
    } else {
      OS << In << "// " << T.Name << "\n";
    }
    std::vector<std::string> Args, Drains;
    for (size_t I = 0; I < T.Params.size(); ++I) {
      const TaskParam &TP = T.Params[I];
      if (TP.K == TaskParam::Kind::Value) {
        Args.push_back(TP.Name);
        continue;
      }
      // The handle type as the task declares it: no resource name to spell.
      std::string Handle = "::ts::detail::param_t<decltype(&" +
                           Tasks[TI].QualifiedName + "), " + std::to_string(I) +
                           ">";
      if (TP.K == TaskParam::Kind::Turn) {
        Args.push_back(turnHandle(TI, TP, Handle));
        continue;
      }
      const TmemRegion *TR = Plan.Tmem.find(TP.Resource);
      if (TR && TP.K == TaskParam::Kind::Owned) {
        Args.push_back(Handle + "(::ts::detail::tmem_at{ts_tmem + " +
                       std::to_string(TR->Column) + "u})");
        continue;
      }
      const ResourceLayout *RL = L.find(TP.Resource);
      if (!RL) {
        Args.push_back(Handle + "()");
        continue;
      }
      if (TP.K == TaskParam::Kind::Owned) {
        Args.push_back(Handle + "(ts_smem + " + std::to_string(RL->DataOffset) +
                       ")");
        continue;
      }
      Args.push_back(pipelineHandle(TI, TP, Handle, In, Drains));
    }
    firstTurns(TI, In);
    // A CTA pair's MMA task runs on rank 0, its drains with it: the other
    // rank's barriers of its stages stay unused (plan/Plan.cpp).
    bool Leads = Plan.leadsPair(TI);
    if (Leads) {
      OS << In << "if (::ts::detail::cta_rank() == 0u) { // the pair's MMAs\n";
      In += "  ";
    }
    OS << In;
    if (T.Cta)
      OS << "if (::ts::detail::cta_rank() == " << *T.Cta << "u) ";
    OS << Tasks[TI].QualifiedName << "(";
    for (size_t I = 0; I < Args.size(); ++I)
      OS << (I ? ", " : "") << Args[I];
    OS << ");\n";
    // TMA stores may still read the task's own memory: finish them before
    // the block can end and the memory goes away.
    if (!T.Owns.empty())
      Drains.push_back("::ts::detail::wait_bulk_reads();");
    for (const std::string &D : Drains)
      OS << In << D << "\n";
    if (Leads)
      OS << In.substr(2) << "}\n";
    if (!Keyword.empty())
      OS << Indent << "}\n";
  }

  const Program &P;
  const KernelPlan &Plan;
  const BlockLayout &L;
  const KernelSource &KS;
  const std::vector<TaskSource> &Tasks;
  bool InScope; ///< Written right after the declaration, inside its scopes.
  std::ostringstream OS;
};

} // namespace

std::string lowerKernel(const Program &P, const Kernel &K,
                        const KernelPlan &Plan, const KernelSource &KS,
                        const std::vector<TaskSource> &Tasks, bool InScope) {
  return BodyWriter(P, Plan, KS, Tasks, InScope).write();
}

std::string definitionAfterDeclaration(const Program &P, const Kernel &K,
                                       const KernelPlan &Plan,
                                       const KernelSource &KS,
                                       const std::vector<TaskSource> &Tasks) {
  return kernelTraits(Plan, KS) + "\n" +
         lowerKernel(P, K, Plan, KS, Tasks, true);
}

} // namespace ts
