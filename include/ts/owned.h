// Task-owned shared memory: a [[ts::resource(ts::task_owned)]] struct that
// one task keeps for itself (an epilogue's staging buffers, a lookup table),
// or, with ts::tmem(N), columns of tensor memory (sm_100a).
// The plugin places it in the kernel's shared-memory layout and checks that
// no other task takes it; there are no stages and no barriers, so ordering
// between the task's own threads is the task's business (ts/warpgroup.h,
// the TMA store waits in ts/tma.h).
#ifndef LIBTS_OWNED_H
#define LIBTS_OWNED_H

namespace ts {

namespace detail {
/// A tensor-memory address (lane in bits 31-16, column in bits 15-0).
struct tmem_at {
  unsigned address;
};
} // namespace detail

/// What a task parameter `ts::owned<R> name` receives: R in shared memory,
/// or, for a ts::tmem resource, its first column of tensor memory.
template <class R>
class owned {
public:
  __device__ __forceinline__ owned() : data_(nullptr) {}
  /// Built by the generated kernel body at the layout's offset.
  __device__ __forceinline__ explicit owned(unsigned char *at)
      : data_(reinterpret_cast<R *>(at)) {}
  /// Built by the generated kernel body at the plan's column.
  __device__ __forceinline__ explicit owned(detail::tmem_at at)
      : data_(nullptr), tmem_(at.address) {}

  /// A ts::tmem resource: the TMEM address of its lane 0, first column.
  __device__ __forceinline__ unsigned tmem() const { return tmem_; }

  __device__ __forceinline__ R *operator->() const { return data_; }
  __device__ __forceinline__ R &operator*() const { return *data_; }
  __device__ __forceinline__ R *get() const { return data_; }

private:
  R *data_;
  unsigned tmem_ = 0;
};

} // namespace ts

#endif
