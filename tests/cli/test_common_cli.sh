#!/usr/bin/env bash
# Command-line contract of common/bandwidth (the template every program follows):
# --help exits 0 and lists options with defaults; unknown or malformed options print one
# error line and exit 2; --max-mib at 1 and 65536 accepted (77 with no visible device), 65537
# refused; --check-device without a device: one SKIP line, on stderr, 77; with one visible GPU,
# --device=1 is out of range (exit 2; that part only where a GPU answers).  Runs without a GPU.
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
# the SKIP line goes to stderr (stdout stays empty: a script reading results from stdout gets
# nothing), and the exit status is 77 whatever the stream
CUDA_VISIBLE_DEVICES=-1 "$prog" --check-device >$cli_tmp/so 2>$cli_tmp/se; rc=$?
[ $rc -eq 77 ] && [ ! -s $cli_tmp/so ] && grep -q '^SKIP: no NVIDIA GPU/driver found' $cli_tmp/se ||
  { echo "FAILED: --check-device without a device: exit $rc, stdout '$(cat $cli_tmp/so)', stderr '$(cat $cli_tmp/se)'"; fail=1; }
# with one visible GPU, --device=1 (the count itself) is out of range: one line, exit 2, not a
# CUDA error from cudaSetDevice (exit 1); needs a GPU, so only checked where one answers
if CUDA_VISIBLE_DEVICES=0 "$prog" --check-device >/dev/null 2>&1; then
  out=$(CUDA_VISIBLE_DEVICES=0 expect 2 "$prog" --device=1)
  printf '%s\n' "$out" | grep -q -- '--device=1 out of range: this machine has 1 CUDA device' || { echo "FAILED: --device=1 with one GPU: $out"; fail=1; }
fi
cli_done
