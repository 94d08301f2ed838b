// The -html page: one self-contained file (inline SVG and CSS, no scripts)
// per translation unit, with a section per kernel: graph, timeline of the
// credit simulation with stages in flight, shared-memory bar to scale,
// register budgets, and for a failing kernel its findings with the
// counterexample numbered on the timeline. Byte-identical across runs.
// RUN: not %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -html=%t.html 2>/dev/null
// RUN: not %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -html=%t.again.html 2>/dev/null
// RUN: cmp %t.html %t.again.html
// RUN: FileCheck %s --input-file=%t.html
// RUN: FileCheck %s --check-prefix=NOSCRIPT --input-file=%t.html
// RUN: not %ts_device -fsyntax-only %s -Xclang -plugin-arg-ts -Xclang -html 2>&1 | FileCheck %s --check-prefix=BADARG
#include <ts/ts.h>

struct Params { CUtensorMap src; const float *in; float *out; int n; };

// A valid kernel: a 2-stage thread-filled pipeline of 32 KiB stages with
// a bound that needs escaping (&) and setmaxnreg budgets per warp group.
struct [[ts::resource(ts::async_async, ts::stages(2))]] Chunk { float v[8192]; };
struct [[ts::resource(ts::gmem)]] Sums {};

[[ts::task(ts::warps(4, 4), ts::regs(80))]]
__device__ void load(const Params &p, ts::producer<Chunk> c) {
  for (auto i : ts::domain(0, p.n & 0xffff)) {
    auto s = c.acquire();
    for (int k = threadIdx.x % 128; k < 8192; k += 128)
      s->v[k] = p.in[int(i) * 8192 + k];
    c.commit(s);
  }
}

[[ts::task(ts::warps(0, 4), ts::regs(232))]]
__device__ void sum(const Params &p, ts::consumer<Chunk> c, ts::producer<Sums>) {
  float acc = 0;
  for (auto i : ts::domain(0, p.n & 0xffff)) {
    auto s = c.wait();
    for (int k = threadIdx.x; k < 8192; k += 128)
      acc += s->v[k];
    c.release(s);
  }
  atomicAdd(p.out, acc);
}

[[ts::kernel(load, sum)]] __global__ void reduce(const __grid_constant__ Params p);

