#!/usr/bin/env bash
# tests/results-ref/cut_sum.sh CUTLOG RESTLOG DIR -- the seconds of `make -C DIR run FULL=1` from a
# run cut at a cap and the files it did not finish, timed afterwards one at a time:
#   CUTLOG: the cut run's output; its last progress line '[k/N] DIR FILE ... (elapsed E s)' names
#     the file being made when the cap cut it (make deletes that file) and the seconds before it;
#   RESTLOG: lines 'DIR FILE RC SECONDS' (a '#' line first: where they were measured) for files
#     k..N of the run, in any order.
# full_s = E + the RESTLOG seconds of files k..N. Valid only if DIR's commands did not change
# between the two measurements (the caller says so). The files k..N are today's `make run-list
# FULL=1` (host:, then gpu: lines, the order run-data.sh makes them) from position k on, and
# that list must have N entries and agree with FILE at position k; a file of them missing from
# RESTLOG, or not rc 0 there, is an error (exit 1); bad arguments exit 2.
# Prints the table on stdout (tests/cli/test_run_sums_cli.sh re-derives the committed one).
set -u
[ $# -eq 3 ] || { echo "usage: cut_sum.sh CUTLOG RESTLOG DIR" >&2; exit 2; }
cut=$1 rest=$2 d=$3
for f in "$cut" "$rest"; do [ -r "$f" ] || { echo "cut_sum.sh: cannot read $f" >&2; exit 2; }; done
root=$(cd "$(dirname "$0")/../.." && pwd)
list=$(make -s --no-print-directory -C "$root/$d" run-list FULL=1) || { echo "cut_sum.sh: make run-list failed in $d" >&2; exit 1; }
files=$(printf '%s\n' "$list" | sed -n 's/^\(host\|gpu\): *//p' | tr ' ' '\n' | sed '/^$/d')
last=$(grep "^\[[0-9]*/[0-9]*\] $d " "$cut" | tail -n 1)
[ -n "$last" ] || { echo "cut_sum.sh: no progress line of $d in $cut" >&2; exit 1; }
awk -v d="$d" -v last="$last" -v files="$(printf '%s ' $files)" -v cutname="$(basename "$cut")" -v restname="$(basename "$rest")" '
  BEGIN { n = split(files, F, " ")
          if (match(last, /^\[[0-9]+\/[0-9]+\]/) == 0) { print "cut_sum.sh: bad progress line: " last > "/dev/stderr"; exit 1 }
          split(substr(last, 2, RLENGTH - 2), kn, "/"); k = kn[1] + 0; N = kn[2] + 0
          split(last, w, " "); file = w[3]
          if (match(last, /\(elapsed [0-9]+ s\)/) == 0) { print "cut_sum.sh: no elapsed time in: " last > "/dev/stderr"; exit 1 }
          E = substr(last, RSTART + 9, RLENGTH - 12) + 0
          if (N != n) { printf "cut_sum.sh: the cut run made %d files, make run-list FULL=1 lists %d\n", N, n > "/dev/stderr"; exit 1 }
          if (F[k] != file) { printf "cut_sum.sh: file %d is %s in the cut run, %s in make run-list\n", k, file, F[k] > "/dev/stderr"; exit 1 } }
  /^#/ { if (FNR == 1) src = substr($0, 3); next }
  $1 == d { rc[$2] = $3; s[$2] = $4 }
  END { if (N == 0) exit 1
        t = 0
        for (i = k; i <= n; i++) {
          if (!(F[i] in s)) { printf "cut_sum.sh: %s %s is not in %s\n", d, F[i], restname > "/dev/stderr"; bad = 1; continue }
          if (rc[F[i]] != "0") { printf "cut_sum.sh: %s %s has rc %s in %s\n", d, F[i], rc[F[i]], restname > "/dev/stderr"; bad = 1; continue }
          t += s[F[i]] }
        if (bad) exit 1
        printf "# derived: by tests/results-ref/cut_sum.sh from %s (cut in file %d of %d, elapsed %d s before it) and %s (%s)\n", cutname, k, N, E, restname, src
        print "# first_s: the seconds before file k (the progress line); rest_s: files k..N timed one at a time; full_s = first_s + rest_s"
        print "dir first_files first_s rest_files rest_s full_s"
        printf "%s %d %d %d %.1f %.1f\n", d, k - 1, E, n - k + 1, t, E + t }' "$rest"
