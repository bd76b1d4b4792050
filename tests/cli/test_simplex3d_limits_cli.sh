#!/usr/bin/env bash
# simplex3d's option limits on both sides and the defaults a refusal names, each value
# computed here from the documented rule (README / --help), not from the program: accepted =
# exit 77 with no visible device (CUDA_VISIBLE_DEVICES=-1: the options were all checked,
# device_require found no GPU), refused = exit 2 with one error line naming the value:
#  --exp=layout at n = 512, not 513, and its header's counts for bb (blocks per side
#  ceil(n / rho), threads (ceil(n / rho) rho)^3, cells n (n + 1) (n + 2) / 6 = the rows);
#  --nlist at 65536 and 32 sizes, not 65537 or 33; --nmin = --nmax; triplet at n = 8192, not
#  8193, a limit of the triplet kernels only; the sweep defaults (4096 / 2048, --quick 512 /
#  256) named by the refusal of a larger --nmin.
. "$(dirname "$0")/lib.sh"
s3=simplex3d/simplex3d
cli_need "make -C simplex3d" $s3
export CUDA_VISIBLE_DEVICES=-1

ok() { cli_nodev_ok "$@"; }          # NAME CMD...: accepted (exit 77, no device)
no() { cli_refused_line "$@"; }      # NAME ERE CMD...: refused, exit 2, one line

# ---- simplex3d
first=$($s3 --exp=layout --map=bb --n=512 --rho=8 2>&1 | head -n 1)
[ "$first" = "# program: simplex3d --exp=layout" ] || cli_fail "s3 layout n=512 refused: $first"
no "s3 layout n=513" 'n=513 prints too much; use n <= 512' $s3 --exp=layout --map=bb --n=513 --rho=8
for nr in "7 2" "13 4" "1 1" "16 8"; do
  set -- $nr
  res=$($s3 --exp=layout --map=bb --n=$1 --rho=$2 | awk '
    /^# map:/ { for (i = 1; i < NF; i++) { if ($i == "side:") nb = $(i + 1); if ($i == "launched:") th = $(i + 1); if ($i == "cells:") ce = $(i + 1); if ($i == "launches:") la = $(i + 1) } }
    /^#/ || /^x/ { next } { rows++ } END { print nb, la, th, ce, rows + 0 }')
  g=$(( ($1 + $2 - 1) / $2 )); c=$(( $1 * ($1 + 1) * ($1 + 2) / 6 ))
  want="$g 1 $(( g * g * g * $2 * $2 * $2 )) $c $c"
  [ "$res" = "$want" ] || cli_fail "s3 layout bb n=$1 rho=$2: side/launches/threads/cells/rows = $res, want $want"
done
ok "s3 --nlist=65536" $s3 --exp=write --nlist=65536
ok "s3 --nlist=1,65536" $s3 --exp=write --nlist=1,65536
no "s3 --nlist=65537" 'up to 32 comma-separated sizes 1..65536' $s3 --exp=write --nlist=65537
s32=$(seq -s, 1 32)
ok "s3 --nlist of 32 sizes" $s3 --exp=write --nlist=$s32
no "s3 --nlist of 33 sizes" 'up to 32 comma-separated' $s3 --exp=write --nlist=$s32,33
ok "s3 --nmin = --nmax" $s3 --exp=write --nmin=512 --nmax=512
ok "s3 --nmin = --nmax = 1" $s3 --exp=dummy --nmin=1 --nmax=1
no "s3 --nmin > --nmax" 'nmin=512 > --nmax=511' $s3 --exp=write --nmin=512 --nmax=511
for e in triplet triplet-coarse; do
  ok "s3 $e n=8192" $s3 --exp=$e --n=8192
  no "s3 $e n=8193" 'n=8193.*use n <= 8192' $s3 --exp=$e --n=8193
  no "s3 $e --nlist=8,8193" 'n=8193.*use n <= 8192' $s3 --exp=$e --nlist=8,8193
done
for e in write dummy map empty write-coarse dummy-coarse; do ok "s3 $e n=8193" $s3 --exp=$e --n=8193; done
ok "s3 write n=65536" $s3 --exp=write --n=65536
# the sweep defaults, named by the refusal of an --nmin past them (accepted at them)
for c in "write 4096" "dummy 4096" "write-coarse 4096" "triplet 2048" "triplet-coarse 2048" \
         "write 512 --quick" "dummy-coarse 512 --quick" "triplet 256 --quick" "triplet-coarse 256 --quick"; do
  set -- $c
  ok "s3 $1 ${3:-} --nmin=$2" $s3 --exp=$1 --nmin=$2 ${3:-}
  no "s3 $1 ${3:-} --nmin=$(($2 * 2))" "nmin=$(($2 * 2)) > --nmax=$2\$" $s3 --exp=$1 --nmin=$(($2 * 2)) ${3:-}
done
cli_done
