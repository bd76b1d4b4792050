#!/usr/bin/env bash
# common/run-data.sh (what `make run` does) with a fake make and a fake common/bandwidth, so
# every branch runs in a second, GPU or not, with three directories whose file lists differ
# (host and GPU files; GPU files only; host files only):
#  - no GPU (--check-device exits 77): the host files made in order, progress [k/N] with N the
#    host files of all directories, one skip line for each directory that has GPU files (its
#    counts and names) and none for the others; the summary lines;
#  - a GPU (exit 0): every file, [1/6] .. [6/6] across the three directories in order;
#  - HOST_ONLY=1: as without a GPU, the reason named; HOST_ONLY=0: the GPU path;
#  - --check-device exiting 1 (a binary for another GPU): exit 1, its message, nothing made;
#  - a target that fails: exit 1 at once, the files after it not made;
#  - `dir` given RUNDATA_GPU=yes by the top level: no probe of its own, the GPU files made;
#  - RESDIR=results-quick: the skip line points to make plots DATA=ref; `dir` alone with a GPU
#    counts its host and GPU files; no arguments: exit 2.
. "$(dirname "$0")/lib.sh"
t=$cli_tmp
mkdir -p $t/common $t/d1 $t/d2 $t/d3
cp common/run-data.sh $t/common/
cat >$t/common/bandwidth <<'EOF'
#!/bin/sh
[ "$1" = --check-device ] || exit 9
echo probe >>"$LOG"
case ${FAKE_GPU:-none} in
  yes) echo "NVIDIA H200 (sm_90, 132 SMs)"; exit 0 ;;
  none) echo "SKIP: no CUDA device (cudaErrorNoDevice)"; exit 77 ;;
  *) echo "error: this binary has no code for sm_90: make ARCH=sm_90"; exit 1 ;;
esac
EOF
cat >$t/make <<'EOF'
#!/usr/bin/env bash
# fake make: run-list from the directory's file `list`, run as common.mk's rule, any other
# target logged (one whose name has "bad" fails)
dir=.
args=()
while [ $# -gt 0 ]; do
  case $1 in -C) dir=$2; shift 2 ;; -s|--no-print-directory) shift ;; *) args+=("$1"); shift ;; esac
done
cd "$dir" || exit 3
case ${args[0]} in
  run-list) cat list ;;
  run) exec "$RD" dir "$(basename "$PWD")" "$(sed -n 's/^host: *//p' list)" "$(sed -n 's/^gpu: *//p' list)" ;;
  *) echo "$(basename "$PWD")/${args[0]}" >>"$LOG"; case ${args[0]} in *bad*) exit 2 ;; esac ;;
esac
EOF
chmod +x $t/common/bandwidth $t/make
printf 'host: results/h1.dat results/h2.dat\ngpu: results/g1.dat\n' >$t/d1/list
printf 'host:\ngpu: results/g2.dat results/g3.dat\n' >$t/d2/list
printf 'host: results/h3.dat\ngpu:\n' >$t/d3/list
export MAKE=$t/make RD=$t/common/run-data.sh LOG=$t/log
unset HOST_ONLY RESDIR RUNDATA_GPU RUNDATA_WHY RUNDATA_DONE RUNDATA_TOTAL RUNDATA_START

top() { # RC_WANT ENV...: the top level over d1 d2 d3; stderr to $t/err
  local want=$1 rc
  shift
  : >$LOG
  (cd $t && env "$@" "$RD" top d1 d2 d3 >$t/out 2>$t/err); rc=$?
  [ $rc -eq "$want" ] || { cli_fail "run-data.sh top ($*): exit $rc, want $want"; cat $t/err >&2; }
}
progress() { sed -n 's/^\(\[[0-9]*\/[0-9]*\] [^ ]* [^ ]*\) \.\.\. (elapsed [0-9]* s)$/\1/p' $t/err | tr '\n' ';'; }
made() { grep -v '^probe$' $LOG | tr '\n' ' '; }

# ---- no GPU
top 0 FAKE_GPU=none
[ "$(progress)" = "[1/3] d1 results/h1.dat;[2/3] d1 results/h2.dat;[3/3] d3 results/h3.dat;" ] ||
  cli_fail "no GPU: progress '$(progress)'"
