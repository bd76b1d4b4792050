#!/usr/bin/env bash
# sparsegrid's host-only experiments (no GPU, --quick): every row against values computed here.
# Point counts from the hierarchical levels alone (a 1-D level l holds 2 points at l = 0 and
# 2^(l-1) above; the regular sparse grid with boundary of level n keeps the level vectors with
# sum_j max(l_j, 1) <= n + d - 1), errors against the interpolation bound of
# f = exp(-|x - 0.3|^2) (|d^2 f / dx_j^2| <= 2, so the piecewise d-linear error is at most
# d h^2 / 4, h = 2^-level):
#  - truncation: levels 1..12 / 9 / 5 / 3 for d = 1..4; points_full (2^L + 1)^d and points_sparse
#    counted; err_full_max within [bound / 4, bound]; the sparse grid's errors equal the full
#    grid's in 1-D and at level 1, and are never smaller (to 1e-6 relative);
#  - sparse-error: levels 1..11 / 8 / 6 / 4 for d = 2..5, the sparse points counted, a full row
#    exactly where d <= 4 and (2^n + 1)^d <= 2^22 points, each fit over the levels with 2 n > nmax;
#  - progressive: (n + 1)^d rows per field (n = 6 in 2D, 4 in 3D), the bytes received growing
#    by one subspace each (their sizes: the products of the 1-D counts, each once) to 4 bytes a
#    point, the fraction, a last error of float32 rounding only; the pictures at the last
#    subspace boundary at or below 1/64, 1/16, 1/4 of the bytes, and complete, 17 x 17 points;
#  - --precision=double accepted by --exp=sparse only.
. "$(dirname "$0")/lib.sh"
exp=sparsegrid/sparsegrid
cli_need "make -C sparsegrid" $exp
tmp=$cli_tmp
# awk helpers: c1(l) = points of 1-D level l; sparse_pts(d, n); the level vectors by a counter
LEV='function c1(l) { return l == 0 ? 2 : 2 ^ (l - 1) }
function sparse_pts(d, n,   j, v, t, s, p, tot) { for (j = 1; j <= d; j++) v[j] = 0; tot = 0
  while (1) { s = 0; p = 1; for (j = 1; j <= d; j++) { s += v[j] > 1 ? v[j] : 1; p *= c1(v[j]) }
    if (s <= n + d - 1) tot += p
    for (j = 1; j <= d && v[j] == n; j++) v[j] = 0
    if (j > d) return tot
    v[j]++ } }'

