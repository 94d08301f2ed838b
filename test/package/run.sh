#!/usr/bin/env bash
# libts as a package: installs the build into a scratch prefix, then
#  1. builds examples/cmake-project against it with CMake + Ninja
#     (find_package(libts) + libts_add_kernels): the rewrite's depfile names
#     the rewritten file, a second build does nothing, touching a header the
#     kernel includes runs the rewrite and nvcc again, and a kernel with a
#     libts error fails the build with its file:line:col;
#  2. drives libts-nvcc: compiles a kernel file (nvcc command line the same
#     on every run, no temporary names), stops on a libts error before nvcc
#     with clang's diagnostic and a non-zero status, passes a file without
#     libts through to nvcc untouched;
#  3. checks that rewrites are byte-identical across runs, output
#     directories, relative and absolute spellings of the source, and
#     between libts-nvcc and the CMake build;
#  4. runs libts-nvcc under ccache, as its launcher (LIBTS_NVCC_LAUNCHER) and
#     around it: a second compile hits, a changed header misses;
#  5. runs libts-clangd --check with the .clangd it prints, alone and with a
#     compile_commands.json holding libts-nvcc commands (as Bear records them).
# No GPU is needed: building is the test.
#
#   run.sh <libts build dir> <plugin (libts.so of that build)> <libts source dir>
set -eu
build=$(cd "$1" && pwd)
plugin=$2
src=$(cd "$3" && pwd)
work=$build/test/package-work
nvcc=${LIBTS_TEST_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
clang=${LIBTS_CLANG:-/usr/lib/llvm-19/bin/clang++}
[ -x "$nvcc" ] || { echo "SKIP: no nvcc"; exit 77; }
export PATH=$(dirname "$nvcc"):$PATH

rm -rf "$work"
mkdir -p "$work"
cd "$work"
step() { echo "==== $*"; }
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "$1 lacks '$2'"; }; }
lacks() { ! grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "$1 has '$2'"; }; }

step "install"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" --component libts > install.log
for f in lib/libts.so include/ts/ts.h include/ts/launch.h bin/libts-nvcc bin/libts-clangd bin/libts-clang++ \
    lib/cmake/libts/libtsConfig.cmake lib/cmake/libts/libtsConfigVersion.cmake \
    lib/cmake/libts/libtsKernels.cmake share/libts/shim/texture_fetch_functions.h \
    share/doc/libts/LICENSE; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/bin/libts-nvcc" ] && [ -x "$prefix/bin/libts-clangd" ] && [ -x "$prefix/bin/libts-clang++" ] \
  || fail "drivers not executable"
export PATH=$prefix/bin:$PATH

step "CMake project: configure and build"
cp -r "$src/examples/cmake-project" example
cmake_project() { # <source> <build>
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90a ${LIBTS_CLANG:+-DLIBTS_CLANG="$LIBTS_CLANG"}
}
cmake_project example proj > configure.log 2>&1 || { cat configure.log; fail "configure"; }
ninja -C proj > build.log 2>&1 || { cat build.log; fail "build"; }
has build.log "libts: analysing and rewriting reduce_kernel.cu"
[ -x proj/reduce ] || fail "no executable"
out=$work/proj/libts/reduce/reduce_kernel.cu
[ -s "$out" ] || fail "no rewritten source"
has "$out" "kernel_traits<&::reduce_sum>"
has "$out" "#line 1 \"$work/example/reduce_kernel.cu\""
# The depfile's target is the rewritten file (clang -MT), and it lists the
# kernel's headers.
[ "$(head -n 1 "$out.d")" = "$out: \\" ] || fail "depfile target: $(head -n 1 "$out.d")"
has "$out.d" "$work/example/reduce_config.h"

step "CMake project: nothing to do on a second build"
ninja -C proj -d explain > noop.log 2>&1
has noop.log "no work to do"

step "CMake project: a header change runs the rewrite again"
before=$(stat -c %Y.%y "$out")
sleep 1
touch example/reduce_config.h
ninja -C proj > header.log 2>&1 || { cat header.log; fail "rebuild"; }
has header.log "libts: analysing and rewriting reduce_kernel.cu"
has header.log "Building CUDA object"
[ "$(stat -c %Y.%y "$out")" != "$before" ] || fail "rewritten source not rewritten"
ninja -C proj > noop2.log 2>&1
has noop2.log "no work to do"

step "CMake project: sm_90a by default, the user's architecture when given"
# CMake fills CMAKE_CUDA_ARCHITECTURES with nvcc's default (75) when the user
# does not: libts_add_kernels builds for sm_90a instead. 80, chosen, stays
# (with a warning: libts kernels need sm_90a).
cmake -S example -B proj-default -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CUDA_COMPILER="$nvcc" ${LIBTS_CLANG:+-DLIBTS_CLANG="$LIBTS_CLANG"} > default.log 2>&1 \
  || { cat default.log; fail "configure without architectures"; }
