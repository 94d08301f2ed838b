// Host program: sums a float array on the GPU through reduce_kernel.cu and
// checks the result exactly (multiples of 1/256: every rounding is exact).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "reduce.h"

int main(int argc, char **argv) {
  const long long n = argc > 1 ? std::atoll(argv[1]) : (1 << 24) + 1234;
  std::vector<float> h(n);
  double ref = 0.0;
  for (long long k = 0; k < n; ++k) {
    h[k] = float((unsigned(k) * 2654435761u) >> 24) / 256.f - 0.25f;
    ref += h[k];
  }
  double got = 0.0;
  if (!reduce_on_gpu(h.data(), n, &got))
    return 2;
  std::printf("reduce: n = %lld: sum %.4f ref %.4f: %s\n", n, got, ref,
              got == ref ? "exact" : "MISMATCH");
  return got == ref ? 0 : 1;
}
