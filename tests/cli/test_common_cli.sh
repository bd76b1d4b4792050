#!/usr/bin/env bash
# Command-line contract of common/bandwidth (the template every program follows):
# --help exits 0 and lists options with defaults; unknown or malformed options print one
# error line and exit 2; --max-mib at 1 and 65536 accepted (77 with no visible device), 65537
# refused; --check-device without a device: one SKIP line, 77.  Runs without a GPU.
. "$(dirname "$0")/lib.sh"
prog=common/bandwidth
cli_need "make all" $prog
expect 0 "$prog" --help | grep -q -- '--max-mib=V' || { echo "FAILED: --help lacks --max-mib"; fail=1; }
expect 2 "$prog" --bogus | grep -q "^error: unknown option '--bogus'" || { echo "FAILED: unknown option message"; fail=1; }
expect 2 "$prog" --reps=abc >/dev/null
expect 2 "$prog" --max-mib=0 >/dev/null
expect 2 "$prog" extra >/dev/null
# --max-mib both sides (accepted: 77 with no visible device), and --check-device's one SKIP line
CUDA_VISIBLE_DEVICES=-1 expect 77 "$prog" --max-mib=65536 >/dev/null
CUDA_VISIBLE_DEVICES=-1 expect 77 "$prog" --max-mib=1 >/dev/null
expect 2 "$prog" --max-mib=65537 | grep -q "out of range \[1, 65536\]" || { echo "FAILED: --max-mib=65537 message"; fail=1; }
out=$(CUDA_VISIBLE_DEVICES=-1 expect 77 "$prog" --check-device)
[ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '^SKIP: ' || { echo "FAILED: --check-device without a device: $out"; fail=1; }
cli_done
