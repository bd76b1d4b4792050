#!/usr/bin/env bash
# tests/run.sh -- run every built test under a timeout; PASS / FAIL / SKIP per test and
# a final "N passed, N failed, N skipped" line.  Exit 0 iff nothing failed.
#   exit 0 -> PASS, 77 -> SKIP (no usable GPU), anything else (timeout: 124) -> FAIL.
# Usage: tests/run.sh [TEST ...]   (default: every executable in tests/bin and tests/cli/test_*.sh)
# TEST_TIMEOUT (seconds, default 600) bounds each test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
timeout_s=${TEST_TIMEOUT:-600}
if [ $# -gt 0 ]; then tests=("$@"); else
  tests=()
  for t in "$here"/bin/*; do [ -x "$t" ] && tests+=("$t"); done
  for t in "$here"/cli/test_*.sh; do [ -f "$t" ] && tests+=("$t"); done
fi
pass=0; fail=0; skip=0; failed=()
mkdir -p "$here/logs"
for t in "${tests[@]}"; do
  name=$(basename "$t")
  log="$here/logs/$name.log"
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
