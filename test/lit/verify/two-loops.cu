// Two k-loops in one tile (issue 22): the main loop over K, then an
// epilogue loop over subtiles that loads a bias tile per subtile through a
// second pipeline. Each k-loop pairs with its partner's by order; each runs
// every count up to its bound, in every combination with the other.
// RUN: %ts_device -fsyntax-only %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s
// RUN: %ts_device -fsyntax-only -DCONST_EPI %s -Xclang -verify=ok -Xclang -plugin-arg-ts -Xclang -report | FileCheck %s --check-prefix=CONST
// RUN: %ts_device -fsyntax-only -DBIAS_FIRST %s -Xclang -verify=first
// RUN: %ts_device -fsyntax-only -DOTHER_COUNT %s -Xclang -verify=other
// RUN: %ts_device -fsyntax-only -DBIAS_IN_MAIN %s -Xclang -verify=inmain
// RUN: %ts_device -fsyntax-only -DBIAS_PER_TILE %s -Xclang -verify=pertile
// RUN: %ts_device -fsyntax-only -DEARLY_RELEASE %s -Xclang -verify=early
// RUN: %ts_device -fsyntax-only -DDEEP %s -Xclang -verify=deep
// RUN: not %ts_device -fsyntax-only -DSWAPPED %s 2>&1 | FileCheck %s --check-prefix=SWAPPED
// ok-no-diagnostics
#include <ts/ts.h>

#ifdef CONST_EPI // two subtiles: as many as Bias has stages
#define SUBTILES 2
#else
#define SUBTILES p.subtiles
#endif

