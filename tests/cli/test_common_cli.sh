#!/usr/bin/env bash
# Command-line contract of common/bandwidth (the template every program follows):
# --help exits 0 and lists options with defaults; unknown or malformed options print one
# error line and exit 2.  Runs without a GPU (these paths end before device_require).
. "$(dirname "$0")/lib.sh"
prog=common/bandwidth
cli_need "make all" $prog
expect 0 "$prog" --help | grep -q -- '--max-mib=V' || { echo "FAILED: --help lacks --max-mib"; fail=1; }
expect 2 "$prog" --bogus | grep -q "^error: unknown option '--bogus'" || { echo "FAILED: unknown option message"; fail=1; }
expect 2 "$prog" --reps=abc >/dev/null
expect 2 "$prog" --max-mib=0 >/dev/null
expect 2 "$prog" extra >/dev/null
cli_done
