#!/usr/bin/env bash
# tensorcore/tensorcore: every option limit on both sides -- the last accepted value and the
# first refused one -- and --exp=list's rows.  The options are validated before the GPU is
# touched, so with no visible device (CUDA_VISIBLE_DEVICES=-1, also on a GPU machine) an
# accepted command line exits 77 (SKIP) and a refused one 2 with its message:
#   --rmin 0..16, --rmax -1..16, --rmax = --rmin; the largest level of each work kernel (sw:
#   n^2 <= 2^32, rd/ca: <= 2^30; --quick 4 less for s = 2, 2 less for s = 3, 4), computed here
#   independently from s; the smallest level with n >= rho; the level whose powers of s stop
#   being exact halves (vicsek at rho = 9: r_b = 7 yes, 8 no), and the default sweep's block
#   sides (rho = 9 and 27 for s = 3, 4 and 16 for s = 4); rho a power of s; the maps that
#   need s = 2 and those that need whole warps (rho = 4: 16 threads; 9: a last warp of 17).
# With a GPU, a tiny run's data file is checked row by row: the row count, n = 2^r, r_b,
# threads launched and v2's extra threads against closed forms (section 5.2).
. "$(dirname "$0")/lib.sh"
prog=tensorcore/tensorcore
cli_need "make all" $prog

acc() { # the options pass validation: 77 with no visible device
  expect 77 env CUDA_VISIBLE_DEVICES=-1 "$prog" "$@" | grep -q "^SKIP" || cli_fail "not accepted: $*"
}
ref() { # RE ARGS...: refused, exit 2, a message matching RE
  local re=$1
  shift
  expect 2 env CUDA_VISIBLE_DEVICES=-1 "$prog" "$@" | grep -q -- "$re" || cli_fail "not refused with /$re/: $*"
}

# --exp=list: exactly the two experiments, in order, each marked GPU
list=$(expect 0 "$prog" --exp=list)
[ "$(printf '%s\n' "$list" | awk 'NR > 1 { printf "%s:%s ", $1, $2 }')" = "fig10:GPU nbb:GPU " ] ||
  cli_fail "--exp=list rows: $list"

# the options' own ranges
acc --exp=fig10 --work=sw --rmin=16
ref "rmin" --exp=fig10 --work=sw --rmin=17
acc --exp=fig10 --work=sw --rmin=0
ref "rmin" --exp=fig10 --work=sw --rmin=-1
acc --exp=fig10 --work=sw --rmin=16 --rmax=16
ref "rmax" --exp=fig10 --work=sw --rmin=16 --rmax=17
acc --exp=fig10 --work=sw --rmax=-1
ref "rmax" --exp=fig10 --work=sw --rmax=-2
acc --exp=fig10 --work=sw --rmin=9 --rmax=9
ref "below --rmin" --exp=fig10 --work=sw --rmin=9 --rmax=8

# the largest level of each work kernel, from s alone: sw n^2 = s^(2r) <= 2^32, rd and ca
# <= 2^30, --quick 4 (s = 2) or 2 (s = 3, 4) less
rtop() { awk -v s="$1" -v cells="$2" -v q="$3" 'BEGIN { r = 0; while ((s * s) ^ (r + 1) <= cells) r++; print r - q }'; }
for w in sw rd ca; do
  [ $w = sw ] && cells=4294967296 || cells=1073741824
  t=$(rtop 2 $cells 0)
  acc --exp=fig10 --work=$w --rmin="$t"
  [ $((t + 1)) -gt 16 ] && re=rmin || re="no level" # sw: 17 is past --rmin's own range
  ref "$re" --exp=fig10 --work=$w --rmin=$((t + 1))
  t=$(rtop 2 $cells 4)
  acc --exp=fig10 --work=$w --quick --rmin="$t"
  ref "no level" --exp=fig10 --work=$w --quick --rmin=$((t + 1))
  t=$(rtop 3 $cells 0)
  acc --exp=nbb --fractal=vicsek --rho=27 --work=$w --rmin="$t"
  ref "no level" --exp=nbb --fractal=vicsek --rho=27 --work=$w --rmin=$((t + 1))
  t=$(rtop 3 $cells 2)
  acc --exp=nbb --fractal=vicsek --rho=27 --work=$w --quick --rmin="$t"
  ref "no level" --exp=nbb --fractal=vicsek --rho=27 --work=$w --quick --rmin=$((t + 1))
  t=$(rtop 4 $cells 0)
  acc --exp=nbb --fractal=candy --rho=16 --work=$w --rmin="$t"
  ref "no level" --exp=nbb --fractal=candy --rho=16 --work=$w --rmin=$((t + 1))
done
[ "$(rtop 2 4294967296 0) $(rtop 2 1073741824 0) $(rtop 3 4294967296 0) $(rtop 4 4294967296 0)" = "16 15 10 8" ] ||
  cli_fail "rtop oracle"

# the smallest level: n = s^r >= rho
for rho in 8 16 32; do
  r=$(awk -v rho=$rho 'BEGIN { r = 0; while (2 ^ r < rho) r++; print r }')
  acc --exp=fig10 --work=sw --rho=$rho --rmin=$r --rmax=$r
  ref "no level" --exp=fig10 --work=sw --rho=$rho --rmin=$((r - 1)) --rmax=$((r - 1))
