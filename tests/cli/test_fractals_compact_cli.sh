#!/usr/bin/env bash
# Command-line contract of fractals/compact (the ca on compact storage) and of
# `fractals --exp=layout` (runs without a GPU):
#  --help names the options; --exp=list names the experiment; bad options / levels exit 2
#  with one line, before the GPU; --exp=layout writes one row per launched thread of bb and lambda: (n/rho)^2 rho^2 and
#  k^rb rho^2 rows per fractal, and the working lambda threads reach k^r distinct cells;
#  a small compact run exits 0 with a GPU (data file written, every row verified) or 77.
. "$(dirname "$0")/lib.sh"
prog=fractals/compact
cli_need "make -C fractals" $prog
expect 0 "$prog" --help | grep -q -- '--embedded-rmax' || cli_fail "--help lists --embedded-rmax"
expect 0 "$prog" --exp=list | grep -q '^  storage ' || cli_fail "--exp=list lists storage"
expect 2 "$prog" --rmin=2 --rmax=4 | grep -q 'an experiment is required' || cli_fail "no --exp"
expect 2 "$prog" --exp=fig10 >/dev/null
expect 2 "$prog" --exp=storage --fractal=koch >/dev/null
expect 2 "$prog" --exp=storage --rmin=5 --rmax=4 >/dev/null
expect 2 "$prog" --exp=storage --rmax=29 >/dev/null                     # n = 2^29 > 2^28
expect 2 "$prog" --exp=storage --fractal=cantor-dust --rmax=20 >/dev/null # n = 3^20 > 2^28
expect 2 "$prog" --exp=storage --steps=0 >/dev/null
expect 2 "$prog" --exp=storage --fractal=cantor-dust --rmin=19 >/dev/null # no level fits 2^28

tmp=$cli_tmp
expect 0 fractals/fractals --exp=layout --out="$tmp/lay" >/dev/null
dat="$tmp/lay/fractals_layout.dat"
# rows per (fractal, map): bb (n/rho)^2 rho^2 = n^2; lambda k^rb rho^2
awk '!/^#/ && !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
     !/^#/ { rows[$c["fractal"] " " $c["map"]]++; if ($c["map"] == "lambda" && $c["works"] == 1) { cells[$c["fractal"]]++; seen[$c["fractal"] " " $c["x"] " " $c["y"]]++ } }
     END {
       ok = rows["sierpinski-triangle bb"] == 4096 && rows["sierpinski-triangle lambda"] == 27 * 64 &&
            rows["vicsek bb"] == 729 && rows["vicsek lambda"] == 25 * 9 &&
            rows["sierpinski-carpet bb"] == 729 && rows["sierpinski-carpet lambda"] == 64 * 9 &&
            cells["sierpinski-triangle"] == 729 && cells["vicsek"] == 125 && cells["sierpinski-carpet"] == 512
       for (k in seen) if (seen[k] != 1) ok = 0
       exit !ok }' "$dat" || cli_fail "--exp=layout: wrong row or cell counts in $dat"
expect 2 fractals/fractals --exp=layout --fractal=vicsek --r=12 >/dev/null   # too many threads

# a small GPU run: 0 with a GPU, 77 without
"$prog" --exp=storage --rmin=0 --rmax=6 --reps=1 --warmup=0 --batch=1 --out="$tmp/gpu" >"$tmp/gpu.log" 2>&1
rc=$?
case $rc in
  0) grep -q '^fractal k s r n cells test storage' "$tmp/gpu/fractals_compact_sierpinski-triangle.dat" || cli_fail "compact: no data file"
     [ "$(awk '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
              $c["storage"] == "compact" && ($c["test"] == "ca" || $c["test"] == "rd") && $c["verified"] == "embedded"' \
          "$tmp/gpu/fractals_compact_sierpinski-triangle.dat" | wc -l)" -eq 14 ] \
       || cli_fail "compact: ca and rd at every level r = 0..6 verified against the embedded version";;
  77) ;;
  *) cli_fail "compact GPU run exit $rc"; cat "$tmp/gpu.log";;
esac
cli_done
