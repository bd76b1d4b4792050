#!/usr/bin/env bash
# The rows of simplex3d's host-only outputs against values computed here, independently of the
# program (closed forms of arXiv:1610.07394, written in awk, not the program's own helpers):
#  - volume: every row of its four files -- the row counts (n = 2..nmax; n = 2^k; m = 2..8 x k),
#    the last row at n = nmax, V(Delta^3_n) = n(n+1)(n+2)/6, n^3, the beta = 3 set (n^3 - 3^k)/5
#    with (3^k - 1)/2 cubes, our recursive-log grid = that + 3^k in (3^(k+1) - 1)/2 launches,
#    the alternative set (n^3 - n)/6, the container 3n^2(n-1)/16, V(S^m_n) = (n^m - n)/(2^m - 2)
#    against C(n+m-2, m), the limits m!/(2^m - 2) - 1; the search's limits m!/(s^m - beta) - 1
#    and one best row per m -- at --nmax=4 (the smallest), the --quick default (1024) and
#    --nmax=32768 (the largest: n^8 = 2^120); --nmax=2, 65536 and --quick --nmax=2048 refused;
#  - --exp=layout: the block and thread of every cell, for bb (block (bz g + by) g + bx) and
#    the lambda maps (block Tet(bz) + Tri(by) + bx), thread (z%rho rho + y%rho) rho + x%rho.
. "$(dirname "$0")/lib.sh"
prog=simplex3d/simplex3d
vol=simplex3d/volume
cli_need "make -C simplex3d" $prog $vol
tmp=$cli_tmp

# awk prelude: named columns, relative comparison
AWK_COLS='function near(a, b) { return (a == b) || (a - b <= 1e-9 * (b < 0 ? -b : b) + 1e-9 && b - a <= 1e-9 * (b < 0 ? -b : b) + 1e-9) }
function bin(n, m,   c, i) { c = 1; for (i = 1; i <= m; i++) c = c * (n + i - 1) / i; return c }  # C(n+m-1, m)
function fact(m) { return m <= 1 ? 1 : m * fact(m - 1) }
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }'

