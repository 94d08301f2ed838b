#!/usr/bin/env bash
# Style and static checks of the C++ sources.
#
#   bash scripts/lint.sh [--all] [--tidy] [FILES...]
#
# With no FILES (or --all): every tracked *.cpp / *.h under plugin/,
# test/unit/, test/threads/, test/fuzz/ and test/oracle/. Each file is checked with
# `clang-format-19 --dry-run -Werror` against the root .clang-format; the
# files that would change are named with the command that fixes them.
# --tidy also runs clang-tidy-19 (root .clang-tidy) on the .cpp files among
# them, which needs a compile_commands.json: $LINT_BUILD (default build/)
# configured with -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or, failing that, one
# made from its build.ninja (`ninja -t compdb`). Headers are checked through
# the .cpp files that include them (HeaderFilterRegex).
# Other variables: LINT_JOBS (parallel clang-tidy runs, default nproc),
# LINT_VERBOSE=1 (print clang-format's own report for each failing file).
# Installs clang-format-19 (and clang-tidy-19 with --tidy) when missing.
# Exit status: 0 clean, 1 something to fix, 2 usage or set-up error.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

tidy=0
files=()
for a in "$@"; do
  case $a in
    --all) ;;
    --tidy) tidy=1 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "lint: unknown option $a (see --help)" >&2; exit 2 ;;
    *) files+=("$a") ;;
  esac
done

# The tools, as scripts/deps.sh installs packages: only what is missing,
# a few tries because mirrors hiccup.
need=()
pkgs=(clang-format-19)
[ "$tidy" = 1 ] && pkgs+=(clang-tidy-19)
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "lint: installing ${need[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  for try in 1 2 3; do
    if $SUDO apt-get update -qq &&
       DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null; then
      break
    fi
    [ "$try" = 3 ] && { echo "lint: apt-get failed" >&2; exit 2; }
    sleep 10
  done
fi

if [ ${#files[@]} -eq 0 ]; then
  mapfile -t files < <(git ls-files -- 'plugin/*.cpp' 'plugin/*.h' 'test/unit/*.cpp' 'test/unit/*.h' \
    'test/threads/*.cpp' 'test/threads/*.h' 'test/fuzz/*.cpp' 'test/fuzz/*.h' \
    'test/oracle/*.cpp' 'test/oracle/*.h')
fi
cxx=()
for f in "${files[@]}"; do
  case $f in
    *.cpp|*.cc|*.h|*.hpp) ;;
    *) echo "lint: skipping $f (not C++)"; continue ;;
  esac
  # Tracked but deleted in the work tree (a rename in progress): nothing to check.
  [ -f "$f" ] || { echo "lint: skipping $f (no such file)"; continue; }
  cxx+=("$f")
done
if [ ${#cxx[@]} -eq 0 ]; then
  echo "lint: no C++ files to check"
  exit 0
fi

status=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# clang-format
echo "==== clang-format-19 ($(clang-format-19 --version | grep -o 'version [0-9.]*')): ${#cxx[@]} files"
bad=()
for f in "${cxx[@]}"; do
  if ! clang-format-19 --dry-run -Werror "$f" > "$tmp/fmt" 2>&1; then
    bad+=("$f")
    n=$(grep -c 'error: code should be clang-formatted' "$tmp/fmt" || true)
    echo "  $f: $n place(s) not formatted"
    [ "${LINT_VERBOSE:-0}" = 1 ] && sed 's/^/    /' "$tmp/fmt"
  fi
done
if [ ${#bad[@]} -gt 0 ]; then
  status=1
  echo "lint: ${#bad[@]} of ${#cxx[@]} files are not clang-formatted (.clang-format: LLVM style)."
  echo "  See the changes:  clang-format-19 FILE | diff -u FILE -"
  echo "  Fix them:         clang-format-19 -i FILE..., here:"
  line="    clang-format-19 -i"
  for f in "${bad[@]}"; do
    if [ $(( ${#line} + ${#f} )) -gt 78 ]; then echo "$line \\"; line="      $f"; else line="$line $f"; fi
  done
  echo "$line"
else
  echo "lint: clang-format clean"
fi

# clang-tidy
if [ "$tidy" = 1 ]; then
  build=${LINT_BUILD:-build}
  db=""
  if [ -f "$build/compile_commands.json" ]; then
    db=$build
  elif [ -f "$build/build.ninja" ] && command -v ninja >/dev/null; then
    # Configured without CMAKE_EXPORT_COMPILE_COMMANDS: ninja knows the commands.
    mkdir -p "$tmp/db"
    if ninja -C "$build" -t compdb > "$tmp/db/compile_commands.json" 2>/dev/null; then
      db=$tmp/db
      echo "lint: no $build/compile_commands.json; using one made by 'ninja -C $build -t compdb'"
    fi
  fi
  if [ -z "$db" ]; then
    echo "lint: --tidy needs $build/compile_commands.json: configure with" >&2
    echo "  cmake -S . -B $build -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON   (or set LINT_BUILD=DIR)" >&2
    exit 2
  fi
  # The .cpp files the database compiles (headers come in through them).
  mapfile -t known < <(python3 - "$db/compile_commands.json" "$root" <<'EOF'
import json, os, sys
root = sys.argv[2]
for e in json.load(open(sys.argv[1])):
    f = os.path.normpath(os.path.join(e.get("directory", ""), e["file"]))
    if f.startswith(root + "/") and f.endswith((".cpp", ".cc")):
        print(os.path.relpath(f, root))
EOF
  )
  units=()
  for f in "${cxx[@]}"; do
    case $f in *.cpp|*.cc) ;; *) continue ;; esac
    if printf '%s\n' "${known[@]}" | grep -qxF "$f"; then
      units+=("$f")
    else
      echo "lint: clang-tidy skips $f (not in $db/compile_commands.json)"
    fi
  done
  echo "==== clang-tidy-19: ${#units[@]} translation units (checks: .clang-tidy)"
  if [ ${#units[@]} -gt 0 ]; then
    mkdir -p "$tmp/tidy"
    # One log per unit, so parallel runs do not interleave.
    printf '%s\n' "${units[@]}" | xargs -P "${LINT_JOBS:-$(nproc)}" -I{} sh -c \
      'clang-tidy-19 -p "$1" --quiet "$2" > "$3/$(echo "$2" | tr / _).log" 2>&1 || true' \
      _ "$db" {} "$tmp/tidy"
    cat "$tmp"/tidy/*.log > "$tmp/tidy.all"
    # A header included by several units is reported once.
    grep -E '^[^ ].*: (warning|error): ' "$tmp/tidy.all" | sed "s,^$root/,," | sort -u > "$tmp/tidy.found" || true
    if grep -q 'Stack dump' "$tmp/tidy.all"; then
      echo "lint: clang-tidy crashed on some unit:"; grep -A3 'Stack dump' "$tmp/tidy.all" | head -20
      status=1
    fi
    if [ -s "$tmp/tidy.found" ]; then
      status=1
      cat "$tmp/tidy.found"
      echo "lint: clang-tidy: $(wc -l < "$tmp/tidy.found") finding(s); by check:"
      sed 's/.*\[\([^]]*\)\]$/\1/' "$tmp/tidy.found" | sort | uniq -c | sort -rn | sed 's/^/  /'
      echo "  Details: clang-tidy-19 -p DIR FILE, DIR holding compile_commands.json ($build); some have fixes (--fix)"
    else
      echo "lint: clang-tidy clean"
    fi
  fi
fi
exit $status
