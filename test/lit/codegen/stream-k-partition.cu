// The stream-K partition (include/ts/stream_k.h) on the host, over every
// tile count, k-step count and grid in a range: each k-step of each tile
// is run by exactly one segment; a tile cut in several has one owner (the
// segment holding k-step 0, its CTA's last) and its other segments are
// their CTAs' first split segments, which the owner enumerates exactly
// (next_contributor), each once and each after the owner's CTA. That is
// what makes settle() neither hang nor drop a partial sum: every signal
// has its waiter and every wait its signal, and waits only point to later
// CTAs, whose signal comes before any wait of theirs.
// REQUIRES: nvcc
// RUN: %nvcc -o %t %s && %t | FileCheck %s
// CHECK: partitions checked: 14496, failures: 0
#include <ts/stream_k.h>

#include <cstdio>
#include <map>
#include <set>
#include <vector>

using Split = ts::stream_k<4, 1>;

static int failures = 0;
#define EXPECT(c, ...)                                                                             \
  do {                                                                                             \
    if (!(c) && ++failures <= 10) {                                                                \
      std::printf("FAIL tiles %d iters %d resident %d: %s: ", tiles, iters, resident, #c);         \
      std::printf(__VA_ARGS__);                                                                    \
      std::printf("\n");                                                                           \
    }                                                                                              \
  } while (0)

static void check(int tiles, int iters, int resident) {
  Split sk;
  EXPECT(Split::plan_for(tiles, iters, resident, sk) == cudaSuccess, "plan");
  const int ctas = sk.ctas();
  EXPECT(ctas >= 1 && ctas <= resident, "%d CTAs", ctas);
  std::vector<int> runs(size_t(tiles) * iters, 0);
  std::map<int, int> owner;                  // tile -> CTA of its owner segment
  std::map<int, std::set<int>> contributors; // tile -> CTAs of its later segments
  for (int c = 0; c < ctas; ++c) {
    const int n = sk.segments_of(c);
    int firstSplit = -1;
    for (int i = 0; i < n; ++i) {
      const ts::segment s = sk.segment_of(c, i);
      EXPECT(s.tile >= 0 && s.tile < tiles && 0 <= s.k_begin && s.k_begin < s.k_end &&
                 s.k_end <= iters,
             "CTA %d segment %d: tile %d [%d, %d)", c, i, s.tile, s.k_begin, s.k_end);
      if (s.tile < 0 || s.tile >= tiles)
        continue;
      for (int k = s.k_begin; k < s.k_end && k >= 0 && k < iters; ++k)
        ++runs[size_t(s.tile) * iters + k];
      const bool whole = s.k_begin == 0 && s.k_end == iters;
      if (!whole && firstSplit < 0)
        firstSplit = i;
      if (s.k_begin > 0) {
        EXPECT(i == firstSplit, "CTA %d: contributor segment %d is not its first split one", c, i);
        contributors[s.tile].insert(c);
      } else if (!whole) {
        EXPECT(i == n - 1, "CTA %d: owner segment %d of %d is not its last", c, i, n);
        EXPECT(!owner.count(s.tile), "tile %d: two owners", s.tile);
        owner[s.tile] = c;
      }
    }
  }
  for (size_t u = 0; u < runs.size(); ++u)
    EXPECT(runs[u] == 1, "tile %zu k-step %zu runs %d times", u / iters, u % iters, runs[u]);
  for (const auto &[tile, cs] : contributors) {
    EXPECT(owner.count(tile), "tile %d: contributors, no owner", tile);
    if (!owner.count(tile))
      continue;
    std::set<int> listed;
    for (int c = sk.next_contributor(tile, owner[tile]); c >= 0; c = sk.next_contributor(tile, c)) {
      EXPECT(c > owner[tile] && !listed.count(c), "tile %d: CTA %d listed again", tile, c);
      listed.insert(c);
      if (listed.size() > size_t(ctas))
        break;
    }
    EXPECT(listed == cs, "tile %d: the owner waits for %zu CTAs, %zu signal", tile, listed.size(),
           cs.size());
  }
  for (const auto &[tile, c] : owner)
    EXPECT(contributors.count(tile), "tile %d: owner segment with nobody to wait for", tile);
}

int main() {
  int checked = 0;
  for (int tiles = 1; tiles <= 40; ++tiles)
    for (int iters = 1; iters <= 12; ++iters)
      for (int resident = 1; resident <= 30; ++resident, ++checked)
        check(tiles, iters, resident);
  for (int tiles : {64, 128, 131, 133, 256, 289, 512, 1152})
    for (int iters : {1, 3, 64, 128})
      for (int resident : {66, 132, 264}) {
        check(tiles, iters, resident);
        ++checked;
      }
  std::printf("partitions checked: %d, failures: %d\n", checked, failures);
  return failures != 0;
}
