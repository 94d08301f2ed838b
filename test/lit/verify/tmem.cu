// Tensor memory and the kernel's target: a ts::tmem resource needs
// ts::target(ts::sm_100a), the plan's columns must fit the capacity, and a
// Blackwell kernel has no wgmma. Malformed options are errors at the
// argument.
// Attribute errors stop the kernel checks, so they have a compile of their own.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -DOPTIONS -Xclang -verify=options %s
#include <ts/ts.h>

struct [[ts::resource(ts::task_owned, ts::tmem(128))]] Acc {};
struct [[ts::resource(ts::task_owned, ts::tmem(256))]] Acc2 {};
struct [[ts::resource(ts::task_owned, ts::tmem(160))]] Acc3 {};
struct [[ts::resource(ts::async_async, ts::stages(2))]] Tile {
  float v[1024];
};

// --- tensor memory in a Hopper kernel
[[ts::task(ts::warps(0, 4))]]
__device__ void acc_task(ts::owned<Acc> a) {}
[[ts::kernel(acc_task)]]
__global__ void hopper_tmem(); // expected-error@10 {{'Acc' lives in tensor memory, which kernel 'hopper_tmem' (target sm_90a) does not have}} expected-note {{add ts::target(ts::sm_100a)}}

// --- columns over the capacity: 128 + 256 + 160 (granule-aligned) > 512
[[ts::task(ts::warps(0, 4))]]
__device__ void three(ts::owned<Acc> a, ts::owned<Acc2> b, ts::owned<Acc3> c) {}
[[ts::kernel(three, ts::target(ts::sm_100a))]]
__global__ void too_many_columns(); // expected-error {{kernel 'too_many_columns' needs 544 columns of tensor memory; the capacity is 512 columns}} expected-note@10 {{'Acc': columns [0, 128)}} expected-note@11 {{'Acc2': columns [128, 384)}} expected-note@12 {{'Acc3': columns [384, 544)}} expected-note {{512 is all the tensor memory a CTA has (each resource starts on a 32-column granule)}}

// --- a lowered capacity: 128 + 256 fit 512, not 256
[[ts::task(ts::warps(0, 4))]]
__device__ void two(ts::owned<Acc> a, ts::owned<Acc2> b) {}
[[ts::kernel(two, ts::target(ts::sm_100a), ts::tmem_capacity(256))]]
__global__ void over_lowered_capacity(); // expected-error {{needs 384 columns of tensor memory; the capacity is 256 columns}} expected-note@10 {{columns [0, 128)}} expected-note@11 {{columns [128, 384)}} expected-note {{raise ts::tmem_capacity up to 512}}

[[ts::task(ts::warps(0, 4))]]
__device__ void two_b(ts::owned<Acc> a, ts::owned<Acc2> b) {}
[[ts::kernel(two_b, ts::target(ts::sm_100a))]]
__global__ void fits(); // 384 columns: allocated 512

