//===- Stores.h - What a task does around its TMA stores --------*- C++ -*-===//
//
// A TMA store reads shared memory asynchronously: the threads that wrote the
// source must fence their writes for the TMA unit and meet the issuing
// thread at a barrier first, and nobody may write the source again until the
// issuing thread has waited for the store's reads and a barrier passed that
// on. The front end (frontend/TmaStores.cpp) writes a task's statements down
// as these events, helpers inlined; verify/TmaStores.cpp runs them.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_MODEL_STORES_H
#define LIBTS_MODEL_STORES_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ts {

/// Which element of a buffer array an access names: ((Mul * i + Add) mod
/// Mod), with i the value of loop Loop's counter (Loop < 0: a constant).
/// Unknown: any element.
struct StoreIndex {
  bool Known = false;
  int Loop = -1; ///< Index into the task's StoreEvents of that Loop event.
  int64_t Mul = 1, Add = 0;
  int64_t Mod = 0; ///< 0: no reduction.
};

/// One step from a buffer's variable to the part an access names: a member
/// (Field) or an element of an array (Index).
struct StoreStep {
  std::string Field; ///< Empty: an index step.
  StoreIndex Index;
};

/// StoreEvent::Buffer of an access through a pointer the front end does not
/// follow (assigned after its declaration, returned by a call): it may be
/// any buffer.
constexpr int AnyBuffer = -2;

struct StoreEvent {
  enum class Kind {
    Write,     ///< Threads write Buffer.
    Fence,     ///< ts::tma::store_fence(): the writer's writes, for TMA.
    Barrier,   ///< ts::sync_warpgroup(), __syncthreads(): all of the task's.
    Issue,     ///< ts::tma::issue_store: one thread starts a store of Buffer.
    WarpStore, ///< ts::tma::store: each calling warp fences, then stores.
    Wait,      ///< ts::tma::wait_store_reads<Pending>() in the issuing thread.
    Loop,      ///< Events [this + 1, End) run Trips times (unknown: any).
    Retire,    ///< A stage Buffer is released: its stores were waited for.
    If,        ///< Events [this + 1, End) run only when the condition holds.
  } K = Kind::Write;
  /// Under an `if`: run by the issuing thread only (the one thread the
  /// stores come from), not by the other threads of the task.
  bool Guarded = false;
  int Buffer = -1; ///< Index into Task::StoreBuffers; -1: none; AnyBuffer.
  /// The part of the buffer reached (a prefix covers everything under it).
  std::vector<StoreStep> Path;
  std::string Text; ///< The access as written, for messages.
  int Pending = 0;  ///< Wait: stores still allowed to read.
  // Loop: the counter runs Init, Init + Step, ... for Trips iterations.
  // If: the condition is `Cond <Op> Rhs` of a loop counter when CondKnown,
  // else it may hold or not on each run (the body, or nothing, runs).
  int End = 0;
  bool CondKnown = false;
  StoreIndex Cond;
  enum class Cmp { Lt, Le, Gt, Ge, Eq, Ne } Op = Cmp::Ne;
  int64_t Rhs = 0;
  /// If of an `else`: the If of its `then` (-1: none), so that exactly one
  /// of the two runs.
  int Else = -1;
  std::optional<int64_t> Trips;
  int64_t Init = 0, Step = 1;
  uint64_t Loc = 0; ///< A SourceHandle (model/Model.h).
};

} // namespace ts

#endif