lacks default.log "CUDA_ARCHITECTURES is"
ninja -C proj-default -v > default-build.log 2>&1 || { cat default-build.log; fail "build without architectures"; }
has default-build.log "arch=compute_90a,code=\[compute_90a,sm_90a\]"
has proj-default/libts/reduce/args-CUDA.txt "cuda-architectures=90a"
cmake -S example -B proj-80 -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CUDA_ARCHITECTURES=80 \
  -DCMAKE_CUDA_COMPILER="$nvcc" ${LIBTS_CLANG:+-DLIBTS_CLANG="$LIBTS_CLANG"} > arch80.log 2>&1 \
  || { cat arch80.log; fail "configure with 80"; }
has arch80.log "CUDA_ARCHITECTURES is '80'"

step "CMake project: a libts error fails the build at the user's line"
cp -r "$src/examples/cmake-project" broken
sed -i 's/^    chunks.release(s);$/    (void)s;/' broken/reduce_kernel.cu
line=$(grep -n 'auto s = chunks.wait();' broken/reduce_kernel.cu | cut -d: -f1)
cmake_project broken broken-build > broken-configure.log 2>&1 || { cat broken-configure.log; fail "configure"; }
if ninja -C broken-build > broken.log 2>&1; then cat broken.log; fail "a broken kernel built"; fi
has broken.log "$work/broken/reduce_kernel.cu:$line:[0-9]*: error: stage of 'Chunk' waited for in the loop is not released in the same iteration \[-Wts-bracketing\]"
lacks broken.log "Building CUDA object"

step "libts-nvcc: compile a kernel file"
mkdir nv
cp example/reduce_kernel.cu example/reduce.h example/reduce_config.h nv/
sed 's/^    chunks.release(s);$/    (void)s;/' nv/reduce_kernel.cu > nv/bad.cu
printf '#include <cstdio>\n__global__ void k(int *p) { *p = 1; }\nint main() { return 0; }\n' > nv/plain.cu
# nvcc that logs its command line (and compiles when asked to).
cat > fake-nvcc <<EOF
#!/bin/sh
echo "\$*" >> "$work/nvcc.log"
[ -n "\${FAKE_NVCC_COMPILE:-}" ] && exec "$nvcc" "\$@"
for a in "\$@"; do [ "\$prev" = -o ] && : > "\$a"; prev=\$a; done
exit 0
EOF
chmod +x fake-nvcc
export LIBTS_NVCC=$work/fake-nvcc
(cd nv && FAKE_NVCC_COMPILE=1 libts-nvcc -std=c++17 -arch=sm_90a -O3 -c reduce_kernel.cu -o obj/k.o) \
  > nvcc-run.log 2>&1 || { cat nvcc-run.log; fail "libts-nvcc"; }
[ -s nv/obj/k.o ] || fail "no object"
has nvcc.log "obj/k.o.libts.cu"
(cd nv && libts-nvcc -std=c++17 -arch=sm_90a -O3 -c reduce_kernel.cu -o obj/k.o)
[ "$(sed -n 1p nvcc.log)" = "$(sed -n 2p nvcc.log)" ] || fail "nvcc command lines differ: $(cat nvcc.log)"
lacks nvcc.log ".tmp "
echo "nvcc ran as: $(sed -n 1p nvcc.log)"

step "libts-nvcc: -o /dev/null writes nothing next to it"
: > nvcc.log
(cd nv && libts-nvcc -std=c++17 -arch=sm_90a -c reduce_kernel.cu -o /dev/null)
[ ! -e /dev/null.libts.cu ] || fail "libts-nvcc wrote /dev/null.libts.cu"
rewritten=$(sed -n 's/.* \([^ ]*null\.libts\.cu\) .*/\1/p' nvcc.log)
[ -n "$rewritten" ] || fail "no rewrite in the nvcc command: $(cat nvcc.log)"
[ ! -e "$rewritten" ] || fail "the rewrite $rewritten was left behind"

step "libts-nvcc: a libts error stops before nvcc"
: > nvcc.log
if (cd nv && libts-nvcc -arch=sm_90a -c bad.cu -o obj/bad.o) > bad.log 2>&1; then
  cat bad.log; fail "libts-nvcc accepted a broken kernel"
fi
has bad.log "$work/nv/bad.cu:$line:[0-9]*: error: .*\[-Wts-bracketing\]"
[ ! -s nvcc.log ] || fail "nvcc ran after a libts error: $(cat nvcc.log)"
[ ! -e nv/obj/bad.o ] || fail "object of a broken kernel"

