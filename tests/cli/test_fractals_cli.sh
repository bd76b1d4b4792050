#!/usr/bin/env bash
# Command-line contract of fractals/fractals (runs without a GPU):
#  --help lists the fractals of Table 1; --exp=list prints the experiments, no --exp or an
#  unknown one exits 2; --exp=describe prints k, s, H, Hausdorff dimension; --exp=draw prints
#  the fractal; --exp=launch of bb and lambda reach the same k^r cells, each exactly once, for
#  every fractal at small levels and every valid rho; bad fractal / level / rho combinations
#  exit 2 with one line; a GPU run exits 0 (GPU) or 77 (no GPU).
. "$(dirname "$0")/lib.sh"
prog=fractals/fractals
cli_need "make -C fractals" $prog
help=$(expect 0 "$prog" --help)
list=$(expect 0 "$prog" --exp=list)
for e in speedup ratio shapes layout describe draw launch; do
  grep -q "^  $e " <<<"$list" || { echo "FAILED: --exp=list does not list $e"; fail=1; }
done
expect 2 "$prog" | grep -q 'an experiment is required' || { echo "FAILED: no --exp"; fail=1; }
expect 2 "$prog" --exp=bogus | grep -q 'no such experiment' || { echo "FAILED: --exp=bogus"; fail=1; }
for f in sierpinski-triangle candelabra h-fractal candy sierpinski-carpet x-fractal vicsek empty-bottles cantor-dust; do
  grep -q -- "$f" <<<"$help" || { echo "FAILED: --help does not list $f"; fail=1; }
done
expect 0 "$prog" --exp=describe --fractal=sierpinski-triangle | grep -q '^sierpinski-triangle: k=3 s=2 H={(0,0), (0,1), (1,1)} hausdorff=log(3)/log(2)=1.5850$' \
  || { echo "FAILED: --exp=describe sierpinski-triangle"; fail=1; }
[ "$(expect 0 "$prog" --exp=describe | wc -l)" -eq 9 ] || { echo "FAILED: --exp=describe lists 9 fractals"; fail=1; }
expect 0 "$prog" --exp=describe --fractal=candy | grep -q 'k=12 s=4 .*hausdorff=log(12)/log(4)=1.7925' || { echo "FAILED: --exp=describe candy"; fail=1; }
want=$'sierpinski-triangle r=2 n=4 cells=9\nX...\nXX..\nX.X.\nXXXX'
[ "$(expect 0 "$prog" --exp=draw --fractal=sierpinski-triangle --r=2)" = "$want" ] || { echo "FAILED: --exp=draw sierpinski r=2"; fail=1; }
want=$'sierpinski-carpet r=1 n=3 cells=8\nXXX\nX.X\nXXX'
[ "$(expect 0 "$prog" --exp=draw --fractal=sierpinski-carpet --r=1)" = "$want" ] || { echo "FAILED: --exp=draw carpet r=1"; fail=1; }

# launches: same cell set for bb and lambda, k^r lines, no duplicate cell, inside n x n
tmp=$cli_tmp
declare -A K=([sierpinski-triangle]=3 [candelabra]=4 [h-fractal]=7 [candy]=12 [sierpinski-carpet]=8 [x-fractal]=5 [vicsek]=5 [empty-bottles]=7 [cantor-dust]=2)
declare -A S=([sierpinski-triangle]=2 [candelabra]=3 [h-fractal]=3 [candy]=4 [sierpinski-carpet]=3 [x-fractal]=3 [vicsek]=3 [empty-bottles]=3 [cantor-dust]=3)
layouts=0
for f in "${!K[@]}"; do
  k=${K[$f]}; s=${S[$f]}
  for r in 0 1 2 3; do
    n=$((s**r)); cells=$((k**r))
    for ((rho=1; rho<=n && rho<=32; rho*=s)); do
      maps="bb lambda lambda-thread bb-block"; [ "$f" = sierpinski-triangle ] && maps="$maps bb-skip"
      for m in $maps; do
        "$prog" --exp=launch --fractal=$f --map=$m --r=$r --rho=$rho > "$tmp/$m" 2>&1 || { echo "FAILED: --exp=launch $f $m r=$r rho=$rho"; fail=1; }
        grep -v '^#' "$tmp/$m" | awk '{print $1, $2}' | sort > "$tmp/$m.cells"
        lines=$(wc -l < "$tmp/$m.cells"); uniq=$(sort -u "$tmp/$m.cells" | wc -l)
        out=$(awk -v n=$n '$1 >= n || $2 >= n' "$tmp/$m.cells" | wc -l)
        if [ "$lines" -ne $cells ] || [ "$uniq" -ne $cells ] || [ "$out" -ne 0 ]; then
          echo "FAILED: --exp=launch $f $m r=$r rho=$rho: $lines lines, $uniq distinct, $out outside, want $cells"; fail=1
        fi
        layouts=$((layouts+1))
      done
      cmp -s "$tmp/bb.cells" "$tmp/lambda.cells" || { echo "FAILED: $f r=$r rho=$rho: bb and lambda cover different cells"; fail=1; }
      cmp -s "$tmp/bb.cells" "$tmp/bb-block.cells" || { echo "FAILED: $f r=$r rho=$rho: bb and bb-block cover different cells"; fail=1; }
    done
  done
