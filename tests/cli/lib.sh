# tests/cli/lib.sh -- sourced by every tests/cli/test_*.sh (command-line contract tests).
#
#   expect CODE CMD [ARGS...]  run CMD, print its output (stdout+stderr), and record a
#                              failure when its exit code is not CODE.  Failures go to a
#                              file, so a call inside $(...) or a pipeline still counts.
#   cli_fail MESSAGE           record a failure of any other check
#   cli_done                   exit 1 if any failure was recorded, else 0
#   $cli_tmp                   scratch directory, removed when the test exits
cli_tmp=$(mktemp -d)
trap 'rm -rf "$cli_tmp"' EXIT
cli_failures="$cli_tmp/.failures"
: >"$cli_failures"

cli_fail() {
  echo "FAILED: $*" | tee -a "$cli_failures" >&2
}

expect() {
  local want=$1 out rc
  shift
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    cli_fail "$* -> exit $rc, want $want"
    printf '%s\n' "$out" | head -n 5 >&2
  fi
  printf '%s\n' "$out"
}

cli_done() {
  if [ -s "$cli_failures" ] || [ "${fail:-0}" -ne 0 ]; then
    echo "$(basename "$0"): $(wc -l <"$cli_failures") recorded failure(s)"
    exit 1
  fi
  echo "$(basename "$0"): ok"
  exit 0
}
