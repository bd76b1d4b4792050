#!/usr/bin/env bash
# fractals' host-only experiments at their limits and their layout rows against an oracle (no
# GPU), and compact's accepted level ranges:
#  - layout (Figs. 4 and 5): every (px, py) once per map; block = (py / rho) gx + px / rho with
#    gx the launch's blocks per row; bb's thread (px, py) handles cell (px, py) and works iff
#    it is a cell (the base-s digit oracle of --exp=describe's H); every working lambda thread
#    handles a cell;
#  - draw up to n = 243 (vicsek r = 5 drawn, r = 6 refused) and only the selected fractal
#    judged (sierpinski r = 7, n = 128, although candy at r = 7 would not fit);
#  - shapes up to n = 1024 (sierpinski r = 10: 3^10 rows; r = 11 refused, no file);
#  - ratio: --rho = 1 (s^0 of every s) and 32 accepted, 64 refused (rho <= 32), no file;
#  - layout without options: Fig. 5's Sierpinski triangle (r = 6, rho = 8), Fig. 4's Vicsek and
#    carpet (r = 3, rho = 3);
#  - draw without --r: level 3; launch without --r, or with --map=paper or all: refused; launch
#    without --rho: rho = s;
#  - speedup (refusals before the GPU): Sierpinski r = 18 (n*n = 2^36) accepted, 19 refused;
#    --rho = 32 accepted, 64 refused;
#  - compact --exp=storage: --rmin = --rmax and the default --rmax (-1) accepted (77 with no
#    visible device); Sierpinski's last level r = 23 (3^17 blocks of 3^6 cells; r = 24: 3^18 >
#    2^28 blocks), the Cantor dust's r = 17 (n = 3^17; r = 18: n > 2^28).
. "$(dirname "$0")/lib.sh"
prog=fractals/fractals
cli_need "make -C fractals" $prog fractals/compact
tmp=$cli_tmp

# the translations: "name k s x0 y0 x1 y1 ..."
expect 0 $prog --exp=describe | sed -E 's/^([a-z-]+): k=([0-9]+) s=([0-9]+) H=\{(.*)\} hausdorff=.*$/\1 \2 \3 \4/' |
  tr '(),' '   ' | tr -s ' ' >"$tmp/h.txt"
[ "$(wc -l <"$tmp/h.txt")" -eq 9 ] || cli_fail "describe: not 9 fractals"
ORACLE='FNR == NR { K[$1] = $2; S[$1] = $3; for (i = 4; i < NF; i += 2) H[$1 " " $i " " $(i + 1)] = 1; next }
function member(f, r, x, y,   d, s) { s = S[f]; for (d = 0; d < r; d++) { if (!((f " " x % s " " y % s) in H)) return 0; x = int(x / s); y = int(y / s) } return x == 0 && y == 0 }'

