// A code-generating compile reports libts findings at exactly the places
// (file, line, column) and with exactly the text of -fsyntax-only: the
// user's file is never rewritten, generated code has a buffer of its own.
// RUN: not %ts_device -fsyntax-only %s 2> %t.syntax
// RUN: not %ts_device -O2 -S %s -o %t.s 2> %t.codegen
// RUN: diff %t.syntax %t.codegen
// RUN: FileCheck %s --input-file=%t.codegen
// CHECK-DAG: columns.cu:22:16: error: stage of 'Chunk' waited for in the loop is not released in the same iteration
// The task line (where __forceinline__ used to be inserted) keeps its columns.
// CHECK-DAG: columns.cu:14:61: note: a budget this small suits TMA producers
#include <ts/ts.h>
struct Params { float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[32]; };
[[ts::task(ts::warps(0, 1), ts::regs(40))]] __device__ void produce(const Params &p, ts::producer<Chunk> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.acquire(); s->v[threadIdx.x % 32] = float(i); c.commit(s);
  }
}
[[ts::task(ts::warps(1, 1), ts::regs(40))]]
__device__ void consume(const Params &p, ts::consumer<Chunk> c) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = c.wait(); p.out[threadIdx.x % 32] += s->v[threadIdx.x % 32];
  }
}
[[ts::kernel(produce, consume)]] __global__ void k(const Params p);
