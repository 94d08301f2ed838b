// Programmatic dependent launch (PTX griddepcontrol, sm_90+). A task calls
// ts::pdl_wait() before it touches data the previous grid writes, and
// ts::pdl_launch_dependents() once the next grid may start its prologue.
// The verifier checks both orders (docs/verifier.md, "ts-pdl"); ts::launch
// opts a kernel that calls them into programmatic stream serialization.
#ifndef LIBTS_PDL_H
#define LIBTS_PDL_H

namespace ts {

/// Blocks until the grids this one depends on have completed and their
/// memory is visible. A no-op when the kernel was launched without PDL.
__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// Lets the dependent grid launch once every block of this grid has called
/// it (or exited).
__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

} // namespace ts

#endif