check_volume() { # nmax dir
  local nmax=$1 d=$2 k=0 p=1
  while [ $p -lt "$nmax" ]; do p=$((p * 2)); k=$((k + 1)); done
  res=$(awk -v nmax="$nmax" "$AWK_COLS"'
    { n = $c["n"]; rows++; last = n
      if (n != rows + 1) bad++
      t = n * (n + 1) * (n + 2) / 6
      if ($c["tet_enum"] != t || $c["tet_closed"] != t || $c["bb"] != n * n * n) bad++
      if (!near($c["bb_ratio"], n * n * n / t) || !near($c["bb_extra"], n * n * n / t - 1)) bad++ }
    END { print rows + 0, last + 0, bad + 0 }' "$d/simplex3d_volume_bb.dat")
  [ "$res" = "$((nmax - 1)) $nmax 0" ] || cli_fail "volume --nmax=$nmax: bb rows/last/bad = $res, want $((nmax - 1)) $nmax 0"

  res=$(awk "$AWK_COLS"'
    { n = $c["n"]; rows++; last = n; k++; p3 = 3 ^ k
      if (n != 2 ^ k) bad++
      t = n * (n + 1) * (n + 2) / 6; t1 = (n - 1) * n * (n + 1) / 6; r3 = (n ^ 3 - p3) / 5
      if ($c["tet"] != t || $c["tet_nm1"] != t1) bad++
      if ($c["rec3_enum"] != r3 || $c["rec3_closed"] != r3 || $c["rec3_cubes"] != (p3 - 1) / 2) bad++
      if ($c["rlog_ours"] != r3 + p3 || $c["rlog_launches"] != (3 * p3 - 1) / 2) bad++
      if ($c["alt_enum"] != (n ^ 3 - n) / 6 || $c["alt_closed"] != t1) bad++
      if (!near($c["container_paper"], 3 * n * n * (n - 1) / 16)) bad++
      if ($c["ro1_ours"] < t || !near($c["ro1_ours_extra"], $c["ro1_ours"] / t - 1)) bad++  # covers every cell
      if (!near($c["rec3_extra"], r3 / t - 1) || !near($c["rlog_ours_extra"], (r3 + p3) / t - 1) || !near($c["alt_extra"], 0)) bad++ }
    END { print rows + 0, last + 0, bad + 0 }' "$d/simplex3d_volume_m3.dat")
  [ "$res" = "$k $nmax 0" ] || cli_fail "volume --nmax=$nmax: m3 rows/last/bad = $res, want $k $nmax 0"

  res=$(awk "$AWK_COLS"'
    { m = $c["m"]; n = $c["n"]; rows++; if (m == 8) last = n
      if (m != prev) { j = 0; prev = m }
      j++; if (n != 2 ^ j) bad++
      dl = bin(n - 1, m); s = (n ^ m - n) / (2 ^ m - 2)
      if (!near($c["delta_nm1_enum"], dl) || !near($c["delta_nm1_closed"], dl)) bad++
      if (!near($c["sm_enum"], s) || !near($c["sm_closed"], s)) bad++
      if ($c["covers"] != (s >= dl * (1 - 1e-12))) bad++
      if (!near($c["extra_limit"], fact(m) / (2 ^ m - 2) - 1)) bad++
      if (!near($c["bb_extra"], n ^ m / bin(n, m) - 1)) bad++
      ms[m]++ }
    END { for (m = 2; m <= 8; m++) if (ms[m] != rows / 7) bad++; print rows + 0, last + 0, bad + 0 }' "$d/simplex3d_volume_m.dat")
  [ "$res" = "$((7 * k)) $nmax 0" ] || cli_fail "volume --nmax=$nmax: m rows/last/bad = $res, want $((7 * k)) $nmax 0"

  res=$(awk "$AWK_COLS"'
    { m = $c["m"]; s = $c["s"]; b = $c["beta"]; lim = fact(m) / (s ^ m - b) - 1
      if (!near($c["limit_extra"], lim) || s ^ m - b > fact(m) || b < 2 || b >= s ^ m) bad++
      # a candidate covers: n0 a power of s, checked up to the largest power of s <= 2^21
      for (top = s; top * s <= 2 ^ 21; top *= s); for (p = s; p < $c["n0"]; p *= s);
      if ($c["n0"] != p || $c["nmax"] != top || $c["extra_at_nmax"] < 0) bad++
      if ($c["best"] == 1) { best[m]++; bl[m] = lim }
      if (!(m in mn) || lim < mn[m]) mn[m] = lim }
    END { for (m = 3; m <= 6; m++) if (best[m] != 1 || !near(bl[m], mn[m])) bad++
          if (!near(bl[3], 0)) bad++; print bad + 0 }' "$d/simplex3d_volume_search.dat")
  [ "$res" = 0 ] || cli_fail "volume --nmax=$nmax: search rows: $res bad"
}
expect 0 $vol --nmax=4 --out="$tmp/v4" >/dev/null
check_volume 4 "$tmp/v4"
expect 0 $vol --quick --out="$tmp/vq" >/dev/null
check_volume 1024 "$tmp/vq"
expect 0 $vol --nmax=32768 --out="$tmp/vmax" >/dev/null
check_volume 32768 "$tmp/vmax"
cli_refused "volume --nmax=2" 'out of range \[4, 32768\]' "$tmp/vbad/simplex3d_volume_bb.dat" $vol --nmax=2 --out="$tmp/vbad"
cli_refused "volume --nmax=65536" 'out of range \[4, 32768\]' "$tmp/vbad/simplex3d_volume_bb.dat" $vol --nmax=65536 --out="$tmp/vbad"
cli_refused "volume --quick --nmax=2048" 'at most 1024' "$tmp/vbad/simplex3d_volume_bb.dat" $vol --quick --nmax=2048 --out="$tmp/vbad"
expect 0 $vol --quick --nmax=1024 --out="$tmp/vq2" >/dev/null
[ "$(grep -vc '^#' "$tmp/vq2/simplex3d_volume_bb.dat")" -eq 1024 ] || cli_fail "volume --quick --nmax=1024: not 1023 rows + header"

# --exp=layout: block and thread of every cell, closed forms
for m in bb lambda-exact lambda-cubic; do
  for nr in "5 2" "13 4" "16 2" "7 1" "9 8"; do
    set -- $nr
    res=$($prog --exp=layout --map=$m --n=$1 --rho=$2 | awk -v n=$1 -v r=$2 -v m=$m '/^#/ || /^x/ { next }
      { bx = int($1 / r); by = int($2 / r); bz = int($3 / r); g = int((n + r - 1) / r)
        b = m == "bb" ? (bz * g + by) * g + bx : bz * (bz + 1) * (bz + 2) / 6 + by * (by + 1) / 2 + bx
        t = (($3 % r) * r + $2 % r) * r + $1 % r
        if ($4 != 0 || $5 != b || $6 != t) bad++; rows++ }
      END { print rows + 0, bad + 0 }')
    want="$(($1 * ($1 + 1) * ($1 + 2) / 6)) 0"
    [ "$res" = "$want" ] || cli_fail "layout $m n=$1 rho=$2: rows/wrong = $res, want $want"
  done
done
cli_done
