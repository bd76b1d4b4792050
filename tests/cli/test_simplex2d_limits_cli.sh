#!/usr/bin/env bash
# simplex2d's option limits on both sides, each value computed here from the documented rule
# (README / --help), not from the program: accepted = exit 77 with no visible device
# (CUDA_VISIBLE_DEVICES=-1: the options were all checked, device_require found no GPU),
# refused = exit 2 with one error line naming the value:
#  --nmin = --nmax; a Fig. 3 and a Fig. 5 sweep of 4096 sizes, not 4097; --exp=coarse at
#  n = 1028 (a multiple of 4), not 1026 or 1030; --exp=layout at the largest n whose
#  n (n + 1) / 2 lines fit 2^26 (11584), not 11585 (the line count named); eq. (5)'s
#  lambda-strict with each pair kernel, never with map, dummy or write.
. "$(dirname "$0")/lib.sh"
s2=simplex2d/simplex2d
cli_need "make -C simplex2d" $s2
export CUDA_VISIBLE_DEVICES=-1

ok() { cli_nodev_ok "$@"; }          # NAME CMD...: accepted (exit 77, no device)
no() { cli_refused_line "$@"; }      # NAME ERE CMD...: refused, exit 2, one line

# ---- simplex2d
ok "s2 --nmin = --nmax" $s2 --exp=fig3 --nmin=10 --nmax=10
no "s2 --nmin > --nmax" 'nmin=11 > --nmax=10' $s2 --exp=fig3 --nmin=11 --nmax=10
for e in fig3 fig5; do
  ok "s2 $e 4096 sizes" $s2 --exp=$e --nmin=1 --nmax=4096 --nstep=1
  ok "s2 $e 4096 sizes, step 2" $s2 --exp=$e --nmin=5 --nmax=8195 --nstep=2
  no "s2 $e 4097 sizes" '4097 sizes, at most 4096' $s2 --exp=$e --nmin=1 --nmax=4097 --nstep=1
  no "s2 $e 4097 sizes, step 2" '4097 sizes' $s2 --exp=$e --nmin=5 --nmax=8197 --nstep=2
done
ok "s2 coarse n=1028" $s2 --exp=coarse --n=1028
ok "s2 coarse n=4" $s2 --exp=coarse --n=4
for n in 1026 1030 2; do no "s2 coarse n=$n" "multiple of 4.*got $n" $s2 --exp=coarse --n=$n; done
# layout: the largest n with n (n + 1) / 2 <= 2^26, found here
nl=$(awk 'BEGIN { n = 1; while ((n + 1) * (n + 2) / 2 <= 2 ^ 26) n++; print n }')
[ "$nl" -eq 11584 ] || cli_fail "the layout limit computed here: $nl"
first=$($s2 --exp=layout --map=bb --n=$nl --rho=32 2>&1 | head -n 1)
[ "$first" = "# program: simplex2d --exp=layout" ] || cli_fail "s2 layout n=$nl refused: $first"
no "s2 layout n=$((nl + 1))" "n=$((nl + 1)) gives $(( (nl + 1) * (nl + 2) / 2 )) lines" $s2 --exp=layout --map=bb --n=$((nl + 1)) --rho=32
for k in edm4d collision3d collision1d; do
  ok "s2 lambda-strict $k" $s2 --exp=point --map=lambda-strict --kernel=$k --n=64 --rho=8
done
for k in map dummy write; do
  no "s2 lambda-strict $k" 'pair kernels only' $s2 --exp=point --map=lambda-strict --kernel=$k --n=64 --rho=8
done

cli_done
