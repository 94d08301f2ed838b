# lit configuration for libts: diagnostics (-verify), rewrites (FileCheck),
# device PTX and nvcc compiles of the emitted sources.
import os
import lit.formats

config.name = "libts"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.libts_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, os.path.dirname(config.nvcc) if config.nvcc else "",
     config.environment.get("PATH", os.environ.get("PATH", ""))])

src = config.libts_src_root
cuda = "/usr/local/cuda"
shim = os.path.join(src, "tools", "shim")
# Clang 19 knows CUDA up to 12.5: with the 13.0 SDK it compiles device code
# only, with CCCL from the SDK and an empty texture_fetch_functions.h.
device = ("{clang}/clang++ -x cuda -std=c++17 --cuda-device-only "
          "--cuda-gpu-arch=sm_90a --cuda-path={cuda} -nocudalib "
          "-Wno-unknown-cuda-version -Wno-unknown-attributes -isystem {cuda}/include/cccl "
          "-I {shim} -I {src}/include").format(clang=config.clang_dir, cuda=cuda,
                                     shim=shim, src=src)
# Most tests load through a plain CUtensorMap to exercise other checks; the
# ts-tma-box warning that names them has its own test (verify/tma-box.cu).
plugin = " -fplugin=" + config.libts_plugin + " -Xclang -plugin-arg-ts -Xclang -Wno-ts-tma-box"
config.substitutions.append(("%ts_device", device + plugin))
# Through ptxas to a cubin: libdevice linked (min, max, ... at -O0 and -O1).
config.substitutions.append(("%ts_cubin", device.replace(" -nocudalib", "") + plugin))
config.substitutions.append(("%clang_device", device))
# LD_PRELOAD of the plugin (clangd): a sanitized plugin needs its runtime first.
config.substitutions.append(("%preload_plugin", (config.asan_runtime + ":" if config.asan_runtime
                                                 else "") + config.libts_plugin))
config.substitutions.append(("%plugin", config.libts_plugin))
# The sanitized build (scripts/sanitize.sh): tests that re-verify one
# example with small edits, which the normal build runs, are left to it
# (UNSUPPORTED: asan) to keep CI within its time.
if config.asan_runtime:
    config.available_features.add("asan")
config.substitutions.append(("%src", src))
config.substitutions.append(("%nvcc", "{} -std=c++17 -arch=sm_90a -I {}/include".format(
    config.nvcc, src)))
config.substitutions.append(("%host_syntax",
    "{clang}/clang++ -x cuda -std=c++17 --cuda-host-only --cuda-gpu-arch=sm_90a "
    "--cuda-path={cuda} -nocudalib -Wno-unknown-cuda-version -isystem {cuda}/include/cccl "
    "-I {shim} -I {src}/include".format(clang=config.clang_dir, cuda=cuda, shim=shim, src=src)))
import shutil
clangd = os.path.join(config.clang_dir, "clangd")
if not os.path.exists(clangd):
    clangd = shutil.which("clangd-19") or os.path.join(config.llvm_tools_dir, "clangd")
if os.path.exists(clangd):
    config.available_features.add("clangd")
    config.substitutions.append(("%clangd", clangd))
if config.nvcc and os.path.exists(config.nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(("%cuda_nvcc", config.nvcc))
    # Blackwell: compute_100a both ways (plain -arch=sm_100a fails in ptxas).
    config.substitutions.append(("%sm100_nvcc", "{} -std=c++17 -I {}/include "
        "-gencode=arch=compute_100a,code=sm_100a".format(config.nvcc, src)))
if config.cuobjdump and os.path.exists(config.cuobjdump):
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", config.cuobjdump))