step "libts-nvcc: a file without libts goes to nvcc unchanged"
(cd nv && LIBTS_CLANG=/bin/false libts-nvcc -arch=sm_90a -c plain.cu -o obj/plain.o)
[ "$(cat nvcc.log)" = "-arch=sm_90a -c plain.cu -o obj/plain.o" ] || fail "plain: $(cat nvcc.log)"

step "deterministic rewrites"
(cd / && libts-nvcc -std=c++17 -arch=sm_90a -O3 -c "$work/nv/reduce_kernel.cu" -o "$work/nv/other/k.o")
cmp nv/obj/k.o.libts.cu nv/other/k.o.libts.cu || fail "rewrite differs: relative/absolute source, output dir"
cp nv/obj/k.o.libts.cu first.cu
(cd nv && libts-nvcc -std=c++17 -arch=sm_90a -O3 -c reduce_kernel.cu -o obj/k.o)
cmp first.cu nv/obj/k.o.libts.cu || fail "rewrite differs between runs"
# The CMake build of the same file (its own build directory) writes the
# same bytes as libts-nvcc.
libts-nvcc --libts-rewrite=cmake-like.cu -O3 -DNDEBUG "$work/example/reduce_kernel.cu"
cmp cmake-like.cu "$out" || fail "CMake and libts-nvcc rewrites differ"
# The plugin itself: same bytes from another directory, and from a
# code-generating compile (-S) as from -fsyntax-only.
device=("$clang" -x cuda -std=c++17 --cuda-device-only --cuda-gpu-arch=sm_90a
  --cuda-path="$(dirname "$(dirname "$nvcc")")" -nocudalib -Wno-unknown-cuda-version
  -Wno-unknown-attributes -isystem "$(dirname "$(dirname "$nvcc")")/include/cccl"
  -idirafter "$src/tools/shim" -I "$src/include" -fplugin="$plugin")
mkdir -p raw/a raw/b
(cd raw/a && "${device[@]}" -fsyntax-only "$work/nv/reduce_kernel.cu" -Xclang -plugin-arg-ts -Xclang -emit=e.cu)
(cd raw/b && "${device[@]}" -S -o /dev/null "$work/nv/reduce_kernel.cu" -Xclang -plugin-arg-ts -Xclang -emit=e.cu)
cmp raw/a/e.cu raw/b/e.cu || fail "plugin rewrites differ (directory, -S vs -fsyntax-only)"

