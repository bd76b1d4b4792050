#!/usr/bin/env bash
# LONG_DATA (common.mk): in every directory, `make run-list` puts no long file in the default
# gpu: line; FULL=1 gives exactly the default GPU files plus the long ones; QUICK=1 gives the
# same names as FULL=1 under results-quick/; the host: line does not change with FULL=1; and
# the top-level run counts FULL=1's files (run-data.sh top reads the same lists).  A directory
# Makefile of its own (common.mk included, files that only touch themselves), HOST_ONLY=1: plain
# `make run` names its long files as not made; FULL=1 and QUICK=1 count them among the skipped
# GPU files and do not call them "not made".
. "$(dirname "$0")/lib.sh"
words() { sed -n "s/^$1: *//p" | tr ' ' '\n' | sed '/^$/d' | sort; }
nlong=0
for d in common simplex2d simplex3d fractals tensorcore sparsegrid hashmesh; do
  def=$(make -s --no-print-directory -C $d run-list) || { cli_fail "$d: make run-list failed"; continue; }
  full=$(make -s --no-print-directory -C $d run-list FULL=1) || { cli_fail "$d: run-list FULL=1 failed"; continue; }
  quick=$(make -s --no-print-directory -C $d run-list QUICK=1) || { cli_fail "$d: run-list QUICK=1 failed"; continue; }
  printf '%s\n' "$def" | grep -q '^long:' || cli_fail "$d: run-list has no long: line"
  long=$(printf '%s\n' "$def" | words long)
  gpu=$(printf '%s\n' "$def" | words gpu)
  nlong=$((nlong + $(printf '%s\n' "$long" | sed '/^$/d' | wc -l)))
  both=$(comm -12 <(printf '%s\n' "$gpu") <(printf '%s\n' "$long") | sed '/^$/d')
  [ -z "$both" ] || cli_fail "$d: long files also in the default gpu: line: $both"
  want=$(printf '%s\n%s\n' "$gpu" "$long" | sed '/^$/d' | sort)
  [ "$(printf '%s\n' "$full" | words gpu)" = "$want" ] || cli_fail "$d: FULL=1's gpu: line is not the default's plus long:"
  [ "$(printf '%s\n' "$quick" | words gpu | sed 's|^results-quick/|results/|')" = "$want" ] ||
    cli_fail "$d: QUICK=1's gpu: line is not FULL=1's under results-quick/"
  [ "$(printf '%s\n' "$full" | words host)" = "$(printf '%s\n' "$def" | words host)" ] || cli_fail "$d: FULL=1 changes the host: line"
done
# simplex2d's rho sweeps are long files (a directory that has some, so the test above is not empty)
[ $nlong -gt 0 ] || cli_fail "no directory has LONG_DATA"
make -s --no-print-directory -C simplex2d run-list | words long | grep -qx 'results/rho8/simplex2d_fig5_map.dat' ||
  cli_fail "simplex2d: rho8/simplex2d_fig5_map.dat is not a long file"
# common.mk's run rule: which files run-data.sh is told are left out
t=$cli_tmp
mkdir -p $t/lt
cat >$t/lt/Makefile <<EOF
include $PWD/common/common.mk
HOST_DATA := \$(RESDIR)/h1.dat
GPU_DATA := \$(RESDIR)/g1.dat
LONG_DATA := \$(RESDIR)/l1.dat \$(RESDIR)/l2.dat
\$(HOST_DATA) \$(GPU_DATA) \$(LONG_DATA):
	@mkdir -p \$(@D) && touch \$@
EOF
for mode in plain FULL=1 QUICK=1; do
  a=(); [ $mode = plain ] || a=($mode)
  rm -rf $t/lt/results $t/lt/results-quick
  make -s --no-print-directory -C $t/lt run HOST_ONLY=1 "${a[@]}" >$t/out 2>$t/err || cli_fail "own Makefile, $mode: make run exit $?"
  if [ $mode = plain ]; then
    grep -qx 'lt: 2 long GPU data files not made (make run FULL=1 makes them; their figures come from results-ref/): l1.dat l2.dat' $t/err ||
      cli_fail "own Makefile, plain: the long files are not named as not made: $(grep '^lt' $t/err)"
    grep -q '^lt: .*1 GPU data files skipped.*: g1.dat$' $t/err || cli_fail "own Makefile, plain: skip line $(grep '^lt' $t/err)"
  else
    grep -q 'long GPU data files not made' $t/err && cli_fail "own Makefile, $mode: long files called not made: $(grep '^lt' $t/err)"
    grep -q '^lt: .*3 GPU data files skipped.*: g1.dat l1.dat l2.dat$' $t/err || cli_fail "own Makefile, $mode: skip line $(grep '^lt' $t/err)"
  fi
  [ -f $t/lt/results/h1.dat ] || [ -f $t/lt/results-quick/h1.dat ] || cli_fail "own Makefile, $mode: the host file not made"
done
cli_done
