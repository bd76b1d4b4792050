#!/usr/bin/env bash
# The make layer around the data (no GPU, nvcc or built program needed):
#  - the top-level Makefile in a scratch copy with common/ only and a stand-in common/bandwidth
#    that finds no GPU: `make quick` and `make run QUICK=1` count common's one GPU file over one
#    directory, point to make plots DATA=ref and end naming results-quick/; plain `make run`
#    ends naming results/;
#  - `make help` lists every documented target and the directories present; DIRS naming no
#    directory is refused (exit 2, one line) before any target runs;
#  - `make run-list`'s long: line is LONG_DATA whatever FULL=1 says;
#  - common.mk's rebuild rules, in a scratch directory of its own: a program is rebuilt when
#    GIT_REV or DEBUG changes (the revision and flags it writes into its .dat files are those it
#    was built from) and when a header of its directory (.h or .cuh) or of common/ changes; the
#    flags a program records (COMMON_BUILD_FLAGS) are those nvcc gets, and by default those of
#    the committed reference data (OpenMP on: the CPU baselines' threads).
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL   # the make of make test must not pass its variables or -w on
unset ARCH DEBUG EXTRA_NVCCFLAGS QUICK FULL HOST_ONLY DIRS RESDIR
top=$PWD
s=$cli_tmp/repo
mkdir -p $s/common
cp Makefile $s/
cp common/common.mk common/Makefile common/run-data.sh common/bandwidth.cu $s/common/
make -s --no-print-directory -C $s/common run-list GIT_REV=t >/dev/null || cli_fail "scratch common: make run-list failed"
cat >$s/common/bandwidth <<'EOF'
#!/bin/sh
[ "$1" = --check-device ] || { echo "stand-in bandwidth: $*" >&2; exit 9; }
echo "SKIP: no CUDA device (cudaErrorNoDevice)"; exit 77
EOF
chmod +x $s/common/bandwidth
touch -d '-10 minutes' $s/common/bandwidth.cu $s/common/.flags
touch -d '-5 minutes' $s/common/bandwidth
mk() { make --no-print-directory -C $s GIT_REV=t "$@"; }

for how in quick "run QUICK=1" run; do
  mk $how >$cli_tmp/out 2>$cli_tmp/err || { cli_fail "scratch make $how: exit $?: $(tail -n 3 $cli_tmp/err)"; continue; }
  grep -qx 'make run: no GPU here (no CUDA device): the 0 host-only data files of 1 directories; the 1 GPU ones are skipped' $cli_tmp/err ||
    cli_fail "make $how: first line: $(grep '^make run' $cli_tmp/err | head -n 1)"
  if [ "$how" = run ]; then res=results hint="make plots, from results-ref/, or make plots DATA=ref"
  else res=results-quick hint="make plots DATA=ref"; fi
  grep -qx "common: no GPU here (no CUDA device): 0 host-only data files made; 1 GPU data files skipped (their figures: $hint): common_bandwidth.dat" $cli_tmp/err ||
    cli_fail "make $how: common's line: $(grep '^common' $cli_tmp/err)"
  tail -n 1 $cli_tmp/err | grep -q "^make run: done without a GPU ([0-9]* s): 0 host-only data files in <dir>/$res/" ||
    cli_fail "make $how: last line: $(tail -n 1 $cli_tmp/err)"
  [ -e $s/common/results ] || [ -e $s/common/results-quick ] && cli_fail "make $how: a data directory made without a GPU"
done

# ---- make help; DIRS refused
out=$(make -s --no-print-directory help) || cli_fail "make help: exit $?"
for t in all run quick plots test report check-claims readme-tables sanitize clean; do
  printf '%s\n' "$out" | grep -q "^  make $t " || cli_fail "make help does not list make $t"
done
printf '%s\n' "$out" | grep -qx 'paper directories present: simplex2d simplex3d fractals tensorcore sparsegrid hashmesh' ||
  cli_fail "make help: $(printf '%s\n' "$out" | tail -n 1)"
out=$(make -s --no-print-directory help DIRS=nosuch 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "DIRS: no directory 'nosuch'" ||
  cli_fail "make help DIRS=nosuch: exit $rc: $out"

# ---- run-list's long: line does not depend on FULL=1
for a in "" FULL=1; do
  l=$(make -s --no-print-directory -C simplex2d run-list $a | sed -n 's/^long: *//p')
  printf '%s\n' "$l" | grep -q 'results/rho16/simplex2d_fig3_dummy.dat' || cli_fail "simplex2d run-list $a: long: '$l'"
done

# ---- common.mk's rebuild rules and flags, in a directory of its own
o=$cli_tmp/own
mkdir -p $o
cat >$o/Makefile <<EOF
PROGRAMS := prog
include $top/common/common.mk
EOF
omk() { make --no-print-directory -C $o "$@"; }
# built 5 minutes ago from sources of 10 minutes ago (a change now is newer than the program)
fresh() {
  omk run-list GIT_REV=a >/dev/null
  touch -d '-10 minutes' $o/prog.cu $o/part.cuh $o/part.h $o/.flags; touch -d '-5 minutes' $o/prog
}
fresh
omk -q prog GIT_REV=a || cli_fail "own: prog not up to date after it was built (GIT_REV=a)"
omk -q prog GIT_REV=b && cli_fail "own: prog not rebuilt for a new GIT_REV"
fresh
omk -q prog GIT_REV=a DEBUG=1 && cli_fail "own: prog not rebuilt for DEBUG=1"
fresh
touch $o/part.cuh
omk -q prog GIT_REV=a && cli_fail "own: prog not rebuilt after a change of its .cuh header"
fresh
touch $o/part.h
omk -q prog GIT_REV=a && cli_fail "own: prog not rebuilt after a change of its .h header"
line=$(omk -n -B prog GIT_REV=a | grep -- '-o prog prog.cu')
flags=$(printf '%s\n' "$line" | sed -n "s/^[^ ]* \(.*\) -DCOMMON_GIT_REV='\"a\"' .*/\1/p")
rec=$(printf '%s\n' "$line" | sed -n "s/.*-DCOMMON_BUILD_FLAGS='\"\([^\"]*\)\"'.*/\1/p")
[ -n "$flags" ] && [ "$flags" = "$rec" ] || cli_fail "own: nvcc gets '$flags', the program records '$rec': $line"
ref=$(sed -n 's/^# flags: //p' hashmesh/results-ref/hashmesh_fig3_3_sort1d.dat)
[ "$rec" = "$ref" ] || cli_fail "own: default flags '$rec', the reference data's '$ref'"
cli_done
