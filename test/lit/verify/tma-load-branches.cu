// TMA loads in both branches of an if-else of unknown condition deliver on
// every path when the branches load the same bytes into the same members
// (examples/conv_sm90.cu swaps which map fills which operand): the then
// branch's loads count, the else branch's run where those do not. Branches
// that both load, but load otherwise, are an error of their own.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params {
  ts::tma::map<float, 32, 32> big;   // 4096 bytes
  ts::tma::map<float, 16, 32> half;  // 2048 bytes
  ts::tma::map<float, 32, 16> other; // 2048 bytes, another shape
  float *dst;
  int n;
  int flip;
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Ok {
  float a[16][32];
  float b[32][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Short {
  float a[16][32];
  float b[32][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Swapped {
  float a[16][32];
  float b[32][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Twice {
  float a[16][32];
  float b[32][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Left {
  float a[16][32];
};
struct [[ts::resource(ts::tma_async, ts::stages(2))]] Right {
  float a[16][32];
};

// The same bytes into the same members, through other maps: verified.
[[ts::task(ts::warps(0, 1))]]
__device__ void alike(const Params &p, ts::producer<Ok> q) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = q.acquire();
    if (p.flip) {
      ts::tma::load(s->b, &p.big, {0, int(i)}, s.barrier());
      ts::tma::load(s->a, &p.other, {0, int(i)}, s.barrier());
    } else {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier());
      ts::tma::load(s->b, &p.big, {32, int(i)}, s.barrier());
    }
    q.commit(s);
  }
}

// The else branch leaves 'b' unloaded: the stage waits for 4096 bytes.
[[ts::task(ts::warps(1, 1))]]
__device__ void short_else(const Params &p, ts::producer<Short> q) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = q.acquire(); // expected-note {{acquire armed 6144 transaction bytes here, which every path to the commit must deliver}}
    if (p.flip) {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier()); // expected-error {{the branches of an if-else load different bytes or members into 'Short': a path may deliver fewer bytes than the stage arms}}
      ts::tma::load(s->b, &p.big, {0, int(i)}, s.barrier());
    } else {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier());
    }
    q.commit(s); // expected-note {{load the same bytes into the same members in both branches (through any maps), or move the loads out of the if-else}}
  }
}

// Equal bytes, but the else branch fills only 'b' (twice over) and never 'a'.
[[ts::task(ts::warps(2, 1))]]
__device__ void other_members(const Params &p, ts::producer<Swapped> q) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = q.acquire(); // expected-note {{acquire armed 6144 transaction bytes here, which every path to the commit must deliver}}
    if (p.flip) {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier()); // expected-error {{the branches of an if-else load different bytes or members into 'Swapped': a path may deliver fewer bytes than the stage arms}}
      ts::tma::load(s->b, &p.big, {0, int(i)}, s.barrier());
    } else {
      ts::tma::load(s->b, &p.half, {0, int(i)}, s.barrier());
      ts::tma::load(s->b, &p.big, {0, int(i)}, s.barrier());
    }
    q.commit(s); // expected-note {{load the same bytes into the same members in both branches (through any maps), or move the loads out of the if-else}}
  }
}

// The same bytes in total, but one member loaded twice and one not at all.
[[ts::task(ts::warps(3, 1))]]
__device__ void twice(const Params &p, ts::producer<Twice> q) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = q.acquire(); // expected-note {{acquire armed 6144 transaction bytes here, which every path to the commit must deliver}}
    if (p.flip) {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier()); // expected-error {{the branches of an if-else load different bytes or members into 'Twice': a path may deliver fewer bytes than the stage arms}}
      ts::tma::load(s->b, &p.big, {0, int(i)}, s.barrier());
    } else {
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier());
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier());
      ts::tma::load(s->a, &p.other, {0, int(i)}, s.barrier());
    }
    q.commit(s); // expected-note {{load the same bytes into the same members in both branches (through any maps), or move the loads out of the if-else}}
  }
}

// The same member and bytes, but each branch fills another pipeline's
// stage: on either path one of the two stages gets nothing.
[[ts::task(ts::warps(5, 1))]]
__device__ void two_stages(const Params &p, ts::producer<Left> l, ts::producer<Right> r) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = l.acquire(); // expected-note {{acquire armed 2048 transaction bytes here, which every path to the commit must deliver}}
    auto t = r.acquire(); // expected-note {{acquire armed 2048 transaction bytes here, which every path to the commit must deliver}}
    if (p.flip)
      ts::tma::load(s->a, &p.half, {0, int(i)}, s.barrier()); // expected-error {{the branches of an if-else load different bytes or members into 'Left'}}
    else
      ts::tma::load(t->a, &p.half, {0, int(i)}, t.barrier()); // expected-error {{the branches of an if-else load different bytes or members into 'Right'}}
    r.commit(t); // expected-note {{load the same bytes into the same members in both branches}}
    l.commit(s); // expected-note {{load the same bytes into the same members in both branches}}
  }
}

[[ts::task(ts::warps(4, 1))]]
__device__ void use(const Params &p, ts::consumer<Ok> a, ts::consumer<Short> b,
                    ts::consumer<Swapped> c, ts::consumer<Twice> d, ts::consumer<Left> e,
                    ts::consumer<Right> f) {
  for (auto i : ts::domain(0, p.n)) {
    auto s = a.wait();
    auto t = b.wait();
    auto u = c.wait();
    auto v = d.wait();
    auto w = e.wait();
    auto x = f.wait();
    p.dst[int(i)] = s->a[0][0] + t->b[0][0] + u->a[0][0] + v->b[0][0] + w->a[0][0] + x->a[0][0];
    f.release(x);
    e.release(w);
    d.release(v);
    c.release(u);
    b.release(t);
    a.release(s);
  }
}
[[ts::kernel(alike, short_else, other_members, twice, two_stages, use)]] __global__ void
k(const __grid_constant__ Params p);
