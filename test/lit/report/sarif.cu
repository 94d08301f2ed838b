// clang's SARIF output carries libts findings and their notes, each at its
// source location (for code scanning in CI): the error with its group flag,
// then its notes as results of level "note".
// RUN: not %ts_device -fsyntax-only -Wno-sarif-format-unstable -fdiagnostics-format=sarif %s > %t.sarif 2>&1
// RUN: python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]" %t.sarif
// RUN: FileCheck %s --input-file=%t.sarif
// CHECK: "results":[{"level":"error","locations":[{"physicalLocation":{"artifactLocation":{"index":0,"uri":"file://{{.*}}sarif.cu"},"region":{"endColumn":50,"startColumn":50,"startLine":[[@LINE+12]]}}}],"message":{"text":"stage of 'Buf' waited for in the loop is not released in the same iteration [-Wts-bracketing]"}
// CHECK-SAME: {"level":"note","locations":[{"physicalLocation":{"artifactLocation":{"index":0,"uri":"file://{{.*}}sarif.cu"},"region":{"endColumn":50,"startColumn":50,"startLine":[[@LINE+11]]}}}],"message":{"text":"release it before the end of the loop body"}
#include <ts/ts.h>

struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Buf { float v[32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void put(const Params &p, ts::producer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.acquire(); s->v[threadIdx.x % 32] = 1; b.commit(s); }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void get(const Params &p, ts::consumer<Buf> b) {
  for (auto i : ts::domain(0, p.n)) { auto s = b.wait(); p.out[int(i)] = s->v[threadIdx.x % 32]; }
}
[[ts::kernel(put, get)]] __global__ void fill(const Params p);