done
# the header names the launch grid: sierpinski r=4 rho=2 -> rb=3, grid 9x3 (k^2 x k^1)
expect 0 "$prog" --exp=launch --fractal=sierpinski-triangle --map=lambda --r=4 --rho=2 | head -1 | grep -q 'rb=3 grid=9x3 block=2x2' \
  || { echo "FAILED: --exp=launch header grid"; fail=1; }

# bb-skip: only a fractal in the lower triangle (x <= y); the others are refused with one line
expect 2 "$prog" --exp=launch --fractal=vicsek --map=bb-skip --r=2 --rho=3 | grep -q 'bb-skip needs a fractal in the lower triangle' \
  || { echo "FAILED: bb-skip on vicsek should be refused"; fail=1; }

# bad input: one line, exit 2
expect 2 "$prog" --exp=speedup --fractal=bogus >/dev/null
expect 2 "$prog" --exp=launch --map=bb --r=3 >/dev/null                                   # no fractal
expect 2 "$prog" --exp=launch --fractal=vicsek --r=3 >/dev/null                           # no map
expect 2 "$prog" --exp=launch --fractal=sierpinski-triangle --map=bb --r=4 --rho=3 | grep -q 'not a power of s=2' || { echo "FAILED: rho message"; fail=1; }
expect 2 "$prog" --exp=launch --fractal=vicsek --map=lambda --r=1 --rho=9 | grep -q 'larger than n' || { echo "FAILED: rho > n message"; fail=1; }
expect 2 "$prog" --exp=launch --fractal=sierpinski-triangle --map=bb --r=10 --rho=64 >/dev/null   # 4096 threads per block
expect 2 "$prog" --exp=speedup --fractal=sierpinski-triangle --r=5 --rho=6 >/dev/null # sweep, bad rho (before the GPU)
expect 2 "$prog" --exp=speedup --fractal=sierpinski-triangle --r=22 >/dev/null                      # n*n = 2^44 cells
expect 2 "$prog" --exp=speedup --fractal=candy --r=20 >/dev/null                                    # n = 4^20 overflows
expect 2 "$prog" --exp=speedup --fractal=sierpinski-triangle --r=1 >/dev/null                       # no default rho fits n = 2
expect 2 "$prog" --exp=speedup --r=99 >/dev/null
expect 2 "$prog" --exp=speedup --work=xx >/dev/null
expect 2 "$prog" --exp=draw --fractal=candy --r=5 >/dev/null                              # too large to draw
n=$("$prog" --exp=describe 2>&1 | wc -l); [ "$n" -eq 9 ] || fail=1

# host-only data files: ratio (s^2/k)^rb and shapes (k^r rows per fractal)
expect 0 "$prog" --exp=ratio --out="$tmp/host" >/dev/null
awk '!/^#/ && $1 == "sierpinski-triangle" && $6 == 32 && $7 == 8 { ok = ($11 == 1.77778) } END { exit !ok }' "$tmp/host/fractals_ratio.dat" \
  || { echo "FAILED: ratio (4/3)^2 for sierpinski r=5 rho=8"; fail=1; }
expect 0 "$prog" --exp=shapes --out="$tmp/host" >/dev/null
# host-only modes refuse bad input before opening their data file: exit 2, nothing written
expect 2 "$prog" --exp=shapes --r=6 --out="$tmp/bad" >/dev/null                      # candy: n = 4096
expect 2 "$prog" --exp=ratio --rho=5 --out="$tmp/bad" >/dev/null                    # a power of no s
expect 2 "$prog" --exp=ratio --rho=4 --out="$tmp/bad" >/dev/null                    # not a power of 3
[ -z "$(ls -A "$tmp/bad" 2>/dev/null)" ] || { echo "FAILED: a refused shapes/ratio run left $(ls "$tmp/bad")"; fail=1; }
[ "$(grep -c '^vicsek 3 27 ' "$tmp/host/fractals_shapes.dat")" -eq 125 ] || { echo "FAILED: shapes vicsek r=3 has 125 cells"; fail=1; }

# a GPU run: 0 with a GPU, 77 without
"$prog" --exp=speedup --fractal=vicsek --r=3 --rho=9 --work=rd --reps=1 --warmup=0 --out="$tmp/out" >"$tmp/gpu.log" 2>&1; rc=$?
case $rc in
  0) grep -q 'vicsek' "$tmp/out/fractals_speedup_rd.dat" || { echo "FAILED: no data row"; fail=1; }
     grep -q ' bb-skip ' "$tmp/out/fractals_speedup_rd.dat" && { echo "FAILED: bb-skip row for vicsek"; fail=1; }
     grep -q '^vicsek .* bb-block ' "$tmp/out/fractals_speedup_rd.dat" || { echo "FAILED: no bb-block row"; fail=1; };;
  77) ;;
  *) echo "FAILED: GPU run exit $rc"; cat "$tmp/gpu.log"; fail=1;;
esac
[ $fail -eq 0 ] && echo "test_fractals_cli: ok ($layouts layouts)"
cli_done
