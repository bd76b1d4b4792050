#!/usr/bin/env bash
# The rows of fractals' host-only outputs against values computed here (no GPU), with an oracle
# written independently of fractal.h: a cell (x, y) of level r belongs to the fractal iff every
# base-s digit pair (x_d, y_d) is one of the k translations H that --exp=describe prints.
#  - describe: k = |H|, hausdorff = log k / log s, for all nine fractals;
#  - shapes: every fractal's cells at its default level, exactly the digit-oracle's set (k^r
#    rows, no duplicate, none outside);
#  - draw: the picture at r = 2 (r = 1 for candy) is the oracle's, row y = line y;
#  - ratio: the rows present are exactly the levels r whose launches fit -- rho <= n = s^r,
#    the bounding box's (n/rho) x (n/rho) grid within 65535 blocks a side, n <= 2^28 -- so the
#    last row of each (fractal, rho) sits at the limit (Sierpinski rho = 8: r = 18, n/rho = 32768;
#    r = 19 would need 65536) ; every value: rb = log_s(n/rho), bb (n/rho)^2, lambda k^rb
#    blocks, their ratio (s^2/k)^rb, memory n^2/k^r.
. "$(dirname "$0")/lib.sh"
prog=fractals/fractals
cli_need "make -C fractals" $prog
tmp=$cli_tmp

# the translations: "name k s x0 y0 x1 y1 ..."
expect 0 $prog --exp=describe | sed -E 's/^([a-z-]+): k=([0-9]+) s=([0-9]+) H=\{(.*)\} hausdorff=log\(([0-9]+)\)\/log\(([0-9]+)\)=([0-9.]+)$/\1 \2 \3 \5 \6 \7 \4/' |
  tr '(),' '   ' | tr -s ' ' >"$tmp/h.txt"
[ "$(wc -l <"$tmp/h.txt")" -eq 9 ] || cli_fail "describe: not 9 fractals"
res=$(awk '{ k = $2; s = $3; if ($4 != k || $5 != s) bad++; if (NF - 6 != 2 * k) bad++
             if (sprintf("%.4f", log(k) / log(s)) != $6) bad++
             for (i = 7; i < NF; i += 2) if ($i >= s || $(i + 1) >= s || seen[$1 " " $i " " $(i + 1)]++) bad++ }
           END { print bad + 0 }' "$tmp/h.txt")
[ "$res" = 0 ] || cli_fail "describe: $res inconsistent lines (k = |H|, hausdorff, H inside s x s)"

# ORACLE: awk functions reading h.txt first; member(f, r, x, y) = the digit test
ORACLE='FNR == NR { K[$1] = $2; S[$1] = $3; for (i = 7; i < NF; i += 2) H[$1 " " $i " " $(i + 1)] = 1; next }
function member(f, r, x, y,   d, s) { s = S[f]; for (d = 0; d < r; d++) { if (!((f " " x % s " " y % s) in H)) return 0; x = int(x / s); y = int(y / s) } return x == 0 && y == 0 }'

# ---- shapes: exactly the oracle's cells
expect 0 $prog --exp=shapes --out="$tmp/s" >/dev/null
res=$(awk "$ORACLE"'
  /^#/ || $1 == "fractal" { next }
  { f = $1; r = $2; n = $3; if (n != S[f] ^ r || $4 >= n || $5 >= n || !member(f, r, $4, $5) || dup[f " " $4 " " $5]++) bad++; cnt[f]++; lev[f] = r }
  END { for (f in K) if (cnt[f] != K[f] ^ lev[f] || lev[f] != (S[f] == 2 ? 5 : 3)) { bad++; print f, cnt[f] > "/dev/stderr" }
        print bad + 0 }' "$tmp/h.txt" "$tmp/s/fractals_shapes.dat")
[ "$res" = 0 ] || cli_fail "shapes: $res rows or counts differ from the digit oracle"

# ---- draw: the oracle's picture
for f in $(awk '{ print $1 }' "$tmp/h.txt"); do
  r=2; [ $f = candy ] && r=1
  expect 0 $prog --exp=draw --fractal=$f --r=$r >"$tmp/d.txt"
  res=$(awk -v f=$f -v r=$r "$ORACLE"'
    FNR == 1 { n = S[f] ^ r; if ($0 != f " r=" r " n=" n " cells=" K[f] ^ r) bad++; next }
    { y = FNR - 2; if (length($0) != n) bad++
      for (x = 0; x < n; x++) if ((substr($0, x + 1, 1) == "X") != member(f, r, x, y)) bad++ ; rows++ }
    END { print bad + (rows != n) }' "$tmp/h.txt" "$tmp/d.txt")
  [ "$res" = 0 ] || cli_fail "draw $f r=$r: $res cells differ from the digit oracle"
done

# ---- ratio: which rows, and their values
expect 0 $prog --exp=ratio --out="$tmp/r" >/dev/null
res=$(awk "$ORACLE"'
  function near(a, b) { return a == b || (a - b) * (a - b) <= 1e-10 * b * b }
  /^#/ || $1 == "fractal" { next }
  { f = $1; r = $5; n = $6; rho = $7; rb = $8; s = S[f]; k = K[f]
    got[f " " rho " " r] = 1; rhos[f " " rho] = 1
    if ($2 != k || $3 != s || n != s ^ r || s ^ rb * rho != n) bad++
    if ($9 != (n / rho) ^ 2 || $10 != k ^ rb) bad++
    if (!near($11, (s * s / k) ^ rb) || !near($12, n * n / k ^ r)) bad++ }
  END {
    # the default rhos of every fractal: 8 16 32 (s = 2), 9 27 (s = 3), 4 16 (s = 4)
    for (f in K) { split(S[f] == 2 ? "8 16 32" : S[f] == 3 ? "9 27" : "4 16", R, " ")
      for (q in R) { rho = R[q]; if (!((f " " rho) in rhos)) bad++
        for (r = 0; r <= 24; r++) { n = S[f] ^ r; want = rho <= n && n / rho <= 65535 && n <= 2 ^ 28
          if (want != ((f " " rho " " r) in got)) { bad++; print "ratio: " f " rho=" rho " r=" r ": row " (want ? "missing" : "present") > "/dev/stderr" } } } }
    print bad + 0 }' "$tmp/h.txt" "$tmp/r/fractals_ratio.dat")
[ "$res" = 0 ] || cli_fail "ratio: $res rows missing, extra or wrong"
# the limit itself, both sides: the last Sierpinski level at rho = 8 is r = 18; r = 19 is refused
awk '$1 == "sierpinski-triangle" && $7 == 8 { m = $5 } END { exit m != 18 }' "$tmp/r/fractals_ratio.dat" || cli_fail "ratio: Sierpinski rho = 8 does not end at r = 18"
cli_done