// A deadlock: the producer loads a tile only on the last iteration, the
// consumer waits for one every iteration (credit.cu, case a).
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Tile { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void fill(const Params &p, ts::producer<Tile> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    if (i.last()) {
      auto s = tiles.acquire();
      ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
      tiles.commit(s);
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void drain(const Params &p, ts::consumer<Tile> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.out[int(i)] = s->v[0][0];
    tiles.release(s);
  }
}
[[ts::kernel(fill, drain)]] __global__ void hang(const __grid_constant__ Params p);

// One page, self-contained: styles inline, no scripts, nothing fetched.
// NOSCRIPT-NOT: <script
// NOSCRIPT-NOT: <link
// NOSCRIPT-NOT: src=
// NOSCRIPT-NOT: http://{{[^w]}}
// NOSCRIPT-NOT: https://

// CHECK:      <!DOCTYPE html>
// CHECK:      <title>libts: {{.*}}html.cu</title>
// CHECK:      <style>
// CHECK:      <li><a href="#kernel-0"><code>reduce</code></a> PASSED</li>
// CHECK-NEXT: <li><a href="#kernel-1"><code>hang</code></a> FAILED</li>

// The valid kernel: graph, timeline, layout and registers; no findings.
// CHECK:      <section class="kernel" id="kernel-0">
// CHECK-NEXT: <h2>kernel <code>reduce</code><span class="verdict passed">PASSED</span></h2>
// CHECK-NEXT: <p class="facts">8 warps, 256 threads, 65680 B dynamic shared memory, baseline 256 registers/thread; 0 error(s), 0 warning(s)</p>
// CHECK-NOT:  <h3>Findings</h3>
// CHECK:      <h3>Task/resource graph</h3>
// CHECK:      <svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" aria-label="task/resource graph of kernel reduce"
// CHECK:      class="edge produce" marker-end="url(#kernel-0-arrow)"/>
// CHECK:      class="edge consume" marker-end="url(#kernel-0-arrow)"/>
// CHECK:      class="edge derived" marker-end="url(#kernel-0-arrow-derived)"/>
// CHECK:      <g class="node task"><title>task load: warps [4, 8) regs 80</title>
// CHECK:      <g class="node resource kind-async_async"><title>resource Chunk: async_async x2</title>
// CHECK:      <g class="node resource kind-gmem"><title>resource Sums: gmem</title>
// CHECK:      <h3>Schedule</h3>
// CHECK-NEXT: <p class="facts">credit simulation at trip count 3, 12 steps</p>
// CHECK:      <svg {{.*}} class="timeline" role="img" aria-label="schedule timeline of kernel reduce"
// CHECK:      <text x="8" y="42" class="lane-name">load</text>
// CHECK:      <rect x="160" y="22" width="162" height="54" class="band even"><title>iteration 0</title></rect>
// CHECK:      <text x="8" y="102" class="lane-name">sum</text>
// CHECK:      <g class="op op-acquire"><title>step 0: task load acquire of Chunk (iteration 0)
// CHECK-NEXT: c.acquire()</title>
// CHECK:      <g class="op op-wait"><title>step 3: task sum wait of Chunk (iteration 0)
// CHECK:      <text x="8" y="162" class="lane-name">Chunk</text>
// CHECK-NEXT: <text x="8" y="178" class="lane-facts">stages in flight (of 2)</text>
// CHECK:      <g class="stage-column"><title>step 3: Chunk 2/2 stages in flight (1 filling, 0 full, 1 draining)</title>
// CHECK:      <tr><td>load domain(0, p.n &amp; 0xffff, 1)</td><td></td><td>acquire Chunk, work Chunk, commit Chunk</td><td></td></tr>
// CHECK:      <h3>Shared memory</h3>
// CHECK:      <g class="segment"><title>Chunk #0: 32768 B at 0 (14.1%)</title>
// CHECK-NEXT: <rect x="0%" y="0" width="14.097%" height="26" class="seg stage"/>
// CHECK:      <g class="segment"><title>Chunk #1: 32768 B at 32768 (14.1%)</title>
// CHECK-NEXT: <rect x="14.097%" y="0" width="14.097%" height="26" class="seg stage alt"/>
// CHECK:      <g class="segment"><title>Chunk.full: 16 B at 65536 (0.01%)</title>
// CHECK-NEXT: <rect x="28.194%" y="0" width="0.007%" height="26" class="seg barriers"/>
// CHECK:      <g class="segment"><title>Chunk.empty: 16 B at 65552 (0.01%)</title>
// CHECK:      <g class="segment"><title>launch slack: 112 B at 65568 (0.05%)</title>
// CHECK:      <g class="segment"><title>free: 166768 B at 65680 (71.74%)</title>
// CHECK-NEXT: <rect x="28.256%" y="0" width="71.744%" height="26" class="seg free"/>
// CHECK:      <tr><td><code>Chunk</code></td><td>async_async</td><td class="num">2</td><td class="num">32768</td><td class="num">128</td><td class="num">0</td><td class="num">65536</td><td class="num">65536</td><td class="num">28.19%</td></tr>
// CHECK:      <p class="facts smem-total">data 65536 B + barriers 32 B = 65568 B (launch size 65680 B) / capacity 232448 B: 28.26% used</p>
// CHECK:      <h3>Registers</h3>
// CHECK:      <g class="segment"><title>group 0 (warps 0-3, setmaxnreg 232): 29696 registers</title>
// CHECK-NEXT: <rect x="0%" y="0" width="45.313%" height="26" class="seg regs"/>
// CHECK:      <g class="segment"><title>group 1 (warps 4-7, setmaxnreg 80): 10240 registers</title>
// CHECK:      <tr><td class="num">0</td><td>[0, 4)</td><td>sum</td><td>setmaxnreg 232</td><td class="num">29696</td><td class="num">45.31%</td></tr>
// CHECK-NEXT: <tr><td class="num">1</td><td>[4, 8)</td><td>load</td><td>setmaxnreg 80</td><td class="num">10240</td><td class="num">15.63%</td></tr>
// CHECK:      <p class="facts reg-total">total 39936 of 65536 registers (60.94%); launch baseline 256 registers/thread</p>
// CHECK:      </section>

// The deadlock: the finding first, its notes and trace, then the same
// events numbered on the timeline where the blocked wait ends it.
// CHECK:      <section class="kernel" id="kernel-1">
// CHECK-NEXT: <h2>kernel <code>hang</code><span class="verdict failed">FAILED</span></h2>
// CHECK:      <h3>Findings</h3>
// CHECK-NEXT: <ol class="findings">
// CHECK-NEXT: <li class="finding error">
// CHECK-NEXT: <p><span class="level error">error</span> <code>-Wts-credit</code> <span class="at">{{.*}}html.cu:61:20</span> </p>
// CHECK-NEXT: <p class="message">deadlock: task &#39;drain&#39; blocks forever on wait of &#39;Tile&#39; (trip count 2)</p>
// CHECK-NEXT: <pre class="excerpt">    auto s = tiles.wait();</pre>
// CHECK-NEXT: <ul class="notes">
// CHECK-NEXT: <li><span class="at">{{.*}}html.cu:47:55</span> <span class="note-text">&#39;Tile&#39;: 2 empty, 0 full stages</span></li>
// CHECK:      <span class="note-text">trace 1/4: task &#39;fill&#39; acquire of &#39;Tile&#39; (iteration 1)</span></li>
// CHECK:      <table class="data trace"><caption>counterexample: 4 events, numbered on the timeline</caption>
// CHECK-NEXT: <tr><th class="num">#</th><th>task</th><th>op</th><th>resource</th><th>when</th><th>at</th></tr>
// CHECK-NEXT: <tr><td class="num">1</td><td>fill</td><td>acquire</td><td>Tile</td><td>iteration 1</td><td>{{.*}}html.cu:52:22</td></tr>
// CHECK-NEXT: <tr><td class="num">2</td><td>fill</td><td>commit</td><td>Tile</td><td>iteration 1</td><td>{{.*}}html.cu:54:13</td></tr>
// CHECK-NEXT: <tr><td class="num">3</td><td>drain</td><td>wait</td><td>Tile</td><td>iteration 0</td><td>{{.*}}html.cu:61:20</td></tr>
// CHECK-NEXT: <tr><td class="num">4</td><td>drain</td><td>release</td><td>Tile</td><td>iteration 0</td><td>{{.*}}html.cu:63:11</td></tr>
// CHECK:      <p class="facts">credit simulation at trip count 2, 7 steps; deadlock at step 6</p>
// CHECK:      <text x="8" y="42" class="lane-name">fill</text>
// CHECK:      <text x="8" y="102" class="lane-name">drain</text>
// CHECK:      <g class="op op-acquire guarded"><title>step 0: task fill acquire of Tile (iteration 1, only on the last iteration)
// CHECK:      <g class="op op-wait blocked"><title>step 6: task drain blocked on wait of Tile (iteration 1)
// CHECK:      <text x="511" y="127" class="op-tag" text-anchor="middle">blocked</text>
// CHECK:      <g class="trace-mark"><title>finding 1, trace 1/4: task fill acquire of Tile (iteration 1)</title>
// CHECK-NEXT: <circle cx="206" cy="29" r="7" class="mark"/>
// CHECK-NEXT: <text x="206" y="32" class="mark-label" text-anchor="middle">1</text>
// CHECK:      <g class="trace-mark"><title>finding 1, trace 4/4: task drain release of Tile (iteration 0)</title>
// CHECK-NEXT: <circle cx="476" cy="89" r="7" class="mark"/>
// CHECK:      <tr><td>fill domain(blockIdx.x, p.n, gridDim.x)</td><td></td><td>acquire Tile [last], work Tile [last], commit Tile [last]</td><td></td></tr>
// CHECK:      <g class="segment"><title>Tile #0: 4096 B at 0 (1.76%)</title>
// CHECK-NEXT: <rect x="0%" y="0" width="1.762%" height="26" class="seg stage"/>
// CHECK:      <tr><td class="num">0</td><td>[0, 2)</td><td>fill, drain</td><td>baseline 256</td><td class="num">16384</td><td class="num">25%</td></tr>
// CHECK:      </html>

// BADARG: error: libts: unknown or malformed plugin argument '-html' (expected {{.*}}-json=<file>, -html=<file>, -no-rewrite
