#!/usr/bin/env bash
# make run and make plots where there is no GPU (common/run-data.sh, plots/render.sh), in a
# scratch copy of the Makefile, common/, fractals/ and a few plots/ scripts (the repository's
# own results/ are never touched):
#   - make -C fractals run: exit 0; the host-only data files (HOST_DATA: fractals_ratio,
#     _shapes, _layout) in fractals/results/, none of the GPU ones; a progress line
#     '[k/3] fractals results/FILE ... (elapsed S s)' before each; ONE line naming the GPU
#     files skipped; a second run makes nothing again; QUICK=1 writes results-quick/;
#   - the top-level make run counts over the directories ([k/N]) and ends pointing to make plots;
#   - render.sh, DATA unset: a figure from results/ when all its inputs are there, else from
#     results-ref/ (its line says so and names what results/ lacks); in neither: MISSING naming
#     both, exit 0, STRICT=1 exit 1; DATA=results: no fallback.
# On a GPU machine the make part runs with HOST_ONLY=1 (the same path, forced).
. "$(dirname "$0")/lib.sh"
cli_need "make all" common/bandwidth fractals/fractals fractals/compact
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not installed (plots/render.sh needs it)"; exit 77; }

s=$cli_tmp/repo
mkdir -p $s/plots
cp -a Makefile common fractals $s/
rm -rf $s/fractals/results $s/fractals/results-quick $s/common/results $s/common/results-quick $s/plots/out
cp -a plots/render.sh plots/style.gp plots/fractals_ratio.gp plots/fractals_shapes.gp \
      plots/fractals_speedup_all.gp plots/fractals_compact.gp $s/plots/
# the binaries as built here, not rebuilt in the copy: the revision of their flags stamp, and
# newer than every source (this tests make's layer, not the build)
rev=$(sed -n 's/.* rev=//p' fractals/.flags)
[ -n "$rev" ] || cli_fail "fractals/.flags has no rev="
touch $s/common/bandwidth $s/fractals/fractals $s/fractals/compact
common/bandwidth --check-device >/dev/null 2>&1; gpu_rc=$?
force=""; why="no GPU here"
if [ $gpu_rc -eq 0 ]; then force="HOST_ONLY=1"; why="HOST_ONLY=1"
elif [ $gpu_rc -ne 77 ]; then cli_fail "common/bandwidth --check-device -> exit $gpu_rc"; fi
mk() { make --no-print-directory GIT_REV="$rev" $force "$@"; }

host="fractals_ratio.dat fractals_shapes.dat fractals_layout.dat"
gpu="fractals_speedup_sw.dat fractals_speedup_rd.dat fractals_speedup_ca.dat fractals_best_sw.dat
     fractals_best_rd.dat fractals_best_ca.dat fractals_compact_sierpinski-triangle.dat fractals_compact_sierpinski-carpet.dat"

# ---- a directory's make run: host-only files made, GPU files skipped with one line
mk -C $s/fractals run >$cli_tmp/run1.out 2>&1 || cli_fail "make -C fractals run -> exit $?: $(tail -n 3 $cli_tmp/run1.out)"
for f in $host; do [ -s $s/fractals/results/$f ] || cli_fail "make -C fractals run did not write results/$f"; done
for f in $gpu; do [ -e $s/fractals/results/$f ] && cli_fail "GPU data file results/$f written without a GPU"; done
grep -q '^# gpu: none' $s/fractals/results/fractals_ratio.dat ||
  cli_fail "results/fractals_ratio.dat has no '# gpu: none' line"
k=0
for f in $host; do
  k=$((k + 1))
  grep -Eq "^\[$k/3\] fractals results/$f \.\.\. \(elapsed [0-9]+ s\)$" $cli_tmp/run1.out ||
    cli_fail "no progress line '[$k/3] fractals results/$f ...': $(grep '^\[' $cli_tmp/run1.out | tr '\n' '|')"
done
skips=$(grep -c 'GPU data files skipped' $cli_tmp/run1.out)
[ "$skips" -eq 1 ] || cli_fail "$skips lines 'GPU data files skipped', want 1"
line=$(grep 'GPU data files skipped' $cli_tmp/run1.out)
printf '%s\n' "$line" | grep -q "^fractals: $why" || cli_fail "skip line does not say '$why': $line"
printf '%s\n' "$line" | grep -q '8 GPU data files skipped' || cli_fail "skip line does not count 8: $line"
printf '%s\n' "$line" | grep -q 'make plots DATA=ref' || cli_fail "skip line does not name make plots DATA=ref: $line"
for f in $gpu; do printf '%s\n' "$line" | grep -q " $f" || cli_fail "skip line does not name $f"; done

# a second run measures nothing again
before=$(cd $s/fractals/results && stat -c '%n %y' $host)
mk -C $s/fractals run >$cli_tmp/run2.out 2>&1 || cli_fail "second make -C fractals run -> exit $?"
after=$(cd $s/fractals/results && stat -c '%n %y' $host)
[ "$before" = "$after" ] || cli_fail "a second make run wrote the host-only files again"

