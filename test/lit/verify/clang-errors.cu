// Clang's own errors in attribute arguments are reported as clang reports
// them; libts then stays quiet, since the AST is incomplete.
// RUN: %ts_device -fsyntax-only -ferror-limit=0 -Xclang -verify %s
#include <ts/ts.h>

struct Params { int n; };
[[ts::kernel(1 + nothing)]] __global__ void k3(const Params p); // expected-error {{use of undeclared identifier 'nothing'}}
[[ts::task(ts::warps(0, 1))]] int not_a_function; // expected-error {{'ts::task' attribute only applies to __device__ functions}}
struct [[ts::kernel]] NotAFunction {}; // expected-error {{'ts::kernel' attribute only applies to __global__ function declarations}}
