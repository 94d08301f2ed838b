// Host side: the launch shape of a generated kernel and a helper to launch
// it. The plugin emits `ts::kernel_traits<&::k>` right after the kernel's
// declaration (docs/generated-code.md).
#ifndef LIBTS_LAUNCH_H
#define LIBTS_LAUNCH_H

namespace ts {

#if defined(__LIBTS_GENERATED__)
/// Specialised by the plugin for every [[ts::kernel]]: dynamic shared memory
/// (including alignment slack) and threads per block.
template <auto K>
struct kernel_traits;
#else
/// Analysis-only compile (no code generated): zeros, so host code using
/// ts::launch still type-checks.
template <auto K>
struct kernel_traits {
  static constexpr unsigned smem_bytes = 0;
  static constexpr unsigned threads = 0;
};
#endif

/// Kernels that call ts::pdl_wait / ts::pdl_launch_dependents carry
/// `pdl = true` in their traits; others have no such member.
template <class Traits, class = void>
struct uses_pdl {
  static constexpr bool value = false;
};
template <class Traits>
struct uses_pdl<Traits, decltype(void(Traits::pdl))> {
  static constexpr bool value = Traits::pdl;
};

/// Launches the generated kernel K on `grid` blocks with its traits' block
/// size and dynamic shared memory. `args` convert to K's parameters.
/// Returns the first error (attribute or launch).
template <auto K, class... Args>
cudaError_t launch(dim3 grid, cudaStream_t stream, Args... args) {
  using traits = kernel_traits<K>;
  // Above 48 KiB dynamic shared memory must be opted into per kernel.
  cudaError_t err = cudaFuncSetAttribute(reinterpret_cast<const void *>(K),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(traits::smem_bytes));
  if (err != cudaSuccess)
    return err;
  cudaLaunchConfig_t config = {};
  config.gridDim = grid;
  config.blockDim = dim3(traits::threads, 1, 1);
  config.dynamicSmemBytes = traits::smem_bytes;
  config.stream = stream;
  // A kernel with PDL ops may start while the previous grid in the stream
  // still runs; its ts::pdl_wait() orders the dependent accesses.
  cudaLaunchAttribute pdl[1];
  pdl[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  pdl[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = uses_pdl<traits>::value ? pdl : nullptr;
  config.numAttrs = uses_pdl<traits>::value ? 1 : 0;
  // The C++ overload converts args to K's parameter types into an array.
  return cudaLaunchKernelEx(&config, K, args...);
}

} // namespace ts

#endif
