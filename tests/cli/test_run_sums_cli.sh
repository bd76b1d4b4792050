#!/usr/bin/env bash
# tests/results-ref/run_sums.sh: the committed per-directory sums of the full run's per-file log
# (run_sums_76d4bc6_h200.txt, quoted by README.md's "Time") are what the script makes of the
# committed log and today's `make run-list` (so moving a file between GPU_DATA and LONG_DATA
# without re-deriving fails here); a file cut in the log, a file missing from it, and no
# arguments are refused.
. "$(dirname "$0")/lib.sh"
t=$cli_tmp
rs=tests/results-ref/run_sums.sh
log=tests/results-ref/full_run_per_file_76d4bc6_h200.txt
"$rs" $log simplex2d simplex3d >$t/sums 2>$t/err || cli_fail "run_sums.sh on the committed log: exit $? ($(cat $t/err))"
cmp -s $t/sums tests/results-ref/run_sums_76d4bc6_h200.txt ||
  cli_fail "run_sums_76d4bc6_h200.txt is not what run_sums.sh makes now: $(diff $t/sums tests/results-ref/run_sums_76d4bc6_h200.txt | head -5)"
# the sums add up: default_s + long_s = full_s, and full_s is the sum of every row of the directory
awk '!/^#/ && $1 != "dir" { if (sprintf("%.1f", $3 + $5) != $6) { print "bad " $0; exit 1 } }' $t/sums ||
  cli_fail "default_s + long_s != full_s in $(cat $t/sums)"
want=$(awk '$1 == "simplex2d" && !/^#/ { s += $4 } END { printf "%.1f", s }' $log)
[ "$(awk '$1 == "simplex2d" { print $6 }' $t/sums)" = "$want" ] || cli_fail "simplex2d full_s is not the sum of its log rows ($want)"
# a cut file (rc 124) and a missing file are refused
sed 's|^\(simplex2d results/simplex2d_fig5_map.dat\) 0 |\1 124 |' $log >$t/cut.txt
"$rs" $t/cut.txt simplex2d >/dev/null 2>$t/err && cli_fail "a cut file: exit 0"
grep -q 'simplex2d_fig5_map.dat has rc 124' $t/err || cli_fail "a cut file: $(cat $t/err)"
grep -v 'rho16/simplex2d_fig5_write.dat' $log >$t/miss.txt
"$rs" $t/miss.txt simplex2d >/dev/null 2>$t/err && cli_fail "a missing file: exit 0"
grep -q 'rho16/simplex2d_fig5_write.dat is not in the log' $t/err || cli_fail "a missing file: $(cat $t/err)"
"$rs" >/dev/null 2>&1; [ $? -eq 2 ] || cli_fail "no arguments: not exit 2"
# cut_sum.sh: hashmesh's FULL=1 seconds (README.md's "Time") = the cut run's seconds before its last
# progress line + the files from there on, timed one at a time; re-derived, and its refusals
cs=tests/results-ref/cut_sum.sh
cutlog=tests/results-ref/make_run_ac713fb_h200/make_run_hashmesh_full.log
rest=tests/results-ref/make_run_f9a4f0b_h200/per_file_hashmesh_full_f9a4f0b_h200.txt
"$cs" $cutlog $rest hashmesh >$t/cs 2>$t/err || cli_fail "cut_sum.sh on the committed logs: exit $? ($(cat $t/err))"
cmp -s $t/cs tests/results-ref/make_run_f9a4f0b_h200/hashmesh_full_sum.txt ||
  cli_fail "hashmesh_full_sum.txt is not what cut_sum.sh makes now: $(diff $t/cs tests/results-ref/make_run_f9a4f0b_h200/hashmesh_full_sum.txt | head -5)"
want=$(awk '$1 == "hashmesh" { s += $4 } END { printf "%.1f", 444 + s }' $rest)
[ "$(awk '$1 == "hashmesh" { print $6 }' $t/cs)" = "$want" ] || cli_fail "cut_sum.sh full_s is not 444 s + the rest ($want): $(cat $t/cs)"
[ "$(awk '$1 == "hashmesh" { print $2, $3, $4 }' $t/cs)" = "15 444 3" ] || cli_fail "cut_sum.sh: not 15 files in 444 s and 3 after: $(cat $t/cs)"
grep -v 'hashmesh_clustered_sort.dat' $rest >$t/rest_miss.txt
"$cs" $cutlog $t/rest_miss.txt hashmesh >/dev/null 2>$t/err && cli_fail "cut_sum.sh, a missing file: exit 0"
grep -q 'hashmesh_clustered_sort.dat is not in' $t/err || cli_fail "cut_sum.sh, a missing file: $(cat $t/err)"
sed 's|^\(hashmesh results/hashmesh_sort_cpu_scale.dat\) 0 |\1 124 |' $rest >$t/rest_cut.txt
"$cs" $cutlog $t/rest_cut.txt hashmesh >/dev/null 2>$t/err && cli_fail "cut_sum.sh, a cut file: exit 0"
grep -q 'hashmesh_sort_cpu_scale.dat has rc 124' $t/err || cli_fail "cut_sum.sh, a cut file: $(cat $t/err)"
sed 's|^\[16/18\] hashmesh results/hashmesh_levmax_neigh.dat|[16/18] hashmesh results/hashmesh_clustered_sort.dat|' $cutlog >$t/cut_wrong.log
"$cs" $t/cut_wrong.log $rest hashmesh >/dev/null 2>$t/err && cli_fail "cut_sum.sh, the cut file not at its place in run-list: exit 0"
sed 's|^\[16/18\] hashmesh|[16/19] hashmesh|' $cutlog >$t/cut_n.log
"$cs" $t/cut_n.log $rest hashmesh >/dev/null 2>$t/err && cli_fail "cut_sum.sh, a run of another length: exit 0"
"$cs" $cutlog $rest >/dev/null 2>&1; [ $? -eq 2 ] || cli_fail "cut_sum.sh, two arguments: not exit 2"
"$cs" $t/nonexistent $rest hashmesh >/dev/null 2>&1; [ $? -eq 2 ] || cli_fail "cut_sum.sh, an unreadable log: not exit 2"
"$rs" $t/nonexistent simplex2d >/dev/null 2>&1; [ $? -eq 2 ] || cli_fail "an unreadable log: not exit 2"
cli_done
