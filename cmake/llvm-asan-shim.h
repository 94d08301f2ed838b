// Included first in every file of a sanitized build (cmake/Sanitize.cmake).
// LLVM's BumpPtrAllocator poisons the free part of its slabs when the code
// that includes it is built with ASan. libclang-cpp is not: an allocator
// slab poisoned by our inline copy and then filled by clang's reads as a
// use-after-poison that is not a bug. Make the allocator's poisoning a
// no-op in our code; ASan still checks every access our code makes.
#ifndef LIBTS_LLVM_ASAN_SHIM_H
#define LIBTS_LLVM_ASAN_SHIM_H
#if defined(__cplusplus) && __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif
#endif
