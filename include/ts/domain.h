// ts::domain: the one loop of a task. `for (auto i : ts::domain(a, b, s))`
// runs exactly like `for (int i = a; i < b; i += s)` (s > 0), and the
// plugin reads its bounds to match producer and consumer trip counts.
// As in that loop, a step that carries i past INT_MAX is undefined.
#ifndef LIBTS_DOMAIN_H
#define LIBTS_DOMAIN_H

namespace ts {

/// One iteration of a domain: converts to int; knows whether it is the
/// first or the last (the guards the verifier recognises).
class iter {
public:
  __host__ __device__ __forceinline__ iter(int value, int start, int end, int step)
      : value_(value), start_(start), end_(end), step_(step) {}

  __host__ __device__ __forceinline__ operator int() const { return value_; }
  __host__ __device__ __forceinline__ int value() const { return value_; }
  __host__ __device__ __forceinline__ bool first() const { return value_ == start_; }
  /// No further value below end. Unsigned difference: end - value can exceed
  /// INT_MAX for a negative value.
  __host__ __device__ __forceinline__ bool last() const {
    return unsigned(end_) - unsigned(value_) <= unsigned(step_);
  }

private:
  int value_, start_, end_, step_;
};

class domain {
public:
  __host__ __device__ __forceinline__ domain(int start, int end, int step = 1)
      : start_(start), end_(end), step_(step) {}

  /// Range-for compares the iterator with this sentinel: `value < end`, so
  /// empty and negative ranges run zero times, as a for loop would.
  struct sentinel {};

  class iterator {
  public:
    __host__ __device__ __forceinline__ iterator(int value, int start, int end, int step)
        : value_(value), start_(start), end_(end), step_(step) {}
    __host__ __device__ __forceinline__ iter operator*() const {
      return iter(value_, start_, end_, step_);
    }
    __host__ __device__ __forceinline__ iterator &operator++() {
      value_ += step_;
      return *this;
    }
    __host__ __device__ __forceinline__ bool operator!=(sentinel) const { return value_ < end_; }

  private:
    int value_, start_, end_, step_;
  };

  __host__ __device__ __forceinline__ iterator begin() const {
    return iterator(start_, start_, end_, step_);
  }
  __host__ __device__ __forceinline__ sentinel end() const { return {}; }

  /// The same domain, for a loop that always runs: it stops the kernel
  /// (trap) when the range is empty. The verifier then checks the loop's
  /// trip counts from 1 (docs/verifier.md, "Nested domains").
  __host__ __device__ __forceinline__ domain nonempty() const {
#ifdef __CUDA_ARCH__
    if (end_ <= start_)
      __trap();
#endif
    return *this;
  }
  /// Iterations the loop runs (0 for an empty range).
  __host__ __device__ __forceinline__ int trips() const {
    return start_ < end_ ? int((unsigned(end_) - unsigned(start_) - 1u) / unsigned(step_) + 1u) : 0;
  }

private:
  int start_, end_, step_;
};

} // namespace ts

#endif