# QUICK=1: results-quick/, the hint names make plots DATA=ref
mk -C $s/fractals run QUICK=1 >$cli_tmp/runq.out 2>&1 || cli_fail "make -C fractals run QUICK=1 -> exit $?"
for f in $host; do [ -s $s/fractals/results-quick/$f ] || cli_fail "QUICK=1 did not write results-quick/$f"; done
grep -q '^\[1/3\] fractals results-quick/fractals_ratio.dat' $cli_tmp/runq.out || cli_fail "QUICK=1: no progress line for results-quick/"
grep 'GPU data files skipped' $cli_tmp/runq.out | grep -q 'make plots DATA=ref' || cli_fail "QUICK=1: no hint line"

# ---- the top level: one count over every directory (common has no host-only file), a last line
rm -rf $s/fractals/results
mk -C $s -o all run DIRS=fractals >$cli_tmp/top.out 2>&1 || cli_fail "make run DIRS=fractals -> exit $?: $(tail -n 3 $cli_tmp/top.out)"
grep -Eq '^\[3/3\] fractals results/fractals_layout.dat \.\.\.' $cli_tmp/top.out || cli_fail "top level: no '[3/3] fractals ...' line"
[ "$(grep -c 'GPU data files skipped' $cli_tmp/top.out)" -eq 2 ] || cli_fail "top level: want one skip line for common and one for fractals"
tail -n 1 $cli_tmp/top.out | grep -q '^make run: done.*make plots' || cli_fail "top level ends with: $(tail -n 1 $cli_tmp/top.out)"
# its first line counts each directory's make run-list: 3 host-only files, 1 + 8 GPU ones skipped
grep -q "^make run: $why.*: the 3 host-only data files of 2 directories; the 9 GPU ones are skipped$" $cli_tmp/top.out ||
  cli_fail "top level: no line counting 3 host-only and 9 GPU files: $(head -n 3 $cli_tmp/top.out)"
for f in $host; do [ -s $s/fractals/results/$f ] || cli_fail "top level did not write results/$f"; done

# ---- render.sh: results/ where complete, else results-ref/, else MISSING
rm -f $s/fractals/results-ref/fractals_compact_sierpinski-carpet.dat   # a figure with data nowhere
render() { (cd $s && DIRS=fractals "$@" ./plots/render.sh); }
out=$(render env 2>&1); rc=$?
[ $rc -eq 0 ] || cli_fail "render (fresh + reference) -> exit $rc: $out"
printf '%s\n' "$out" | grep -qx 'rendered plots/out/fractals_ratio.pdf' || cli_fail "fractals_ratio not from results/: $out"
printf '%s\n' "$out" | grep -qx 'rendered plots/out/fractals_shapes.pdf' || cli_fail "fractals_shapes not from results/: $out"
printf '%s\n' "$out" | grep -qx 'rendered plots/out/fractals_speedup_all.pdf from fractals/results-ref/ (fractals/results/ lacks fractals_best_sw.dat +2 more)' ||
  cli_fail "fractals_speedup_all not said to come from results-ref/: $out"
printf '%s\n' "$out" | grep -q '^MISSING data for plots/fractals_compact.gp: .*fractals/results/fractals_compact_sierpinski-carpet.dat.*not in fractals/results-ref/ either: fractals/results-ref/fractals_compact_sierpinski-carpet.dat$' ||
  cli_fail "fractals_compact not reported missing in both: $out"
printf '%s\n' "$out" | tail -n 1 | grep -q '^plots: 3 rendered (2 from \*/results/, 1 from the committed \*/results-ref/), 1 missing data, 0 failed$' ||
  cli_fail "summary: $(printf '%s\n' "$out" | tail -n 1)"
for f in fractals_ratio fractals_shapes fractals_speedup_all; do [ -s $s/plots/out/$f.pdf ] || cli_fail "no plots/out/$f.pdf"; done
render env STRICT=1 >/dev/null 2>&1 && cli_fail "STRICT=1 with a figure's data missing everywhere exited 0"
# fresh data of a figure removed: that figure from results-ref/ now
rm $s/fractals/results/fractals_ratio.dat
out=$(render env 2>&1) || cli_fail "render after removing results/fractals_ratio.dat -> exit $?"
printf '%s\n' "$out" | grep -qx 'rendered plots/out/fractals_ratio.pdf from fractals/results-ref/ (fractals/results/ lacks fractals_ratio.dat)' ||
  cli_fail "fractals_ratio did not fall back to results-ref/: $out"
# DATA=results: no fallback
out=$(render env DATA=results 2>&1) || cli_fail "render DATA=results -> exit $?"
printf '%s\n' "$out" | grep -q '^MISSING data for plots/fractals_ratio.gp: fractals/results/fractals_ratio.dat$' ||
  cli_fail "DATA=results fell back: $out"
printf '%s\n' "$out" | grep -q 'results-ref' && cli_fail "DATA=results used results-ref/: $out"
cli_done