[ "$(made)" = "d1/results/h1.dat d1/results/h2.dat d3/results/h3.dat " ] || cli_fail "no GPU: made '$(made)'"
[ "$(grep -c '^probe$' $LOG)" -eq 1 ] || cli_fail "no GPU: $(grep -c '^probe$' $LOG) probes, want 1 (the top level's)"
grep -qx 'make run: no GPU here (no CUDA device): the 3 host-only data files of 3 directories; the 3 GPU ones are skipped' $t/err ||
  cli_fail "no GPU: the first summary line: $(head -n 1 $t/err)"
grep -qx 'd1: no GPU here (no CUDA device): 2 host-only data files made; 1 GPU data files skipped (their figures: make plots, from results-ref/, or make plots DATA=ref): g1.dat' $t/err ||
  cli_fail "no GPU: d1's skip line: $(grep '^d1:' $t/err)"
grep -qx 'd2: no GPU here (no CUDA device): 0 host-only data files made; 2 GPU data files skipped (their figures: make plots, from results-ref/, or make plots DATA=ref): g2.dat g3.dat' $t/err ||
  cli_fail "no GPU: d2's skip line: $(grep '^d2:' $t/err)"
grep -q '^d3:' $t/err && cli_fail "no GPU: a skip line for d3, which has no GPU files: $(grep '^d3:' $t/err)"
grep -q '^make run: done without a GPU ([0-9]* s): 3 host-only data files in <dir>/results/; make plots draws' $t/err ||
  cli_fail "no GPU: the last line: $(tail -n 1 $t/err)"
[ -s $t/out ] && cli_fail "no GPU: wrote to stdout: $(cat $t/out)"

# ---- a GPU
top 0 FAKE_GPU=yes
[ "$(progress)" = "[1/6] d1 results/h1.dat;[2/6] d1 results/h2.dat;[3/6] d1 results/g1.dat;[4/6] d2 results/g2.dat;[5/6] d2 results/g3.dat;[6/6] d3 results/h3.dat;" ] ||
  cli_fail "GPU: progress '$(progress)'"
[ "$(made)" = "d1/results/h1.dat d1/results/h2.dat d1/results/g1.dat d2/results/g2.dat d2/results/g3.dat d3/results/h3.dat " ] ||
  cli_fail "GPU: made '$(made)'"
grep -qx 'make run: 6 data files in 3 directories (GPU: NVIDIA H200 (sm_90, 132 SMs))' $t/err || cli_fail "GPU: first line $(head -n 1 $t/err)"
grep -q '^d[123]: ' $t/err && cli_fail "GPU: a skip line: $(grep '^d[123]: ' $t/err)"
grep -q '^make run: done, 6 data files in <dir>/results/ ([0-9]* s); make plots draws them$' $t/err || cli_fail "GPU: last line $(tail -n 1 $t/err)"

# ---- HOST_ONLY=1 on a GPU machine: the host path, the reason named, no probe
top 0 FAKE_GPU=yes HOST_ONLY=1
[ "$(progress)" = "[1/3] d1 results/h1.dat;[2/3] d1 results/h2.dat;[3/3] d3 results/h3.dat;" ] || cli_fail "HOST_ONLY=1: progress '$(progress)'"
grep -q '^d1: HOST_ONLY=1: 2 host-only data files made; 1 GPU data files skipped' $t/err || cli_fail "HOST_ONLY=1: d1's line $(grep '^d1' $t/err)"
grep -q '^probe$' $LOG && cli_fail "HOST_ONLY=1: the GPU was probed"

# ---- HOST_ONLY=0 is not HOST_ONLY=1: the GPU path
top 0 FAKE_GPU=yes HOST_ONLY=0
[ "$(made)" = "d1/results/h1.dat d1/results/h2.dat d1/results/g1.dat d2/results/g2.dat d2/results/g3.dat d3/results/h3.dat " ] ||
  cli_fail "HOST_ONLY=0: made '$(made)'"

# ---- --check-device exits 1: stopped, nothing made
top 1 FAKE_GPU=arch
[ -z "$(made)" ] || cli_fail "check-device exit 1: made '$(made)'"
grep -q 'make ARCH=sm_90' $t/err && grep -qx 'make run: common/bandwidth --check-device exited 1: stopped' $t/err ||
  cli_fail "check-device exit 1: $(cat $t/err)"

