// The report a user asks for: tasks, graph, schedule table, layout and
// verdict as text; the same facts as JSON; the graph as DOT.
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -report 2>/dev/null | FileCheck %s --check-prefix=TEXT
// RUN: %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -json=%t.json -Xclang -plugin-arg-ts -Xclang -dot=%t.dot 2>/dev/null
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// RUN: FileCheck %s --check-prefix=DOT --input-file=%t.dot
#include <ts/ts.h>

struct Params { const float *in; float *out; int n; };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[256]; };
struct [[ts::resource(ts::gmem)]] Sums {};

[[ts::task(ts::warps(4, 4))]]
__device__ void load(const Params &p, ts::producer<Chunk> c) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = c.acquire();
    for (int k = threadIdx.x % 128; k < 256; k += 128)
      s->v[k] = p.in[int(i) * 256 + k];
    c.commit(s);
  }
}

[[ts::task(ts::warps(0, 4))]]
__device__ void sum(const Params &p, ts::consumer<Chunk> c, ts::producer<Sums>) {
  float acc = 0;
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = c.wait();
    for (int k = threadIdx.x; k < 256; k += 128)
      acc += s->v[k];
    c.release(s);
  }
  atomicAdd(p.out, acc);
}

[[ts::kernel(load, sum)]] __global__ void reduce(const Params p);

// TEXT:      == libts kernel 'reduce': 8 warps, 256 threads, 2192 B dynamic shared memory, baseline 256 registers/thread
// TEXT:      -- tasks
// TEXT-NEXT:   load  warps [4, 8)  consumes -  produces Chunk  domain(blockIdx.x, p.n, gridDim.x)
// TEXT-NEXT:   sum  warps [0, 4)  consumes Chunk  produces Sums  domain(blockIdx.x, p.n, gridDim.x)
// TEXT:      -- resources
// TEXT-NEXT:   Chunk  async_async  stages 2  payload 1024 B  arrivals full 128 / empty 128
// TEXT-NEXT:   Sums  gmem
// TEXT:      -- dependency graph (consumed -> produced)
// TEXT-NEXT:   Chunk -> Sums
// TEXT:      step |           load[4:8)            |            sum[0:4)
// TEXT:         0 | Chunk      acquire     L    #0 |
// TEXT:         3 | Chunk      acquire     L    #1 | Chunk      wait        L    #0 |
// TEXT:      trip count 3
// TEXT:      [smem-layout] kernel 'reduce'
// TEXT:        Chunk.full               2 x 8 B       128      2048
// TEXT-NEXT:   Chunk.empty              2 x 8 B       128      2064
// TEXT-NEXT:   data 2048 B + barriers 32 B = 2080 B (launch size 2192 B) / capacity 232448 B
// TEXT:      -- verification: PASSED (0 error(s), 0 warning(s))
// TEXT-NEXT:    checks: ts-syntax ts-warps ts-registers ts-roles ts-bracketing ts-graph ts-capacity ts-credit ts-ownership ts-token ts-unused-token ts-tma-store ts-repeated-store ts-tma-bytes ts-tma-box ts-turn ts-fixup ts-target ts-race ts-pdl ts-cluster ts-domain ts-bound ts-padding ts-unlisted-task ts-register-pressure
// TEXT-NEXT:    protocol: every trip count (runs 0 to 6 decide all: steady state from iteration 1 with period 1)

// JSON: {"format":"libts-report","version":1,"libts":"0.1.0","kernels":[{"kernel":"reduce","threads":256,"smem_bytes":2192,"smem_capacity":232448,"baseline_registers":256,
// JSON-SAME: "tasks":[{"name":"load","first_warp":4,"warps":4,"regs":null,"cta":null,"padding":false,"consumes":[],"produces":["Chunk"],"owns":[],"domain":["blockIdx.x","p.n","gridDim.x"],"ops":[{"op":"acquire","resource":"Chunk","section":"loop","guard":"always","at":"{{.*}}report.cu:16:16"}
// JSON-SAME: "resources":[{"name":"Chunk","kind":"async_async","stages":2,"payload_bytes":1024,"tx_bytes":0,"offset":0,"stage_stride":1024,"align":128,"full_barriers":2048,"empty_barriers":2064,"full_arrivals":128,"empty_arrivals":128},{"name":"Sums","kind":"gmem"
// JSON-SAME: "edges":{{\[\[}}"Chunk","Sums"{{\]\]}},"aliases":[],"grid_dependent":[],"pdl":false,"pdl_waited":false,"cluster":[1,1,1],"findings":[]}]}

// DOT:      digraph "reduce" {
// DOT-NEXT:   "Chunk" [label="Chunk\nasync_async"];
// DOT-NEXT:   "Sums" [label="Sums\ngmem"];
// DOT-NEXT:   "Chunk" -> "Sums";
// DOT-NEXT: }
