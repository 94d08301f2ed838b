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

/// Kernels with ts::cluster_shape carry cluster_x/y/z in their traits.
template <class Traits, class = void>
struct cluster_dims {
  static constexpr bool present = false;
  static constexpr unsigned x = 1, y = 1, z = 1;
};
template <class Traits>
struct cluster_dims<Traits, decltype(void(Traits::cluster_x))> {
  static constexpr bool present = true;
  static constexpr unsigned x = Traits::cluster_x, y = Traits::cluster_y, z = Traits::cluster_z;
};

/// Launches the generated kernel K on `grid` blocks with its traits' block
/// size, dynamic shared memory and cluster shape (`grid` must be a multiple
/// of it, or the launch fails with cudaErrorInvalidClusterSize). `args`
/// convert to K's parameters. Returns the first error (attribute or launch).
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
  cudaLaunchAttribute attrs[2];
  unsigned n = 0;
  if (uses_pdl<traits>::value) {
    attrs[n].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attrs[n++].val.programmaticStreamSerializationAllowed = 1;
  }
  // The generated body traps unless it runs in clusters of this shape.
  using cluster = cluster_dims<traits>;
  if (cluster::present) {
    attrs[n].id = cudaLaunchAttributeClusterDimension;
    attrs[n].val.clusterDim.x = cluster::x;
    attrs[n].val.clusterDim.y = cluster::y;
    attrs[n++].val.clusterDim.z = cluster::z;
  }
  config.attrs = n ? attrs : nullptr;
  config.numAttrs = n;
  // The C++ overload converts args to K's parameter types into an array.
  return cudaLaunchKernelEx(&config, K, args...);
}

/// How many CTAs of K run at once on the current device: whole clusters
/// for a kernel with ts::cluster_shape. The grid of a persistent kernel.
template <auto K>
cudaError_t resident_ctas(int &ctas) {
  using traits = kernel_traits<K>;
  using cluster = cluster_dims<traits>;
  const void *fn = reinterpret_cast<const void *>(K);
  cudaError_t err = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(traits::smem_bytes));
  if (err != cudaSuccess)
    return err;
  if (cluster::present) {
    cudaLaunchConfig_t config = {};
    const unsigned size = cluster::x * cluster::y * cluster::z;
    config.gridDim = dim3(size, 1, 1);
    config.blockDim = dim3(traits::threads, 1, 1);
    config.dynamicSmemBytes = traits::smem_bytes;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster::x;
    attr.val.clusterDim.y = cluster::y;
    attr.val.clusterDim.z = cluster::z;
    config.attrs = &attr;
    config.numAttrs = 1;
    int clusters = 0;
    err = cudaOccupancyMaxActiveClusters(&clusters, fn, &config);
    ctas = clusters * int(size);
    return err;
  }
  int dev = 0, sms = 0, per_sm = 0;
  if ((err = cudaGetDevice(&dev)) != cudaSuccess ||
      (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
      (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, traits::threads,
                                                           traits::smem_bytes)) != cudaSuccess)
    return err;
  ctas = sms * per_sm;
  return cudaSuccess;
}

} // namespace ts

#endif