struct Params {
  ts::tma::map<__nv_bfloat16, 64, 64> a;
  ts::tma::map<float, 64, 32> bias;
  float *out;
  int tiles, k_tiles, subtiles, other;
};
struct [[ts::resource(ts::tma_async, ts::stages(2), ts::swizzled)]] ATile { // first-note {{'ATile': 2 empty, 0 full stages}}
  __nv_bfloat16 a[64 * 64];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Bias { // first-note {{'Bias': 0 empty, 2 full stages}} first-note {{ts::stages(3) on 'Bias' removes it}}
  float b[64 * 32];
};

[[ts::task(ts::warps(0, 1))]]
__device__ void load(const Params &p, ts::producer<ATile> a, ts::producer<Bias> bias) { // pertile-note {{write the same loops in both tasks}}
  for (auto t : ts::domain(0, p.tiles)) { // pertile-error {{task 'load' exchanges stages of 'Bias' outside its nested ts::domain loops, task 'mma' inside one}}
#ifdef BIAS_FIRST // the bias before the operands: a third subtile waits for the MMAs
    for (auto e : ts::domain(0, SUBTILES)) { // first-note {{found with this inner ts::domain loop running 3 times in each iteration of the loop around it}}
      auto s = bias.acquire(); // first-error {{deadlock: task 'load' blocks forever on acquire of 'Bias' (trip count 1)}} first-note {{every acquire beyond the 2 stages of 'Bias' needs a release from each consumer task}}
      // first-note@-1 {{circular wait: task 'load' waits for 'Bias', which task 'mma' releases only later; task 'mma' waits for 'ATile', which task 'load' commits only later}}
      // first-note@-2 2 {{trace}}
      ts::tma::load(s->b, &p.bias, {int(e) * 32, int(t) * 64}, s.barrier());
      bias.commit(s); // first-note 2 {{trace}}
    }
#endif
#ifdef BIAS_PER_TILE
    auto s = bias.acquire();
    ts::tma::load(s->b, &p.bias, {0, int(t) * 64}, s.barrier());
    bias.commit(s);
#endif
    for (auto k : ts::domain(0, p.k_tiles)) { // first-note {{and this one running 1 time}} inmain-note {{task 'load' loops over (0, p.k_tiles, 1)}}
      auto s = a.acquire();
      ts::tma::load(s->a, &p.a, {int(k) * 64, int(t) * 64}, s.barrier());
      a.commit(s);
#ifdef BIAS_IN_MAIN // one bias tile per k-step: paired with the subtile loop
      auto b = bias.acquire();
      ts::tma::load(b->b, &p.bias, {int(k) * 32, int(t) * 64}, b.barrier());
      bias.commit(b);
#endif
    }
#if !defined(BIAS_FIRST) && !defined(BIAS_IN_MAIN) && !defined(BIAS_PER_TILE)
    for (auto e : ts::domain(0, SUBTILES)) { // other-note {{task 'load' loops over (0, SUBTILES, 1)}}
      auto s = bias.acquire();
      ts::tma::load(s->b, &p.bias, {int(e) * 32, int(t) * 64}, s.barrier());
      bias.commit(s);
    }
#endif
  }
}

[[ts::task(ts::warps(4, 4))]]
__device__ void mma(const Params &p, ts::consumer<ATile> a, ts::consumer<Bias> bias) {
  float acc[32];
  for (auto t : ts::domain(0, p.tiles)) {
#ifndef SWAPPED
    for (auto k : ts::domain(0, p.k_tiles)) { // early-note {{and this one running 0 times}}
      auto s = a.wait(); // first-note {{task 'mma' is blocked here on wait of 'ATile'}}
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, int(k) > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<0>();
      a.release(s);
    }
#endif
#ifdef OTHER_COUNT
    for (auto e : ts::domain(0, p.other)) { // other-error {{the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts}} other-note {{task 'mma' loops over (0, p.other, 1)}} other-note {{give both inner loops the same bounds}}
#else
    for (auto e : ts::domain(0, SUBTILES)) { // inmain-error {{the inner ts::domain loops of tasks 'load' and 'mma' may run different trip counts}} inmain-note {{task 'mma' loops over (0, SUBTILES, 1)}} inmain-note {{give both inner loops the same bounds}}
      // pertile-note@-1 {{the inner ts::domain loop of 'mma' is here}}
      // early-note@-2 {{found with this inner ts::domain loop running 1 time in each iteration of the loop around it}}
#endif
#ifdef DEEP // a third level: not a k-loop of the tile loop
      for (auto h : ts::domain(0, 2)) { // deep-note 2 {{a ts::domain loop that is not the task's loop or a k-loop directly in it starts here}}
        auto x = bias.wait(); // deep-error {{pipeline operation 'wait' is inside a ts::domain loop that is not the task's loop or a k-loop directly in it}} deep-note {{or of a ts::domain loop directly in that one (a k-loop)}}
        bias.release(x); // deep-error {{pipeline operation 'release' is inside a ts::domain loop}} deep-note {{pipeline operations may stand only}}
      }
#endif
      auto s = bias.wait();
#ifdef EARLY_RELEASE // hands the stage back before reading it
      bias.release(s); // early-note {{the stage was released here; another task may now overwrite it}}
#endif
      for (int i = 0; i < 32; ++i)
        p.out[int(t) * 64 * 64 + int(e) * 32 + i] = acc[i] + s->b[i]; // early-error {{stage of 'Bias' is used after it was released}} early-note {{move the use before the release}}
#ifndef EARLY_RELEASE
      bias.release(s);
#endif
    }
#ifdef SWAPPED // the k-loop after the subtiles: each pair still matches by its bound
    for (auto k : ts::domain(0, p.k_tiles)) {
      auto s = a.wait();
      const uint64_t d = ts::wgmma::make_desc_sw128(s->a);
      ts::wgmma::fence();
      ts::wgmma::mma_bf16(acc, d, d, int(k) > 0);
      ts::wgmma::commit_group();
      ts::wgmma::wait_group<0>();
      a.release(s);
    }
#endif
  }
}

[[ts::kernel(load, mma)]]
__global__ void gemm_bias(const __grid_constant__ Params p);

// CHECK: -- tasks
// CHECK: load {{.*}}domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1), domain(0, SUBTILES, 1)
// CHECK: mma {{.*}}domain(0, p.tiles, 1) > domain(0, p.k_tiles, 1), domain(0, SUBTILES, 1)
// CHECK: Bias  tma_async  stages 2  payload 8192 B  tx 8192 B  arrivals full 1 / empty 128
// CHECK: protocol: inner loops 0 to 7 times, 0 to 7 times (each pair its own count)
// CONST: protocol: inner loops 0 to 7 times, 2 times (constant) (each pair its own count)
// The consumer's two loops in the other order: both pairs match by bound,
// and the views find the deadlock from 3 k-steps with one subtile.
// SWAPPED: error: deadlock: task 'load' blocks forever on acquire of 'ATile' (trip count 1) [-Wts-credit]
// SWAPPED: note: task 'mma' is blocked here on wait of 'Bias'
// SWAPPED: note: circular wait: task 'load' waits for 'ATile', which task 'mma' releases only later; task 'mma' waits for 'Bias', which task 'load' commits only later
// SWAPPED: note: found with this inner ts::domain loop running 3 times in each iteration of the loop around it
// SWAPPED: note: and this one running 1 time
