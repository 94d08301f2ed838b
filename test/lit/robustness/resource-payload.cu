// A stage is raw shared memory that is never constructed: payloads that are
// templates, polymorphic, hold references or end in a flexible array are
// errors at the struct (they used to be accepted silently, or reported only
// as "not a libts resource" at each use). Uses of a rejected resource are
// not reported again.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { float *dst; int n; };

template <class T>
struct [[ts::resource(ts::async_async, ts::stages(2))]] Tmpl { T v[32]; }; // expected-error {{[[ts::resource]] struct 'Tmpl' is a template or inside one}} expected-note {{declare a non-template struct for each payload type}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Virt { float v[32]; virtual __device__ void f(); }; // expected-error {{payload of resource 'Virt' has virtual functions or virtual bases}} expected-note {{keep the payload plain data}}
struct Base { virtual __device__ ~Base(); };
struct [[ts::resource(ts::async_async, ts::stages(2))]] Derived : Base { float v[32]; }; // expected-error {{payload of resource 'Derived' has virtual functions or virtual bases}} expected-note {{keep the payload plain data}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Ref { float v[32]; float &r; }; // expected-error {{payload of resource 'Ref' has a reference member}} expected-note {{hold a pointer or the data itself}}
struct [[ts::resource(ts::async_async, ts::stages(2))]] Flex { int n; float v[]; }; // expected-error {{payload of resource 'Flex' ends in a flexible array member}} expected-note {{give the array its size}}

// An explicit specialization is a plain struct: fine.
template <class T> struct Spec;
template <> struct [[ts::resource(ts::async_async, ts::stages(2))]] Spec<float> { float v[32]; };

[[ts::task(ts::warps(0, 1))]]
__device__ void prod(const Params &p, ts::producer<Tmpl<float>> a, ts::producer<Virt> b,
                     ts::producer<Derived> c, ts::producer<Ref> d, ts::producer<Flex> e,
                     ts::producer<Spec<float>> f) {}