# ---- layout: places, blocks, cells
expect 0 $prog --exp=layout --out="$tmp/lay" >/dev/null
res=$(awk "$ORACLE"'
  /^#/ { next }
  !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  { f = $c["fractal"]; m = $c["map"]; r = $c["r"]; rho = $c["rho"]; px = $c["px"]; py = $c["py"]; x = $c["x"]; y = $c["y"]
    key = f " " m; nrow[key]++; R[key] = r; RHO[key] = rho
    if (int(px / rho) + 1 > gx[key]) gx[key] = int(px / rho) + 1
    if (int(py / rho) + 1 > gy[key]) gy[key] = int(py / rho) + 1
    P[key, nrow[key]] = px " " py " " $c["block"]
    if (seen[key " " px " " py]++) { bad++; print "layout: " key " place " px " " py " twice" > "/dev/stderr" }
    if (m == "bb" && (x != px || y != py || $c["works"] != member(f, r, x, y))) { bad++; print "layout bb: " $0 > "/dev/stderr" }
    if (m == "lambda" && $c["works"] == 1 && !member(f, r, x, y)) { bad++; print "layout lambda: " $0 > "/dev/stderr" } }
  END { for (key in nrow) {
          if (nrow[key] != gx[key] * gy[key] * RHO[key] * RHO[key]) { bad++; print "layout: " key " rows " nrow[key] > "/dev/stderr" }
          for (i = 1; i <= nrow[key]; i++) { split(P[key, i], q, " ")
            if (q[3] != int(q[2] / RHO[key]) * gx[key] + int(q[1] / RHO[key])) { bad++; print "layout: " key " block " P[key, i] > "/dev/stderr"; break } } }
        if (length(nrow) != 6) bad++
        print bad + 0 }' "$tmp/h.txt" "$tmp/lay/fractals_layout.dat")
[ "$res" = 0 ] || cli_fail "layout: $res rows differ from the oracle (place, block, cell)"
# the default figures: Fig. 5's Sierpinski triangle at r = 6, rho = 8; Fig. 4's Vicsek and carpet at r = 3, rho = 3
got=$(awk '!/^#/ && $1 != "fractal" { print $1, $2, $4 }' "$tmp/lay/fractals_layout.dat" | sort -u | tr '\n' ';')
[ "$got" = "sierpinski-carpet 3 3;sierpinski-triangle 6 8;vicsek 3 3;" ] || cli_fail "layout defaults (fractal r rho): $got"

# ---- draw: n = 243 drawn, 729 refused; only the selected fractal judged
expect 0 $prog --exp=draw --fractal=vicsek --r=5 >"$tmp/d5.txt"
[ "$(head -1 "$tmp/d5.txt")" = "vicsek r=5 n=243 cells=3125" ] && [ "$(grep -c X "$tmp/d5.txt")" -eq 243 ] ||
  cli_fail "draw vicsek r=5: $(head -1 "$tmp/d5.txt")"
expect 2 $prog --exp=draw --fractal=vicsek --r=6 | grep -q 'n = 729 > 243' || cli_fail "draw vicsek r=6 not refused"
expect 0 $prog --exp=draw --fractal=sierpinski-triangle --r=7 | head -1 | grep -qx 'sierpinski-triangle r=7 n=128 cells=2187' ||
  cli_fail "draw sierpinski r=7 (candy not selected)"

# ---- shapes: n = 1024 written, 2048 refused
expect 0 $prog --exp=shapes --fractal=sierpinski-triangle --r=10 --out="$tmp/sh" >/dev/null
[ "$(grep -c '^sierpinski-triangle 10 1024 ' "$tmp/sh/fractals_shapes.dat")" -eq 59049 ] || cli_fail "shapes sierpinski r=10: not 3^10 rows"
expect 2 $prog --exp=shapes --fractal=sierpinski-triangle --r=11 --out="$tmp/sh11" | grep -q 'n = 2048 > 1024' || cli_fail "shapes r=11 not refused"
[ -e "$tmp/sh11" ] && [ -n "$(ls -A "$tmp/sh11")" ] && cli_fail "shapes r=11 left a file"

# ---- ratio: rho = 1 and 32 accepted, 64 refused
expect 0 $prog --exp=ratio --rho=1 --out="$tmp/r1" >/dev/null
[ "$(awk '!/^#/ && $7 == 1 && $5 == 3 { n++ } END { print n + 0 }' "$tmp/r1/fractals_ratio.dat")" -eq 9 ] || cli_fail "ratio --rho=1: not one r = 3 row per fractal"
expect 0 $prog --exp=ratio --rho=32 --fractal=sierpinski-triangle --out="$tmp/r32" >/dev/null
awk '!/^#/ && $1 != "fractal" { n++; if ($7 != 32) bad++ } END { exit !(n == 16 && !bad) }' "$tmp/r32/fractals_ratio.dat" ||
  cli_fail "ratio --rho=32: not the 16 levels r = 5..20"
expect 2 $prog --exp=ratio --rho=64 --fractal=sierpinski-triangle --out="$tmp/r64" | grep -q 'rho <= 32' || cli_fail "ratio --rho=64 not refused"
[ -e "$tmp/r64" ] && [ -n "$(ls -A "$tmp/r64")" ] && cli_fail "ratio --rho=64 left a file"

# ---- draw's default level: 3; launch needs --r
expect 0 $prog --exp=draw --fractal=sierpinski-carpet | head -1 | grep -qx 'sierpinski-carpet r=3 n=27 cells=512' || cli_fail "draw: default level not 3"
expect 2 $prog --exp=launch --fractal=vicsek --map=bb | grep -q 'needs --r=R' || cli_fail "launch without --r not refused with its message"
# launch runs one map: --map=paper and --map=all (several maps) refused with the one-map list
for m in paper all; do
  expect 2 $prog --exp=launch --fractal=vicsek --r=2 --map=$m | grep -q 'needs --map=bb|' || cli_fail "launch --map=$m not refused with its message"
done

# ---- launch: rho defaults to s
expect 0 $prog --exp=launch --fractal=vicsek --map=lambda --r=2 | head -1 | grep -q ' n=9 rho=3 rb=1 grid=5x1 block=3x3 ' ||
  cli_fail "launch without --rho: rho is not s"

# ---- speedup's checks before the GPU: n*n <= 2^36 cells (Sierpinski r = 18 accepted, 19
# refused); rho <= 32 in a sweep without --r
f=sierpinski-triangle
expect 77 env CUDA_VISIBLE_DEVICES=-1 $prog --exp=speedup --fractal=$f --r=18 >/dev/null
expect 2 env CUDA_VISIBLE_DEVICES=-1 $prog --exp=speedup --fractal=$f --r=19 | grep -q 'more than 64 GiB' || cli_fail "speedup r=19 not refused"
expect 77 env CUDA_VISIBLE_DEVICES=-1 $prog --exp=speedup --fractal=$f --rho=32 >/dev/null
expect 2 env CUDA_VISIBLE_DEVICES=-1 $prog --exp=speedup --fractal=$f --rho=64 | grep -q 'rho <= 32' || cli_fail "speedup --rho=64 not refused"

# ---- compact: accepted ranges (77 with no visible device), refused ones (2)
c=fractals/compact
expect 77 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage --rmin=4 --rmax=4 >/dev/null
expect 77 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage >/dev/null
expect 77 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage --rmax=23 >/dev/null             # 3^17 blocks of 3^6 threads
expect 2 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage --rmax=24 | grep -q 'blocks, more than 2^28' || cli_fail "compact --rmax=24: 3^18 blocks"
expect 77 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage --fractal=cantor-dust --rmin=17 --rmax=17 >/dev/null
expect 2 env CUDA_VISIBLE_DEVICES=-1 $c --exp=storage --fractal=cantor-dust --rmin=18 --rmax=18 >/dev/null
cli_done