# ---- a failing target stops the run
printf 'host: results/h1.dat results/bad.dat results/h2.dat\ngpu: results/g1.dat\n' >$t/d1/list
top 1 FAKE_GPU=none
[ "$(made)" = "d1/results/h1.dat d1/results/bad.dat " ] || cli_fail "a failing target: made '$(made)'"
grep -q '^make run: done' $t/err && cli_fail "a failing target: the run went on to its end"
printf 'host: results/h1.dat results/h2.dat\ngpu: results/g1.dat\n' >$t/d1/list

# ---- dir mode: RUNDATA_GPU from the top level is used as it is
: >$LOG
(cd $t/d2 && FAKE_GPU=none RUNDATA_GPU=yes RUNDATA_WHY=x "$RD" dir d2 "" "results/g2.dat results/g3.dat" 2>$t/err) ||
  cli_fail "dir mode with RUNDATA_GPU=yes: exit $?"
[ "$(made)" = "d2/results/g2.dat d2/results/g3.dat " ] && ! grep -q '^probe$' $LOG ||
  cli_fail "dir mode with RUNDATA_GPU=yes: made '$(made)', probes $(grep -c '^probe$' $LOG)"
: >$LOG
(cd $t/d1 && FAKE_GPU=none RESDIR=results-quick "$RD" dir d1 "results/h1.dat" "results/g1.dat" 2>$t/err) || cli_fail "dir mode, no GPU: exit $?"
grep -qx 'd1: no GPU here (no CUDA device): 1 host-only data files made; 1 GPU data files skipped (their figures: make plots DATA=ref): g1.dat' $t/err ||
  cli_fail "dir mode, results-quick: $(grep '^d1' $t/err)"
grep -qx '\[1/1\] d1 results/h1.dat ... (elapsed [0-9]* s)' $t/err || cli_fail "dir mode alone: progress $(head -n 1 $t/err)"

# dir mode alone with a GPU: the count N is the host and the GPU files of the directory
: >$LOG
(cd $t/d1 && FAKE_GPU=yes "$RD" dir d1 "results/h1.dat" "results/g1.dat" 2>$t/err) || cli_fail "dir mode, GPU: exit $?"
[ "$(progress)" = "[1/2] d1 results/h1.dat;[2/2] d1 results/g1.dat;" ] || cli_fail "dir mode alone, GPU: progress '$(progress)'"

# dir mode with LONG_DATA left out (the 5th argument): not made, one line naming them, both with
# and without a GPU; an empty 5th argument: no such line
: >$LOG
(cd $t/d1 && FAKE_GPU=yes "$RD" dir d1 "results/h1.dat" "results/g1.dat" "results/l1.dat results/r8/l2.dat" 2>$t/err) ||
  cli_fail "dir mode, long files left: exit $?"
[ "$(made)" = "d1/results/h1.dat d1/results/g1.dat " ] || cli_fail "dir mode, long files left: made '$(made)'"
[ "$(progress)" = "[1/2] d1 results/h1.dat;[2/2] d1 results/g1.dat;" ] || cli_fail "dir mode, long files left: progress '$(progress)'"
grep -qx 'd1: 2 long GPU data files not made (make run FULL=1 makes them; their figures come from results-ref/): l1.dat r8/l2.dat' $t/err ||
  cli_fail "dir mode, long files left: $(grep '^d1' $t/err)"
: >$LOG
(cd $t/d1 && FAKE_GPU=none "$RD" dir d1 "results/h1.dat" "results/g1.dat" "results/l1.dat" 2>$t/err) ||
  cli_fail "dir mode, no GPU, long file left: exit $?"
[ "$(made)" = "d1/results/h1.dat " ] && grep -q '^d1: 1 long GPU data files not made' $t/err ||
  cli_fail "dir mode, no GPU, long file left: made '$(made)', $(grep '^d1' $t/err)"
(cd $t/d1 && FAKE_GPU=yes "$RD" dir d1 "results/h1.dat" "results/g1.dat" "" 2>$t/err) || cli_fail "dir mode, empty 5th: exit $?"
grep -q 'long GPU data files' $t/err && cli_fail "dir mode, empty 5th argument: $(grep long $t/err)"

out=$("$RD" 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q '^usage: run-data.sh dir NAME' || cli_fail "no arguments: exit $rc ($out)"
cli_done
