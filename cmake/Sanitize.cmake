# LIBTS_SANITIZE=ON: the plugin, the core layers and every test program are
# built with AddressSanitizer and UndefinedBehaviorSanitizer (clang only, as
# the fuzzer needs it too), and with libFuzzer's coverage hooks so one build
# serves the sanitized suite and the fuzzer (scripts/sanitize.sh).
#
# The plugin runs inside clang++ and clangd, which are not sanitized: the
# suite reaches them through wrappers that preload the ASan runtime
# (LIBTS_CLANG_DIR), so the plugin finds it when clang loads it.
option(LIBTS_SANITIZE "Build with ASan + UBSan and fuzzer coverage (clang only)" OFF)
set(LIBTS_CLANG_DIR ${LLVM_TOOLS_BINARY_DIR})
set(LIBTS_ASAN_RUNTIME "")
if(NOT LIBTS_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "LIBTS_SANITIZE needs clang (configure with CXX=clang++-19)")
endif()

# vptr needs RTTI, which clang's libraries are built without.
set(LIBTS_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize=vptr
    -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options(${LIBTS_SANITIZER_FLAGS} -fsanitize=fuzzer-no-link
  -include ${CMAKE_CURRENT_LIST_DIR}/llvm-asan-shim.h)
add_link_options(-fsanitize=address,undefined)

execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libclang_rt.asan-x86_64.so
  OUTPUT_VARIABLE LIBTS_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${LIBTS_ASAN_RUNTIME}")
  message(FATAL_ERROR "libts: no ASan runtime at '${LIBTS_ASAN_RUNTIME}'")
endif()

# Leaks are clang's (it frees nothing at exit on purpose).
set(LIBTS_ASAN_OPTIONS "detect_leaks=0:abort_on_error=1:detect_odr_violation=0")
set(LIBTS_UBSAN_OPTIONS "print_stacktrace=1:halt_on_error=1")
set(LIBTS_SANITIZER_ENV ASAN_OPTIONS=${LIBTS_ASAN_OPTIONS} UBSAN_OPTIONS=${LIBTS_UBSAN_OPTIONS})
set(LIBTS_CLANG_DIR ${CMAKE_BINARY_DIR}/sanitize-bin)
foreach(tool clang++ clangd)
  set(real ${LLVM_TOOLS_BINARY_DIR}/${tool})
  if(tool STREQUAL "clangd" AND NOT EXISTS ${real})
    find_program(real_clangd NAMES clangd-19 clangd)
    set(real ${real_clangd})
  endif()
  file(WRITE ${LIBTS_CLANG_DIR}/${tool}
    "#!/bin/sh\n# ${tool} with the ASan runtime preloaded for a sanitized libts.so.\n"
    "export LD_PRELOAD=${LIBTS_ASAN_RUNTIME}\${LD_PRELOAD:+:\$LD_PRELOAD}\n"
    "export ASAN_OPTIONS=${LIBTS_ASAN_OPTIONS}\n"
    "export UBSAN_OPTIONS=${LIBTS_UBSAN_OPTIONS}\n"
    "exec ${real} \"$@\"\n")
  file(CHMOD ${LIBTS_CLANG_DIR}/${tool}
    PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
message(STATUS "libts: sanitized build; clang wrappers in ${LIBTS_CLANG_DIR}")
