//===- StateSet.h - Visited states of the explicit search -------*- C++ -*-===//
//
// Internal to plugin/verify. Fixed-width keys (one word per task) packed
// back to back in one array, found through an open-addressing table of
// tagged indices: no allocation per state, 8 bytes per task plus 24 per
// state (slot and value), against ~100 more for a node-based set of strings.
//
//===----------------------------------------------------------------------===//
#ifndef LIBTS_VERIFY_STATESET_H
#define LIBTS_VERIFY_STATESET_H

#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace ts {
namespace detail {

class StateSet {
public:
  explicit StateSet(unsigned Width)
      : Width(Width ? Width : 1), Slots(1024, 0) {}

  /// Finds or adds Key (Width words): its value (0 when new) and whether
  /// it was new. The reference stays valid until the next insert.
  std::pair<uint64_t *, bool> insert(const uint64_t *Key) {
    if ((Count + 1) * 2 > Slots.size())
      grow();
    size_t Mask = Slots.size() - 1;
    uint64_t Tag = hash(Key) >> 32 << 32;
    for (size_t I = home(Tag);; I = (I + 1) & Mask) {
      uint64_t S = Slots[I];
      if (!S) {
        Keys.insert(Keys.end(), Key, Key + Width);
        Values.push_back(0);
        Slots[I] = Tag | ++Count;
        return {&Values.back(), true};
      }
      // The tag (high hash bits) spares most comparisons of whole keys.
      if ((S >> 32 << 32) == Tag &&
          !std::memcmp(&Keys[(uint32_t(S) - 1) * size_t(Width)], Key,
                       Width * sizeof(uint64_t)))
        return {&Values[uint32_t(S) - 1], false};
    }
  }
  uint64_t size() const { return Count; }
  uint64_t bytes() const {
    return (Keys.capacity() + Values.capacity() + Slots.capacity()) *
           sizeof(uint64_t);
  }

private:
  /// Every key bit reaches every hash bit (murmur3's finaliser per word):
  /// cursors differ in high bits (iterations) the table index never sees.
  static uint64_t mix(uint64_t H) {
    H ^= H >> 33;
    H *= 0xff51afd7ed558ccdull;
    H ^= H >> 33;
    H *= 0xc4ceb9fe1a85ec53ull;
    return H ^ (H >> 33);
  }
  uint64_t hash(const uint64_t *Key) const {
    uint64_t H = 0;
    for (unsigned I = 0; I < Width; ++I)
      H = mix(H ^ Key[I]) + I;
    return H;
  }
  /// The first slot to probe, from the tag alone: growing the table then
  /// never reads the keys again.
  size_t home(uint64_t Tag) const {
    return size_t((uint32_t(Tag >> 32) * 0x9e3779b9ull) & 0xffffffffu) >>
           (32 - Bits);
  }
  void grow() {
    std::vector<uint64_t> Old(Slots.size() * 2, 0);
    Old.swap(Slots);
    ++Bits;
    size_t Mask = Slots.size() - 1;
    for (uint64_t S : Old)
      if (S) {
        size_t I = home(S);
        while (Slots[I])
          I = (I + 1) & Mask;
        Slots[I] = S;
      }
  }

  unsigned Width;
  unsigned Bits = 10; ///< log2 of the table size (at most 32).
  uint64_t Count = 0;
  std::vector<uint64_t> Keys;
  std::vector<uint64_t> Values; ///< One word per key, for the search's use.
  std::vector<uint64_t> Slots;  ///< (hash tag << 32) | key number; 0 empty.
};

} // namespace detail
} // namespace ts

#endif
