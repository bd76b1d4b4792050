#!/usr/bin/env bash
# Command-line contract of tensorcore/tensorcore: --help lists the variants v1 v2 v3 and the
# classic lambda baseline; --exp=list lists fig10 and nbb, no --exp or an unknown one exits 2;
# bad options exit 2 with one error line; a valid run without a GPU exits 77 (SKIP), with a
# GPU it must succeed (exit 0) and write its data file.
. "$(dirname "$0")/lib.sh"
prog=tensorcore/tensorcore
cli_need "make all" $prog
help=$(expect 0 "$prog" --help)
for w in v1 v2 v3 lambda mma --rho=V --work=V --rmax=V --exp=V; do
  printf '%s\n' "$help" | grep -q -- "$w" || { echo "FAILED: --help lacks $w"; fail=1; }
done
list=$(expect 0 "$prog" --exp=list)
for e in fig10 nbb; do
  printf '%s\n' "$list" | grep -q "^  $e " || { echo "FAILED: --exp=list lacks $e"; fail=1; }
done
expect 2 "$prog" --work=sw | grep -q "an experiment is required" || { echo "FAILED: no --exp"; fail=1; }
expect 2 "$prog" --exp=fig11 | grep -q "no such experiment" || { echo "FAILED: --exp=fig11"; fail=1; }
expect 2 "$prog" --exp=fig10 --bogus | grep -q "^error: unknown option '--bogus'" || { echo "FAILED: unknown option message"; fail=1; }
expect 2 "$prog" --exp=fig10 --map=v4 >/dev/null
expect 2 "$prog" --exp=fig10 --rho=7 >/dev/null
expect 2 "$prog" --exp=fig10 --rmax=17 >/dev/null
expect 2 "$prog" --exp=fig10 --rmin=-1 >/dev/null
expect 2 "$prog" --exp=fig10 --work=xx >/dev/null
expect 2 "$prog" --exp=fig10 --reps=abc >/dev/null
expect 2 "$prog" --exp=fig10 extra >/dev/null
# --rmax below --rmin: usage error before any device work
expect 2 "$prog" --exp=fig10 --rmin=9 --rmax=5 | grep -q "rmax" || { echo "FAILED: rmax < rmin message"; fail=1; }
# an empty sweep (no level r with 2^r >= rho in range) is a usage error, not a header-only file
expect 2 "$prog" --exp=fig10 --work=rd --rmin=16 | grep -q "no level" || { echo "FAILED: rd has no level 16"; fail=1; }
expect 2 "$prog" --exp=fig10 --work=sw --rho=32 --rmin=2 --rmax=4 | grep -q "no level" || { echo "FAILED: rho=32 > n=16"; fail=1; }
expect 2 "$prog" --exp=fig10 --rmin=13 --quick >/dev/null                      # quick: rd/ca stop at 11
# fig10 is the Sierpinski triangle, nbb any other fractal
expect 2 "$prog" --exp=fig10 --fractal=vicsek | grep -q "exp=nbb" || { echo "FAILED: fig10 on vicsek"; fail=1; }
expect 2 "$prog" --exp=nbb | grep -q "another fractal" || { echo "FAILED: nbb on sierpinski"; fail=1; }
# other NBB fractals (v1's encoding only): v2/v3 and rho not a power of s are refused
expect 2 "$prog" --exp=nbb --fractal=vicsek --map=v2 | grep -q "needs s = 2" || { echo "FAILED: v2 on vicsek"; fail=1; }
expect 2 "$prog" --exp=nbb --fractal=vicsek --rho=8 | grep -q "not a power of s=3" || { echo "FAILED: rho=8 on vicsek"; fail=1; }
expect 2 "$prog" --exp=fig10 --rho=9 >/dev/null                                # sierpinski: 9 is not 2^k
expect 2 "$prog" --exp=nbb --fractal=sierpinski-carpet --work=sw --rmin=11 | grep -q "no level" || { echo "FAILED: carpet r=11"; fail=1; }
# a tiny valid run: 0 with a GPU (and a data file), 77 without
tmp=$cli_tmp
# tensor-core maps whose warps would be partial are refused: v1/mma at rho = 4 (16 threads),
# mma-warp at rho = 9, 27 (81, 729 threads); candy at rho = 16 runs (0 with a GPU, 77 without)
expect 2 "$prog" --exp=nbb --fractal=candy --map=mma --rho=4 | grep -q "whole warps" || { echo "FAILED: mma at rho=4"; fail=1; }
expect 2 "$prog" --exp=nbb --fractal=candy --map=v1 --rho=4 | grep -q "whole warps" || { echo "FAILED: v1 at rho=4"; fail=1; }
expect 2 "$prog" --exp=nbb --fractal=vicsek --map=mma-warp | grep -q "whole warps" || { echo "FAILED: mma-warp on vicsek"; fail=1; }
"$prog" --exp=nbb --fractal=candy --work=sw --rho=16 --rmin=2 --rmax=3 --reps=1 --warmup=0 --batch=1 --out="$tmp" >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ]; then
  [ -f "$tmp/tensorcore_nbb_candy_sw.dat" ] || { echo "FAILED: no candy data file"; fail=1; }
elif [ $rc -ne 77 ]; then echo "FAILED: tiny candy run exit $rc"; fail=1; fi
"$prog" --exp=nbb --fractal=candelabra --work=sw --rmin=2 --rmax=3 --reps=1 --warmup=0 --batch=1 --out="$tmp" >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ]; then
  [ -f "$tmp/tensorcore_nbb_candelabra_sw.dat" ] || { echo "FAILED: no candelabra data file"; fail=1; }
elif [ $rc -ne 77 ]; then echo "FAILED: tiny candelabra run exit $rc"; fail=1; fi
"$prog" --exp=fig10 --work=sw --rho=8 --rmin=3 --rmax=4 --reps=1 --warmup=0 --batch=1 --out="$tmp" >/dev/null 2>&1; rc=$?
if [ $rc -eq 0 ]; then
  [ -f "$tmp/tensorcore_fig10_sw.dat" ] || { echo "FAILED: no data file"; fail=1; }
elif [ $rc -ne 77 ]; then echo "FAILED: tiny run exit $rc"; fail=1; fi
cli_done