// --- CTAs that wait for each other: alloc may block behind one of them,
// unless the CTAs that fit on one SM get their columns together
struct [[ts::resource(ts::task_owned, ts::tmem(64))]] ClusterAcc {}; // expected-error {{tensor memory in a kernel whose CTAs wait for each other (a cluster): 16 of its CTAs fit on one SM, and 16 x 64 columns exceed the 512 there}}
[[ts::task(ts::warps(0, 4))]]
__device__ void cluster_task(ts::owned<ClusterAcc> a) {}
[[ts::kernel(cluster_task, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void tmem_in_cluster(); // expected-note {{tcgen05.alloc blocks while another CTA on the SM holds the columns, and that CTA may be waiting for this one; allocate at most 32 columns (ts::tmem_capacity), or use more shared memory or threads per CTA so that fewer fit (one CTA of more than 115712 bytes of shared memory is alone on its SM)}}
// 16 CTAs x 32 columns: every CTA on the SM gets its columns at once.
struct [[ts::resource(ts::task_owned, ts::tmem(32))]] SmallAcc {};
[[ts::task(ts::warps(0, 4))]]
__device__ void small_task(ts::owned<SmallAcc> a) {}
[[ts::kernel(small_task, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void small_tmem_in_cluster();
// 120000 bytes of shared memory: one CTA per SM, all 512 columns.
struct [[ts::resource(ts::task_owned)]] Staging { char bytes[120000]; };
struct [[ts::resource(ts::task_owned, ts::tmem(512))]] WideAcc {};
[[ts::task(ts::warps(0, 4))]]
__device__ void alone_task(ts::owned<WideAcc> a, ts::owned<Staging> s) {}
[[ts::kernel(alone_task, ts::target(ts::sm_100a), ts::cluster_shape(2))]]
__global__ void alone_on_its_sm();

// --- wgmma in a Blackwell kernel
[[ts::task(ts::warps(0, 1))]]
__device__ void load(ts::producer<Tile> p) {
  for (auto i : ts::domain(0, 4)) {
    auto s = p.acquire();
    s->v[0] = 1.f;
    p.commit(s);
  }
}
[[ts::task(ts::warps(4, 4))]]
__device__ void use(ts::consumer<Tile> c) {
  for (auto i : ts::domain(0, 4)) {
    auto s = c.wait();
    ts::wgmma::commit_group(); // expected-error {{ts::wgmma::commit_group is a Hopper instruction; kernel 'blackwell_wgmma' targets sm_100a, which has no wgmma}}
    ts::wgmma::wait_group<0>();
    c.release(s);
  }
}
[[ts::kernel(load, use, ts::target(ts::sm_100a))]]
__global__ void blackwell_wgmma(); // expected-note {{Blackwell MMAs are tcgen05 (ts/tcgen05.h); or target sm_90a}}

#ifdef OPTIONS
int runtime_columns = 64;
struct [[ts::resource(ts::task_owned, ts::tmem(runtime_columns))]] NotConstant {}; // options-error {{argument of ts::tmem is not a constant expression}} options-note {{write the value as a literal or a constexpr expression}}
// --- the option itself
struct [[ts::resource(ts::task_owned, ts::tmem(0))]] Zero {};     // options-error {{ts::tmem(0) is out of range}} options-note {{between 1 and 512 columns}}
struct [[ts::resource(ts::task_owned, ts::tmem(513))]] Wide {};   // options-error {{ts::tmem(513) is out of range}} options-note {{between 1 and 512 columns}}
struct [[ts::resource(ts::task_owned, ts::tmem(32), ts::tmem(64))]] Twice {}; // options-error {{ts::tmem is given twice}} options-note {{keep one; the first is here}}
struct [[ts::resource(ts::tma_async, ts::tmem(64))]] Staged {}; // options-error {{ts::tmem applies only to ts::task_owned, ts::umma_async and ts::umma_umma resources, not ts::tma_async}} options-note {{make them the stages of a ts::umma_async pipeline}}
struct [[ts::resource(ts::task_owned, ts::tmem(64))]] Full { // options-error {{tensor-memory resource 'Full' has members}} options-note {{reached through ts::owned<Full>::tmem()}}
  float x[4];
};

[[ts::task(ts::warps(0, 4))]]
__device__ void cap_task(ts::owned<Acc> a) {}
[[ts::kernel(cap_task, ts::target(ts::sm_100a), ts::tmem_capacity(96))]] // options-error {{ts::tmem_capacity(96) is not a power of two of at least 32}} options-note {{32, 64, 128, 256 or 512 columns}}
__global__ void odd_capacity();
[[ts::task(ts::warps(0, 4))]]
__device__ void cap_task2(ts::owned<Acc> a) {}
[[ts::kernel(cap_task2, ts::target(ts::sm_100a), ts::tmem_capacity(1024))]] // options-error {{ts::tmem_capacity(1024) is more tensor memory than a CTA has}} options-note {{512 columns (the default)}}
__global__ void big_capacity();

// --- the target option
[[ts::task(ts::warps(0, 4))]]
__device__ void t1(ts::owned<Acc> a) {}
[[ts::kernel(t1, ts::target(ts::sm_100a), ts::target(ts::sm_90a))]] // options-error {{ts::target is given twice}} options-note {{give the kernel one target}}
__global__ void two_targets();
[[ts::task(ts::warps(0, 4))]]
__device__ void t2(ts::owned<Acc> a) {}
[[ts::kernel(t2, ts::target(ts::target_arch(80)))]] // options-error {{80 is not a ts::target_arch}} options-note {{use ts::sm_90a or ts::sm_100a}}
__global__ void bad_target();
#endif