step "ccache: inside the driver (LIBTS_NVCC_LAUNCHER=ccache) and around it"
command -v ccache > /dev/null || fail "ccache is missing (scripts/deps.sh installs it)"
export CCACHE_DIR=$work/ccache CCACHE_BASEDIR=$work CCACHE_NOHASHDIR=1
hits() { ccache --print-stats | awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { s += $2 } END { print s + 0 }'; }
misses() { ccache --print-stats | awk '$1 == "cache_miss" { print $2 }'; }
nvk=(-std=c++17 -arch=sm_90a -O3 -c reduce_kernel.cu)
# Inside: ccache caches the nvcc step on the rewrite, whose name and bytes
# are the same from run to run.
(cd nv && LIBTS_NVCC=$nvcc LIBTS_NVCC_LAUNCHER=ccache libts-nvcc "${nvk[@]}" -o obj/in.o)
[ "$(hits)" = 0 ] && [ "$(misses)" = 1 ] || fail "ccache inside, first run: $(ccache --print-stats)"
rm nv/obj/in.o
(cd nv && LIBTS_NVCC=$nvcc LIBTS_NVCC_LAUNCHER=ccache libts-nvcc "${nvk[@]}" -o obj/in.o)
[ "$(hits)" = 1 ] && [ -s nv/obj/in.o ] || fail "ccache inside, second run missed: $(ccache --print-stats)"
# Around: ccache runs `libts-nvcc -E` (nvcc's own) and checks the driver
# with --version, which names the plugin's hash.
ccache -z > /dev/null
around() { (cd nv && LIBTS_NVCC=$nvcc CCACHE_COMPILERCHECK='%compiler% --version' \
  ccache "$prefix/bin/libts-nvcc" "${nvk[@]}" -o obj/around.o); }
around && around
[ "$(hits)" = 1 ] && [ "$(misses)" = 1 ] || fail "ccache around the driver: $(ccache --print-stats)"
# A header the kernel includes changes (its preprocessed text too): a miss.
echo "inline int libts_package_touch() { return 1; }" >> nv/reduce_config.h
around
[ "$(misses)" = 2 ] || fail "ccache around the driver hit after a header change: $(ccache --print-stats)"
unset CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR

step "libts-clang++: the flags CUDA 13 needs, libts's warning groups"
# From another directory, with nothing but the source: no "unknown"
# warnings (CUDA version, grid_constant, the ts- groups), the report.
(cd / && libts-clang++ --libts-report "$work/nv/reduce_kernel.cu") > cxx-good.log 2>&1 \
  || { cat cxx-good.log; fail "libts-clang++ on a good kernel"; }
has cxx-good.log "verification: PASSED"
lacks cxx-good.log "warning:"
if libts-clang++ nv/bad.cu > cxx-bad.log 2>&1; then cat cxx-bad.log; fail "libts-clang++ accepted a broken kernel"; fi
has cxx-bad.log "bad.cu:[0-9]*:[0-9]*: error: stage of 'Chunk' waited for in the loop is not released in the same iteration \[-Wts-bracketing\]"
libts-clang++ -Wno-error=ts-bracketing nv/bad.cu > cxx-downgraded.log 2>&1 \
  || { cat cxx-downgraded.log; fail "-Wno-error=ts-bracketing did not downgrade"; }
has cxx-downgraded.log "warning: stage of 'Chunk' waited for"
lacks cxx-downgraded.log "unknown warning option"
if libts-clang++ -Wno-error=ts-bracketng nv/bad.cu > cxx-typo.log 2>&1; then fail "a misspelt group passed"; fi
has cxx-typo.log "names no libts warning group"
libts-clang++ -O0 -c nv/reduce_kernel.cu -o cxx.cubin > cxx-obj.log 2>&1 || { cat cxx-obj.log; fail "libts-clang++ -c"; }
[ -s cxx.cubin ] || fail "libts-clang++ -c wrote no object"

step "libts-clangd"
if [ -x "${LIBTS_CLANGD:-}" ] || command -v clangd-19 > /dev/null; then
  mkdir ed
  cp nv/bad.cu nv/reduce_kernel.cu nv/reduce.h nv/reduce_config.h ed/
  libts-clangd --print-config > ed/.clangd
  (cd ed && libts-clangd --check=reduce_kernel.cu) > clangd-good.log 2>&1 || { cat clangd-good.log; fail "clangd on a good kernel"; }
  has clangd-good.log "All checks completed, 0 errors"
  rc=0; (cd ed && libts-clangd --check=bad.cu) > clangd-bad.log 2>&1 || rc=$?
  [ $rc -eq 1 ] || { cat clangd-bad.log; fail "clangd --check on an error: exit $rc, not 1"; }
  has clangd-bad.log "bad.cu:[0-9]*:[0-9]*: error: stage of 'Chunk' waited for in the loop is not released in the same iteration \[-Wts-bracketing\]"
  # Warnings, which clangd's own check never prints, show; exit status 0.
  { cat nv/reduce_kernel.cu; echo '__device__ int libts_no_value() {}'; } > ed/warn.cu
  (cd ed && libts-clangd --check=warn.cu) > clangd-warn.log 2>&1 || { cat clangd-warn.log; fail "clangd --check on a warning"; }
  has clangd-warn.log "warn.cu:[0-9]*:[0-9]*: warning: non-void function does not return a value"
  # A compilation database as Bear records libts-nvcc builds (nvcc flags,
  # the user's file): the .clangd turns the entries into clang's.
  mkdir ed/db
  cp ed/.clangd ed/*.cu ed/*.h ed/db/
  for f in reduce_kernel bad; do
    printf '{"directory": "%s", "file": "%s.cu", "arguments": ["%s", "-std=c++17", "-arch=sm_90a", "-O3", "-Xcompiler", "-Wall", "-c", "%s.cu", "-o", "obj/%s.o"]}' \
      "$work/ed/db" "$f" "$prefix/bin/libts-nvcc" "$f" "$f"
  done | sed 's/}{/},{/g; s/^/[/; s/$/]/' > ed/db/compile_commands.json
  (cd ed/db && libts-clangd --check=reduce_kernel.cu) > clangd-db-good.log 2>&1 || { cat clangd-db-good.log; fail "clangd with compile_commands.json on a good kernel"; }
  has clangd-db-good.log "Compile command from CDB is: .* -o obj/reduce_kernel.o"
  has clangd-db-good.log "All checks completed, 0 errors"
  if (cd ed/db && libts-clangd --check=bad.cu) > clangd-db-bad.log 2>&1; then cat clangd-db-bad.log; fail "clangd with compile_commands.json missed the error"; fi
  has clangd-db-bad.log "not released in the same iteration \[-Wts-bracketing\]"
else
  echo "(no clangd-19: skipped)"
fi

echo "==== package: all checks passed"