done
acc --exp=nbb --fractal=vicsek --work=sw --rho=27 --rmin=3 --rmax=3
ref "no level" --exp=nbb --fractal=vicsek --work=sw --rho=27 --rmin=2 --rmax=2
# the powers of s in A must be exact halves: s = 3: 3^6 = 729 yes, 3^7 = 2187 no (r_b <= 7)
acc --exp=nbb --fractal=vicsek --work=sw --rho=9 --rmin=9 --rmax=9  # r_b = 7
ref "no level" --exp=nbb --fractal=vicsek --work=sw --rho=9 --rmin=10 --rmax=10
acc --exp=nbb --fractal=vicsek --work=sw --rho=27 --rmin=10 --rmax=10 # r_b = 7 again
# the default sweep (no --rho) holds both block sides of its s: 9 and 27 for s = 3, so r = 10
# (a level of rho = 27 alone) is accepted and 11 refused; 4 and 16 for s = 4, so r = 1 (n = 4:
# a level of rho = 4 alone) is accepted
acc --exp=nbb --fractal=vicsek --work=sw --rmin=10 --rmax=10
ref "no level" --exp=nbb --fractal=vicsek --work=sw --rmin=11 --rmax=11
acc --exp=nbb --fractal=candy --work=sw --rmin=1 --rmax=1
ref "no level" --exp=nbb --fractal=candy --work=sw --rho=16 --rmin=1 --rmax=1
# rho: a power of s
acc --exp=nbb --fractal=vicsek --rho=9
acc --exp=nbb --fractal=vicsek --rho=27
ref "not a power of s=3" --exp=nbb --fractal=vicsek --rho=32
ref "not a power of s=3" --exp=nbb --fractal=vicsek --rho=4
acc --exp=fig10 --rho=32
ref "not a power of s=2" --exp=fig10 --rho=27
ref "not a power of s=4" --exp=nbb --fractal=candy --rho=8
acc --exp=nbb --fractal=candy --rho=4 --work=sw
# the maps: s = 2 only, and whole warps
for m in v2 v3 v2-mma v2-lambda; do
  acc --exp=fig10 --map=$m
  ref "needs s = 2" --exp=nbb --fractal=vicsek --map=$m
done
for m in v1 mma redux redux-warp table; do acc --exp=nbb --fractal=vicsek --map=$m; done
acc --exp=nbb --fractal=candy --map=mma --rho=16
ref "whole warps" --exp=nbb --fractal=candy --map=mma --rho=4
acc --exp=nbb --fractal=candy --map=mma-warp --rho=16
ref "whole warps" --exp=nbb --fractal=candy --map=mma-warp --rho=4
acc --exp=nbb --fractal=candy --map=redux-warp --rho=4 # names only the lanes that exist
ref "whole warps" --exp=nbb --fractal=vicsek --map=mma-warp --rho=27
acc --exp=nbb --fractal=vicsek --map=v1 --rho=9
acc --exp=fig10 --map=mma-warp --rho=8

# with a GPU: a tiny run's rows against closed forms (77 without one)
tmp=$cli_tmp
"$prog" --exp=fig10 --work=sw --rho=8 --rmin=3 --rmax=5 --map=v2 --reps=1 --warmup=0 --batch=1 --out="$tmp" >"$tmp/log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  awk -v rho=8 '
    function ipow(b, e,   p) { p = 1; while (e-- > 0) p *= b; return p }
    /^#/ || $1 == "fractal" { next }
    { rows++; r = $2; rb = r - 3
      if ($1 != "sierpinski-triangle" || $3 != ipow(2, r) || $4 != rho || $5 != rb) { bad++; print "bad row: " $0 }
      gx = ipow(3, int((rb + 1) / 2)); gy = ipow(3, int(rb / 2))
      if ($6 == "v2") { # sub-blocks of rho/2 at level rb + 1, blocks of 2 x 2 sub-blocks
        sx = ipow(3, int((rb + 2) / 2)); sy = ipow(3, int((rb + 1) / 2)); Gx = int((sx + 1) / 2); Gy = int((sy + 1) / 2)
        th = Gx * Gy * rho * rho; ex = (4 * Gx * Gy - sx * sy) * (rho / 2) * (rho / 2)
      } else { th = gx * gy * rho * rho; ex = 0 }
      if ($12 != th || $13 != ex) { bad++; print "row " $0 ": threads/extra want " th " " ex }
      seen[r " " $6]++ }
    END { for (r = 3; r <= 5; r++) if (seen[r " lambda"] != 1 || seen[r " lambda-thread"] != 1 || seen[r " v2"] != 1) { bad++; print "r=" r ": rows missing" }
          if (rows != 9) { bad++; print rows " rows, want 9" }
          exit bad > 0 }' "$tmp/tensorcore_fig10_sw.dat" || cli_fail "tiny fig10 v2 run: rows"
elif [ $rc -ne 77 ]; then cli_fail "tiny fig10 v2 run exit $rc"; tail -5 "$tmp/log"; fi
cli_done
