#!/usr/bin/env bash
# Command-line contract of common/bandwidth (the template every program follows):
# --help exits 0 and lists options with defaults; unknown or malformed options print one
# error line and exit 2.  Runs without a GPU (these paths end before device_require).
set -u
prog=common/bandwidth
[ -x $prog ] || { echo "FAILED: $prog not built (make all)"; exit 1; }
fail=0
expect() { # expect CODE ARGS...
  want=$1; shift
  out=$("$prog" "$@" 2>&1); rc=$?
  if [ $rc -ne "$want" ]; then echo "FAILED: $prog $* -> exit $rc, want $want"; echo "$out" | head -5; fail=1; fi
  printf '%s\n' "$out"
}
expect 0 --help | grep -q -- '--max-mib=V' || { echo "FAILED: --help lacks --max-mib"; fail=1; }
expect 2 --bogus | grep -q "^error: unknown option '--bogus'" || { echo "FAILED: unknown option message"; fail=1; }
expect 2 --reps=abc >/dev/null
expect 2 --max-mib=0 >/dev/null
expect 2 extra >/dev/null
[ $fail -eq 0 ] && echo "test_common_cli: ok"
exit $fail
