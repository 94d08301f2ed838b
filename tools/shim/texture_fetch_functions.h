// Empty on purpose. CUDA 13 no longer ships texture_fetch_functions.h, and
// clang 19's CUDA wrapper includes it. libts's drivers search this directory
// last (-idirafter), so a toolkit that still has the header uses its own.
