#!/usr/bin/env bash
# tests/run.sh -- run every built test under a timeout; PASS / FAIL / SKIP per test and
# a final "N passed, N failed, N skipped" line.  Exit 0 iff nothing failed.
#   exit 0 -> PASS, 77 -> SKIP (no usable GPU), anything else (timeout: 124) -> FAIL.
# Usage: tests/run.sh [TEST ...]   (default: every executable in tests/bin, tests/bin/asan
# (the sanitizer builds, shown as asan/NAME) and tests/cli/test_*.sh)
# The GPU tests (a bin/NAME built from gpu/NAME.cu) run a second time under compute-sanitizer
# memcheck, as memcheck/NAME (TEST_QUICK=1 in their environment: a test with a smaller mode
# uses it), and those named in TEST_RACECHECK (default: test_tensorcore_sw test_sparsegrid_fam_gpu) under racecheck,
# as racecheck/NAME; --error-exitcode=1, so any report fails.  They SKIP where the plain run
# of the same test skipped (no GPU) or compute-sanitizer is not installed (SANITIZER names
# it: a name is looked for in PATH, then next to nvcc; a path is used as given or not at all).  TEST_SANITIZE_TIMEOUT (default
# 300) bounds each; TEST_SANITIZE=0 leaves them out.  Given explicitly: memcheck:PATH.
# --require-cuda-init=no: a GPU test whose checks are host-only (it makes no CUDA call, e.g.
# test_sparsegrid_jobcheck) passes under the sanitizer as it does plainly, instead of failing
# with "terminated before first instrumented API call".
# TEST_TIMEOUT (seconds, default 600) bounds each test.  Sanitizer reports are fatal
# (ASAN_OPTIONS / UBSAN_OPTIONS below unless set; a machine where LeakSanitizer cannot run,
# e.g. under some ptrace restrictions, gets detect_leaks=0 after a probe).
# A test that runs make itself gets a make of its own: the flags of the make that started this
# runner (make -j2 test: MAKEFLAGS, its jobserver, MAKELEVEL's "Entering directory" lines) are
# not passed on.
set -u
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
timeout_s=${TEST_TIMEOUT:-600}
if [ $# -gt 0 ]; then tests=("$@"); else
  tests=()
  for t in "$here"/bin/* "$here"/bin/asan/*; do [ -f "$t" ] && [ -x "$t" ] && tests+=("$t"); done
  for t in "$here"/cli/test_*.sh; do [ -f "$t" ] && tests+=("$t"); done
  if [ "${TEST_SANITIZE:-1}" != 0 ]; then # after the plain runs, whose SKIP they follow
    for t in "$here"/bin/*; do
      [ -f "$t" ] && [ -x "$t" ] && [ -f "$here/gpu/$(basename "$t").cu" ] || continue
      tests+=("memcheck:$t")
      case " ${TEST_RACECHECK-test_tensorcore_sw test_sparsegrid_fam_gpu} " in *" $(basename "$t") "*) tests+=("racecheck:$t");; esac
    done
  fi
fi
sanitizer=${SANITIZER:-compute-sanitizer}
if [[ $sanitizer != */* ]] && ! command -v "$sanitizer" >/dev/null 2>&1; then # a path is used as given
  nvcc_dir=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
  [ -x "$nvcc_dir/compute-sanitizer" ] && sanitizer=$nvcc_dir/compute-sanitizer
fi
declare -A plain_rc=() # the exit status of each test's plain run in this invocation
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
probe=$here/bin/asan/.lsan-probe # an empty sanitized program (make asan-build): can LSan run?
if [ -x "$probe" ] && ! "$probe" >/dev/null 2>&1 && ASAN_OPTIONS=detect_leaks=0 "$probe" >/dev/null 2>&1; then
  echo "note: LeakSanitizer cannot run here: leak checks off (detect_leaks=0)"
  export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
fi
pass=0; fail=0; skip=0; failed=()
mkdir -p "$here/logs"
for t in "${tests[@]}"; do
  tool=
  case $t in memcheck:*|racecheck:*) tool=${t%%:*}; t=${t#*:};; esac
  case $t in /*) ;; *) t=$PWD/$t ;; esac # tests run from the repository root: paths as given here
  name=$(basename "$t")
  case $t in */bin/asan/*) name=asan/$name ;; esac
  [ -n "$tool" ] && name=$tool/$name
  log="$here/logs/${name//\//-}.log"
  start=$(date +%s%N)
  if [ -z "$tool" ]; then
    (cd "$top" && timeout "$timeout_s" "$t") >"$log" 2>&1
    rc=$?
    plain_rc[$t]=$rc
  elif [ "${plain_rc[$t]-}" = 77 ]; then
    echo "SKIP: the plain run skipped (no usable GPU)" >"$log"; rc=77
  elif ! command -v "$sanitizer" >/dev/null 2>&1; then
    echo "SKIP: $sanitizer not installed" >"$log"; rc=77
  else
    (cd "$top" && TEST_QUICK=1 timeout "${TEST_SANITIZE_TIMEOUT:-300}" "$sanitizer" --tool "$tool" --error-exitcode=1 --require-cuda-init=no "$t") >"$log" 2>&1
    rc=$?
  fi
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  case $rc in
    0)  pass=$((pass+1)); echo "PASS  $name (${secs}s)";;
    77) skip=$((skip+1)); echo "SKIP  $name: $(grep -m1 '^SKIP' "$log" | sed 's/^SKIP: *//')";;
    *)  fail=$((fail+1)); failed+=("$name")
        [ $rc -eq 124 ] && why="timeout after $([ -n "$tool" ] && echo "${TEST_SANITIZE_TIMEOUT:-300}" || echo "$timeout_s")s" || why="exit $rc"
        echo "FAIL  $name ($why); last lines of $log:"; tail -n 15 "$log" | sed 's/^/      /';;
  esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
