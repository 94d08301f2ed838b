// Turns: a [[ts::resource(ts::turns)]] struct names a turn that tasks pass
// round a ring, as FlashAttention-3's consumer warpgroups take turns on the
// tensor cores (ping-pong). A task takes position Pos of the ring with a
// parameter `ts::turn<R, Pos> t`; `t.take()` waits until the turn is its
// own, `t.pass()` hands it to position Pos + 1 (the last position to 0).
// Position 0 holds the turn first. Each position has a named barrier
// (bar.sync by its holder, bar.arrive by the one before it); the plugin
// assigns the ids and thread counts and proves that the turns cannot
// deadlock with the kernel's pipelines (docs/verifier.md, "Turns").
#ifndef LIBTS_TURN_H
#define LIBTS_TURN_H

namespace ts {

template <class R, unsigned Pos> class turn {
public:
  /// Built by the generated kernel body from the plan.
  __device__ __forceinline__ turn(unsigned own_id, unsigned own_count, unsigned next_id,
                                  unsigned next_count)
      : own_id_(own_id), own_count_(own_count), next_id_(next_id), next_count_(next_count) {}

  /// Waits for the turn: every thread of the task calls it.
  __device__ __forceinline__ void take() const {
    asm volatile("bar.sync %0, %1;\n" : : "r"(own_id_), "r"(own_count_) : "memory");
  }
  /// Hands the turn to the next position: every thread of the task calls it.
  __device__ __forceinline__ void pass() const {
    asm volatile("bar.arrive %0, %1;\n" : : "r"(next_id_), "r"(next_count_) : "memory");
  }

private:
  unsigned own_id_, own_count_, next_id_, next_count_;
};

namespace detail {
/// The ring's last position hands position 0 its first turn at launch.
__device__ __forceinline__ void first_turn(unsigned id, unsigned count) {
  asm volatile("bar.arrive %0, %1;\n" : : "r"(id), "r"(count) : "memory");
}
} // namespace detail

} // namespace ts

#endif
