#!/usr/bin/env bash
# tests/run.sh -- run every built test under a timeout; PASS / FAIL / SKIP per test and
# a final "N passed, N failed, N skipped" line.  Exit 0 iff nothing failed.
#   exit 0 -> PASS, 77 -> SKIP (no usable GPU), anything else (timeout: 124) -> FAIL.
# Usage: tests/run.sh [TEST ...]   (default: every executable in tests/bin, tests/bin/asan
# (the sanitizer builds, shown as asan/NAME) and tests/cli/test_*.sh)
# TEST_TIMEOUT (seconds, default 600) bounds each test.  Sanitizer reports are fatal
# (ASAN_OPTIONS / UBSAN_OPTIONS below unless set; a machine where LeakSanitizer cannot run,
# e.g. under some ptrace restrictions, gets detect_leaks=0 after a probe).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
timeout_s=${TEST_TIMEOUT:-600}
if [ $# -gt 0 ]; then tests=("$@"); else
  tests=()
  for t in "$here"/bin/* "$here"/bin/asan/*; do [ -f "$t" ] && [ -x "$t" ] && tests+=("$t"); done
  for t in "$here"/cli/test_*.sh; do [ -f "$t" ] && tests+=("$t"); done
fi
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
  case $t in /*) ;; *) t=$PWD/$t ;; esac # tests run from the repository root: paths as given here
  name=$(basename "$t")
  case $t in */bin/asan/*) name=asan/$name ;; esac
  log="$here/logs/${name//\//-}.log"
  start=$(date +%s%N)
  (cd "$top" && timeout "$timeout_s" "$t") >"$log" 2>&1
  rc=$?
  secs=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  case $rc in
    0)  pass=$((pass+1)); echo "PASS  $name (${secs}s)";;
    77) skip=$((skip+1)); echo "SKIP  $name: $(grep -m1 '^SKIP' "$log" | sed 's/^SKIP: *//')";;
    *)  fail=$((fail+1)); failed+=("$name")
        [ $rc -eq 124 ] && why="timeout after ${timeout_s}s" || why="exit $rc"
        echo "FAIL  $name ($why); last lines of $log:"; tail -n 15 "$log" | sed 's/^/      /';;
  esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
