// Without the plugin a kernel file fails loudly and names the flag.
// RUN: not %clang_device -fsyntax-only %s 2>&1 | FileCheck %s
// CHECK: ts.h:{{[0-9]+}}:2: error: "libts: this file uses {{.*}} attributes; compile it with clang++ -fplugin=libts.so
#include <ts/ts.h>
struct Params { int n; };
[[ts::task(ts::warps(0, 1))]] __device__ void t(const Params &p) {}
[[ts::kernel(t)]] __global__ void k(const Params p);