# ---- truncation
expect 0 $exp --exp=truncation --quick --out="$tmp/t" >/dev/null 2>&1
res=$(awk "$LEV"'
  /^#/ || $1 == "d" { next }
  { d = $1; L = $2; rows[d]++; if (L != rows[d]) bad++
    if ($3 != (2 ^ L + 1) ^ d || $4 != sparse_pts(d, L)) { bad++; print "points: " $0 > "/dev/stderr" }
    b = d * 2 ^ (-2 * L) / 4
    if ($5 > b || $5 < b / 4) { bad++; print "err_full_max outside [bound/4, bound = " b "]: " $0 > "/dev/stderr" }
    # (to 1e-6 relative: the sparse values come back through a hierarchization round trip)
    if ((d == 1 || L == 1) && (($7 - $5) ^ 2 > 1e-12 * $5 ^ 2 || ($8 - $6) ^ 2 > 1e-12 * $6 ^ 2)) { bad++; print "sparse != full: " $0 > "/dev/stderr" }
    if ($7 < $5 * (1 - 1e-6) || $8 < $6 * (1 - 1e-6)) { bad++; print "sparse error below full: " $0 > "/dev/stderr" } }
  END { if (rows[1] != 12 || rows[2] != 9 || rows[3] != 5 || rows[4] != 3 || length(rows) != 4) { bad++; print "levels per d" > "/dev/stderr" }
        print bad + 0 }' "$tmp/t/sparsegrid_figx2_error.dat")
[ "$res" = 0 ] || cli_fail "truncation: $res rows wrong"

# ---- sparse-error
expect 0 $exp --exp=sparse-error --quick --out="$tmp/e" >/dev/null 2>&1
f="$tmp/e/sparsegrid_figx5_sparse_error.dat"
res=$(awk "$LEV"'
  /^# result: / { split($3, a, "="); fit[a[2] + 0] = $8; next }
  /^#/ || $1 == "d" { next }
  { d = $1; n = $2
    if ($3 == "sparse") { ns[d]++; if (n != ns[d] || $4 != sparse_pts(d, n)) { bad++; print "sparse row: " $0 > "/dev/stderr" } }
    else if ($3 == "full") { full[d " " n] = 1; if ($4 != (2 ^ n + 1) ^ d) { bad++; print "full row: " $0 > "/dev/stderr" } }
    else bad++ }
  END { split("11 8 6 4", nm, " ")
        for (d = 2; d <= 5; d++) { nmax = nm[d - 1]; want = 0
          if (ns[d] != nmax) { bad++; print "d=" d ": " ns[d] " sparse levels, want " nmax > "/dev/stderr" }
          for (n = 1; n <= nmax; n++) { want += 2 * n > nmax
            if ((d <= 4 && (2 ^ n + 1) ^ d <= 2 ^ 22) != ((d " " n) in full)) { bad++; print "d=" d " n=" n ": full row wrong" > "/dev/stderr" } }
          if (fit[d] != want) { bad++; print "d=" d ": fitted over " fit[d] " levels, want " want > "/dev/stderr" } }
        print bad + 0 }' "$f")
[ "$res" = 0 ] || cli_fail "sparse-error: $res rows wrong"
[ "$(grep -c '^# result: d=' "$f")" -eq 4 ] || cli_fail "sparse-error: not one result line per d"

# ---- progressive
expect 0 $exp --exp=progressive --quick --out="$tmp/p" >/dev/null 2>&1
res=$(awk "$LEV"'
  FNR == 1 { file++ }
  /^#/ || $1 == "function" || $1 == "stage" { next }
  file == 1 { key = $1 " " $2; d = $2; n = d == 2 ? 6 : 4; cnt[key]++
    if ($3 != (2 ^ n + 1) ^ d || $4 != cnt[key] || $6 != 4 * $3) { bad++; print "row: " $0 > "/dev/stderr" }
    if (($7 - $5 / $6) ^ 2 > 1e-12) { bad++; print "fraction: " $0 > "/dev/stderr" }
    got[key, cnt[key]] = $5 - prev[key]; prev[key] = $5; last[key] = $0
    if (key == "sharp 2") { B[cnt[key]] = $5; nb = cnt[key] }
    next }
  { st[$1]++; sb[$1] = $2 }
  END {
    for (key in cnt) { split(key, q, " "); d = q[2]; n = d == 2 ? 6 : 4
      if (cnt[key] != (n + 1) ^ d) { bad++; print key ": " cnt[key] " rows" > "/dev/stderr" }
      split(last[key], z, " "); if (z[5] != z[6] || z[7] != 1 || z[8] > 1e-6) { bad++; print "last row: " last[key] > "/dev/stderr" }
      # the increments: each subspace size (4 bytes a point) exactly once
      delete want; for (j = 1; j <= d; j++) v[j] = 0
      while (1) { p = 4; for (j = 1; j <= d; j++) p *= c1(v[j]); want[p]++
        for (j = 1; j <= d && v[j] == n; j++) v[j] = 0
        if (j > d) break
        v[j]++ }
      for (i = 1; i <= cnt[key]; i++) want[got[key, i]]--
      for (p in want) if (want[p]) { bad++; print key ": subspace size " p " off by " want[p] > "/dev/stderr" } }
    if (length(cnt) != 4) bad++
    split("64 16 4", frac, " ")
    for (s = 0; s < 3; s++) { w = 0; for (i = 1; i <= nb; i++) if (B[i] * frac[s + 1] <= B[nb]) w = B[i]
      if (sb[s] != w) { bad++; print "picture " s ": " sb[s] " bytes, want " w > "/dev/stderr" } }
    if (sb[3] != B[nb]) bad++
    for (s = 0; s <= 3; s++) if (st[s] != 289) { bad++; print "picture " s ": " st[s] " points" > "/dev/stderr" }
    print bad + 0 }' "$tmp/p/sparsegrid_figx6_progressive.dat" "$tmp/p/sparsegrid_figx6_progressive_pictures.dat")
[ "$res" = 0 ] || cli_fail "progressive: $res rows wrong"

# --precision=double: --exp=sparse only (accepted: 77 with no visible device); a host
# experiment refuses it before writing anything
expect 77 env CUDA_VISIBLE_DEVICES=-1 $exp --exp=sparse --precision=double --quick --out="$tmp/sd" >/dev/null
expect 2 $exp --exp=truncation --precision=double --quick --out="$tmp/td" | grep -q 'only --exp=sparse computes in double' ||
  cli_fail "--exp=truncation --precision=double not refused"
[ -e "$tmp/td/sparsegrid_figx2_error.dat" ] && cli_fail "a refused --precision=double run wrote its file"
cli_done
