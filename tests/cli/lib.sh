# tests/cli/lib.sh -- sourced by every tests/cli/test_*.sh (command-line contract tests).
#
#   expect CODE CMD [ARGS...]  run CMD, print its output (stdout+stderr), and record a
#                              failure when its exit code is not CODE.  Failures go to a
#                              file, so a call inside $(...) or a pipeline still counts.
#   cli_fail MESSAGE           record a failure of any other check
#   cli_done                   exit 1 if any failure was recorded, else 0
#   cli_need HINT PROG...      exit 1 (FAILED: PROG not built (HINT)) unless every PROG is built
#   cli_refused NAME RE OUT CMD [ARGS...]
#                              CMD must exit 2 with ONE line of output matching the ERE RE
#                              and create neither OUT nor OUT.tmp (the bad-input contract)
#   cli_nodev_ok NAME CMD [ARGS...]
#                              every option of CMD accepted: exit 77 (run it with no visible
#                              device, CUDA_VISIBLE_DEVICES=-1, so that a GPU experiment stops at
#                              device_require after checking its options)
#   cli_refused_line NAME ERE CMD [ARGS...]
#                              CMD must exit 2 with ONE line 'error: ...ERE'
#   cli_awk_refused SCRIPT NAME TEXT
#                              awk -f SCRIPT on TEXT (printf %b) must exit 2 with one line
#                              'error: ...' on stderr and nothing on stdout
#   hm_hand_mesh MESH [WANT]   hashmesh's hand-checked AMR mesh (coarse 2 x 1, levmax 1: the
#                              left coarse cell unrefined, the right one refined into four) to
#                              MESH, and its neighbours (Listing 2: left right bottom top, one
#                              line a cell) to WANT
#   cli_mpi_need               exit 77 (SKIP) unless the launcher common/mpirun.sh runs exists
#                              (mpirun, or the first word of $MPIRUN)
#   $cli_mpirun                common/mpirun.sh (absolute path): the one MPI launch command
#                              (mpirun plus -q --oversubscribe, and --allow-run-as-root as root)
#   $cli_tmp                   scratch directory, removed when the test exits
#   $fail                      0; a test sets it to 1 for a failure it reports itself
# Sourcing this file also sets `set -u` (an unset variable is an error).
set -u
fail=0
cli_tmp=$(mktemp -d)
trap 'rm -rf "$cli_tmp"' EXIT
cli_failures="$cli_tmp/.failures"
: >"$cli_failures"

cli_mpirun="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/common/mpirun.sh"
cli_mpi_need() {
  local l=${MPIRUN:-mpirun}
  command -v "${l%% *}" >/dev/null 2>&1 || { echo "SKIP: MPI launcher '${l%% *}' not installed (Open MPI: openmpi-bin)"; exit 77; }
}

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

cli_need() {
  local hint=$1 p
  shift
  for p in "$@"; do [ -x "$p" ] || { echo "FAILED: $p not built ($hint)"; exit 1; }; done
}

cli_refused() {
  local name=$1 re=$2 outf=$3 out rc
  shift 3
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 2 ] || cli_fail "$name -> exit $rc, want 2 ($out)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || cli_fail "$name: not one line: $out"
  printf '%s\n' "$out" | grep -Eq "$re" || cli_fail "$name: '$out' does not match '$re'"
  { [ -e "$outf" ] || [ -e "$outf.tmp" ]; } && cli_fail "$name: output created"
  return 0
}

cli_awk_refused() {
  local awkp=$1 name=$2 rc
  printf '%b' "$3" >"$cli_tmp/$name.txt"
  awk -f "$awkp" "$cli_tmp/$name.txt" >"$cli_tmp/$name.out" 2>"$cli_tmp/$name.err"; rc=$?
  [ $rc -eq 2 ] || cli_fail "$name: exit $rc, want 2"
  [ -s "$cli_tmp/$name.out" ] && cli_fail "$name: wrote to stdout"
  [ "$(wc -l <"$cli_tmp/$name.err")" -eq 1 ] && grep -q '^error: ' "$cli_tmp/$name.err" ||
    { cli_fail "$name: not one error line"; cat "$cli_tmp/$name.err"; }
  return 0
}

hm_hand_mesh() {
  printf 'amr2d 2 1 1\n0 0 0\n3 1 1\n2 0 1\n3 0 1\n2 1 1\n' >"$1"
  [ $# -lt 2 ] || printf '0 2 0 0\n4 1 3 1\n0 3 2 4\n2 3 3 1\n0 1 2 4\n' >"$2"
}

cli_done() {
  if [ -s "$cli_failures" ] || [ "${fail:-0}" -ne 0 ]; then
    echo "$(basename "$0"): $(wc -l <"$cli_failures") recorded failure(s)"
    exit 1
  fi
  echo "$(basename "$0"): ok"
  exit 0
}

cli_nodev_ok() {
  local name=$1 out rc
  shift
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 77 ] || cli_fail "$name: exit $rc, want 77 (accepted, no device): $(printf '%s\n' "$out" | head -2)"
  return 0
}

cli_refused_line() {
  local name=$1 re=$2 out rc
  shift 2
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 2 ] || cli_fail "$name: exit $rc, want 2: $(printf '%s\n' "$out" | head -2)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -Eq "^error: .*$re" ||
    cli_fail "$name: want one line 'error: ...$re', got: $out"
  return 0
}
