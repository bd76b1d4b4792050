#!/usr/bin/env bash
# tests/results-ref/run_sums.sh PERFILE DIR... -- from a per-file log of the full `make run`
# (lines 'DIR FILE RC SECONDS', as in full_run_per_file_76d4bc6_h200.txt), each DIR's seconds
# summed over the files its `make run` makes now (the host: and gpu: lines of `make run-list`)
# and over its LONG_DATA (the long: line, made with FULL=1). Valid only for directories whose
# commands did not change since the log was measured (only their grouping into GPU_DATA and
# LONG_DATA): the caller names them. A file of the lists missing from the log, or one cut or
# failed there (RC not 0), is an error (exit 1): a sum would hide it.
# Prints the table on stdout (tests/cli/test_run_sums_cli.sh re-derives the committed one).
set -u
[ $# -ge 2 ] || { echo "usage: run_sums.sh PERFILE DIR..." >&2; exit 2; }
log=$1; shift
[ -r "$log" ] || { echo "run_sums.sh: cannot read $log" >&2; exit 2; }
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(sed -n '1s/^# *//p' "$log")
rows=""
for d in "$@"; do
  list=$(make -s --no-print-directory -C "$root/$d" run-list) || { echo "run_sums.sh: make run-list failed in $d" >&2; exit 1; }
  def=$(printf '%s\n' "$list" | sed -n 's/^\(host\|gpu\): *//p' | tr ' ' '\n' | sed '/^$/d')
  long=$(printf '%s\n' "$list" | sed -n 's/^long: *//p' | tr ' ' '\n' | sed '/^$/d')
  row=$(awk -v d="$d" -v def="$(printf '%s ' $def)" -v long="$(printf '%s ' $long)" '
    BEGIN { nd = split(def, D, " "); nl = split(long, L, " ") }
    /^#/ { next }
    $1 == d { rc[$2] = $3; s[$2] = $4 }
    function sum(n, F,   i, t) {
      t = 0
      for (i = 1; i <= n; i++) {
        if (!(F[i] in s)) { printf "run_sums.sh: %s %s is not in the log\n", d, F[i] > "/dev/stderr"; bad = 1; continue }
        if (rc[F[i]] != "0") { printf "run_sums.sh: %s %s has rc %s in the log\n", d, F[i], rc[F[i]] > "/dev/stderr"; bad = 1; continue }
        t += s[F[i]]
      }
      return t
    }
    END { a = sum(nd, D); b = sum(nl, L); if (bad) exit 1
          printf "%s %d %.1f %d %.1f %.1f\n", d, nd, a, nl, b, a + b }' "$log") || exit 1
  rows="$rows$row
"
done
# the table only once every directory summed (a refusal prints nothing on stdout)
echo "# derived: by tests/results-ref/run_sums.sh from $(basename "$log") ($src) and \`make run-list\` of each directory"
echo "# default_s: the files \`make run\` makes (host: and gpu: lines); long_s: the LONG_DATA files (make run FULL=1 adds them); full_s = default_s + long_s"
echo "dir default_files default_s long_files long_s full_s"
printf '%s' "$rows"
