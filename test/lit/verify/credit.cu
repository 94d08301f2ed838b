// Credit simulation: the schedules users shipped that hang on the GPU.
// Runtime domains (kernel parameters) are simulated at representative trip
// counts (0, 1, 2, stages, stages + 1); constant domains at their count.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { CUtensorMap src; float *dst; int n; };

// (a) A path of the producer never arrives: it loads a tile only on the last
// iteration, while the consumer waits for one every iteration.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A { float v[32][32]; }; // expected-note {{'A': 2 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_a(const Params &p, ts::producer<A> tiles) { // expected-note {{task 'load_a' has finished after committing 1 stage}}
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    if (i.last()) {
      auto s = tiles.acquire(); // expected-note {{trace 1/4: task 'load_a' acquire of 'A' (iteration 1)}}
      ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
      tiles.commit(s); // expected-note {{this commit runs only on the last iteration}} expected-note {{trace 2/4: task 'load_a' commit of 'A' (iteration 1)}}
    }
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_a(const Params &p, ts::consumer<A> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait(); // expected-error {{deadlock: task 'use_a' blocks forever on wait of 'A' (trip count 2)}} expected-note {{every wait on 'A' needs a commit from each producer task}} expected-note {{trace 3/4: task 'use_a' wait of 'A' (iteration 0)}}
    p.dst[int(i)] = s->v[0][0];
    tiles.release(s); // expected-note {{trace 4/4: task 'use_a' release of 'A' (iteration 0)}}
  }
}
[[ts::kernel(load_a, use_a)]] __global__ void k_a(const __grid_constant__ Params p);

// (a') The producer acquires (arming the bytes) every iteration but commits
// only on the last: caught before simulation, at the guarded commit.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] A2 { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_a2(const Params &p, ts::producer<A2> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire(); // expected-note {{stage acquired here}} expected-note {{the older stage was taken here}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    if (i.last())
      tiles.commit(s); // expected-error {{commit of 'A2' runs only on the last iteration but its acquire runs every iteration}} expected-note {{guard the acquire and the commit alike}} expected-error {{commit of 'A2' hands back a newer stage while an older one is held}} expected-note {{hand stages of one resource back oldest first, or hand the older one back in the same iteration without release_oldest()}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_a2(const Params &p, ts::consumer<A2> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait();
    p.dst[int(i)] = s->v[0][0];
    tiles.release(s);
  }
}
[[ts::kernel(load_a2, use_a2)]] __global__ void k_a2(const __grid_constant__ Params p);

// (b) Circular wait over two 1-stage pipelines: each task takes its output
// stage, then waits for the other task's output before committing its own.
struct [[ts::resource(ts::async_async, ts::stages(1))]] X { float v[32]; }; // expected-note {{'X': 0 empty, 0 full stages}}
struct [[ts::resource(ts::async_async, ts::stages(1))]] Y { float v[32]; }; // expected-note {{'Y': 0 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void task_a(const Params &p, ts::producer<X> x, ts::consumer<Y> y) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto sx = x.acquire();
    auto sy = y.wait(); // expected-error {{deadlock: task 'task_a' blocks forever on wait of 'Y' (trip count 1)}} expected-note {{circular wait: task 'task_a' waits for 'Y' holding 'X', which task 'task_b' commits only later; task 'task_b' waits for 'X' holding 'Y', which task 'task_a' commits only later}} expected-note {{every wait on 'Y' needs a commit from each producer task}}
    sx->v[0] = sy->v[0];
    y.release(sy);
    x.commit(sx);
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void task_b(const Params &p, ts::producer<Y> y, ts::consumer<X> x) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto sy = y.acquire(); // expected-note {{task 'task_b' holds 1 stage of 'Y' it acquired but never committed}} expected-note {{trace 1/1: task 'task_b' acquire of 'Y' (iteration 0)}}
    auto sx = x.wait(); // expected-note {{task 'task_b' is blocked here on wait of 'X'}}
    sy->v[0] = sx->v[0];
    x.release(sx);
    y.commit(sy);
  }
}
[[ts::kernel(task_a, task_b)]] __global__ void k_b(const __grid_constant__ Params p);

// (c) The consumer waits for two stages per iteration, the producer fills
// one: bracketing holds, but the consumer's second wait never gets a stage.
struct [[ts::resource(ts::tma_async, ts::stages(2))]] C { float v[32][32]; }; // expected-note {{'C': 2 empty, 0 full stages}}
[[ts::task(ts::warps(0, 1))]]
__device__ void load_c(const Params &p, ts::producer<C> tiles) { // expected-note {{task 'load_c' has finished after committing 1 stage}}
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.acquire(); // expected-note {{trace 1/4: task 'load_c' acquire of 'C' (iteration 0)}}
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s); // expected-note {{trace 2/4: task 'load_c' commit of 'C' (iteration 0)}}
  }
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_c(const Params &p, ts::consumer<C> tiles) {
  for (auto i : ts::domain(blockIdx.x, p.n, gridDim.x)) {
    auto s = tiles.wait(); // expected-note {{trace 3/4: task 'use_c' wait of 'C' (iteration 0)}}
    p.dst[int(i)] = s->v[0][0];
    tiles.release(s); // expected-note {{trace 4/4: task 'use_c' release of 'C' (iteration 0)}}
    auto t = tiles.wait(); // expected-error {{deadlock: task 'use_c' blocks forever on wait of 'C' (trip count 1)}} expected-note {{every wait on 'C' needs a commit from each producer task}}
    p.dst[int(i) + 1] = t->v[0][0];
    tiles.release(t);
  }
}
[[ts::kernel(load_c, use_c)]] __global__ void k_c(const __grid_constant__ Params p);

// (d) Constant domains: the producer loads one extra tile in its tail that no
// consumer ever waits for (and the producer's drain then waits forever).
struct [[ts::resource(ts::tma_async, ts::stages(2))]] D { float v[32][32]; };
[[ts::task(ts::warps(0, 1))]]
__device__ void load_d(const Params &p, ts::producer<D> tiles) {
  for (auto i : ts::domain(0, 8)) {
    auto s = tiles.acquire();
    ts::tma::load(s->v, &p.src, {0, int(i) * 32}, s.barrier());
    tiles.commit(s);
  }
  auto s = tiles.acquire();
  ts::tma::load(s->v, &p.src, {0, 0}, s.barrier());
  tiles.commit(s); // expected-error {{1 commit of 'D' is never waited for (trip count 8)}} expected-note {{every commit needs one wait in each consumer task}}
}
[[ts::task(ts::warps(1, 1))]]
__device__ void use_d(const Params &p, ts::consumer<D> tiles) { // expected-note {{task 'use_d' waits for 8 stages}}
  for (auto i : ts::domain(0, 8)) {
    auto s = tiles.wait();
    p.dst[int(i)] = s->v[0][0];
    tiles.release(s);
  }
}
[[ts::kernel(load_d, use_d)]] __global__ void k_d(const __grid_constant__ Params p);
