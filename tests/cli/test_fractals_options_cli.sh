#!/usr/bin/env bash
# fractals' experiment table and --r, with no visible device (CUDA_VISIBLE_DEVICES=-1):
#  - --exp=list marks exactly ratio, shapes, layout, describe, draw and launch as `host` and
#    speedup as `GPU`, and the marks are true: each host experiment runs to exit 0 without a
#    device, the GPU one stops at exit 77;
#  - --r keeps its documented range [-1, 30] for every experiment: -2 and 31 refused by the
#    option itself (exit 2, one line naming the range), before any experiment's own checks.
. "$(dirname "$0")/lib.sh"
fr=fractals/fractals
cli_need "make -C fractals" $fr
export CUDA_VISIBLE_DEVICES=-1
tmp=$cli_tmp
list=$(expect 0 $fr --exp=list)
for e in ratio shapes layout describe draw launch; do
  grep -Eq "^  $e +host " <<<"$list" || cli_fail "--exp=list does not mark $e host"
done
grep -Eq '^  speedup +GPU ' <<<"$list" || cli_fail "--exp=list does not mark speedup GPU"
[ "$(grep -Ec '^  [a-z-]+ +(host|GPU) ' <<<"$list")" -eq 7 ] || cli_fail "--exp=list: not 7 experiments"
# the marks hold: host experiments need no device, the GPU one does
expect 0 $fr --exp=describe >/dev/null
expect 0 $fr --exp=draw --fractal=vicsek --r=2 >/dev/null
expect 0 $fr --exp=launch --fractal=vicsek --map=lambda --r=2 >/dev/null
expect 0 $fr --exp=shapes --out="$tmp/s" >/dev/null
expect 0 $fr --exp=layout --out="$tmp/l" >/dev/null
expect 0 $fr --exp=ratio --out="$tmp/r" >/dev/null
expect 77 $fr --exp=speedup --quick --out="$tmp/g" >/dev/null
for e in speedup ratio shapes layout describe draw launch; do
  for r in -2 31; do
    cli_refused_line "--exp=$e --r=$r" "'--r=$r' out of range \\[-1, 30\\]" $fr --exp=$e --fractal=vicsek --map=lambda --r=$r --out="$tmp/x"
  done
done
[ -e "$tmp/x" ] && cli_fail "a refused --r wrote $tmp/x"
cli_done
