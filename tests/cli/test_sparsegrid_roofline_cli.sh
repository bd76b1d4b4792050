#!/usr/bin/env bash
# sparsegrid --exp=cpu-roofline (host only, no GPU: --quick --nt-max=3), every row against values
# computed here from the data file itself:
#  - the rows: per precision, sparse grids d = 2..6 at levels 9 / 7 / 5 / 4 / 3 (points counted from
#    the level vectors: 1-D level l holds 2 points at l = 0 and 2^(l-1) above; the grid keeps
#    sum_j max(l_j, 1) <= n + d - 1), then the three thesis tiles 33x33, 9x9x9, 9x9x5x5 in the plain
#    layout (level 0, points the product of the sizes) and in subspace order (level: the largest
#    l_j of N_j = 2^l_j + 1); each impl once per direction (cpu_tuned in the plain layout in
#    float only, cpu_blocked_t not in subspace order), 3 grids each;
#  - bytes_moved = 2 x grids x points x elem (4 float, 8 double: read + write once), gbs =
#    bytes_moved / median, pct_triad = 100 gbs / triad_gbs (the # triad_gbs: line; to the rounding
#    of the printed values);
#  - one # result: line per precision, layout and shape, whose percentages are the rows' best:
#    cpu_blocked's, the older versions' (cpu_tuned, cpu_shift: the best one named) and, where it
#    ran, cpu_blocked_t's; forward and inverse apart ("none 0.0%" where no older version ran:
#    the plain layout in double).
. "$(dirname "$0")/lib.sh"
exp=sparsegrid/sparsegrid
cli_need "make -C sparsegrid" $exp
tmp=$cli_tmp

expect 0 env CUDA_VISIBLE_DEVICES=-1 $exp --exp=cpu-roofline --quick --nt-max=3 --threads=2 --out="$tmp/r" >/dev/null 2>&1
f="$tmp/r/sparsegrid_figx9_cpu_roofline.dat"
[ -f "$f" ] || cli_fail "--exp=cpu-roofline wrote no $f"
res=$(awk '
  function c1(l) { return l == 0 ? 2 : 2 ^ (l - 1) }
  function sparse_pts(d, n,   j, v, t, s, p, tot) { for (j = 1; j <= d; j++) v[j] = 0; tot = 0
    while (1) { s = 0; p = 1; for (j = 1; j <= d; j++) { s += v[j] > 1 ? v[j] : 1; p *= c1(v[j]) }
      if (s <= n + d - 1) tot += p
      for (j = 1; j <= d && v[j] == n; j++) v[j] = 0
      if (j > d) return tot
      v[j]++ } }
  function abs(x) { return x < 0 ? -x : x }
  function err(m) { bad++; print m > "/dev/stderr" }
  BEGIN { split("9 7 5 4 3", SL, " ") }
  /^# triad_gbs: / { triad = $3; next }
  /^# result: / { res[$3 " " $4 " " substr($5, 1, length($5) - 1)] = $0; nres++; next }
  /^#/ || $1 == "precision" { next }
  { prec = $1; lay = $2; sh = $3; lev = $4; pts = $5; G = $6; impl = $7; bm = $9; med = $10; gbs = $13; pct = $14
    key = prec " " lay " " sh; rows++
    elem = prec == "float" ? 4 : prec == "double" ? 8 : 0
    if (!elem) err("precision: " $0)
    if (lay == "sparse") { d = substr(sh, 2) + 0
      if (d < 2 || d > 6 || lev != SL[d - 1] || pts != sparse_pts(d, lev)) err("sparse grid: " $0) }
    else if (lay == "plain" || lay == "subspace") { n = split(sh, N, "x"); p = 1; mx = 0
      for (j = 1; j <= n; j++) { p *= N[j]; l = log(N[j] - 1) / log(2); if (l > mx) mx = l }
      if (pts != p || lev != (lay == "plain" ? 0 : int(mx + 0.5))) err("tile: " $0) }
    else err("layout: " $0)
    if (G != 3) err("grids: " $0)
    if (bm != 2 * G * pts * elem) err("bytes_moved != 2 x grids x points x elem: " $0)
    g = bm / (med * 1e6)
    if (abs(gbs - g) > 0.051 + 1e-4 * g) err("gbs != bytes_moved / median: " $0)
    if (abs(pct - 100 * g / triad) > 0.051 + 0.005 * pct) err("pct_triad != gbs / triad_gbs (" triad "): " $0)
    seen[key " " impl]++
    inv = impl ~ /_inverse$/; base = impl; sub(/_inverse$/, "", base)
    if (base == "cpu_blocked") { if (!((key, inv) in nb) || pct > nb[key, inv]) nb[key, inv] = pct }
    else if (base == "cpu_blocked_t") tb[key, inv] = pct
    else if (base == "cpu_tuned" || base == "cpu_shift") {
      if (!((key, inv) in ob) || pct > ob[key, inv]) ob[key, inv] = pct
      names[key, inv] = names[key, inv] " " base "=" pct }
    else err("impl: " $0)
    keys[key] = lay }
  END {
    if (triad <= 0) err("no # triad_gbs: line")
    for (k in keys) { lay = keys[k]; split(k, K, " ")
      want = "cpu_tuned cpu_shift cpu_blocked cpu_blocked_t"
      if (lay == "plain") want = K[1] == "float" ? "cpu_tuned cpu_blocked cpu_blocked_t" : "cpu_blocked cpu_blocked_t"
      if (lay == "subspace") want = "cpu_tuned cpu_shift cpu_blocked"
      n = split(want, W, " "); cnt = 0
      for (i = 1; i <= n; i++) for (v = 0; v < 2; v++) { im = W[i] (v ? "_inverse" : ""); cnt++
        if (seen[k " " im] != 1) err(k ": " (seen[k " " im] + 0) " rows of " im ", want 1") }
      for (s in seen) { split(s, S, " "); if (S[1] " " S[2] " " S[3] == k) cnt-- }
      if (cnt) err(k ": rows of other impls")
      r = res[k]
      if (r == "") { err(k ": no # result: line"); continue }
      w = sprintf("cpu_blocked %.1f%% of triad (inverse %.1f%%)", nb[k, 0], nb[k, 1])
      if (index(r, w) == 0) err(k ": result line lacks \"" w "\": " r)
      for (v = 0; v < 2; v++) {
        ho = ((k, v) in ob); nm = v ? "inverse " : ""; w = sprintf("%.1f%%", ob[k, v])
        if (!match(r, v ? "[(]inverse [a-z_]+ [0-9.]+%[)]" : "best older version [a-z_]+ [0-9.]+%")) { err(k ": no best older " nm "version: " r); continue }
        m = substr(r, RSTART, RLENGTH); gsub(/[()]/, "", m); nw = split(m, M, " ")
        if (ho ? M[nw] != w || index(names[k, v] " ", " " M[nw - 1] "=" ob[k, v] " ") == 0 : M[nw - 1] M[nw] != "none0.0%")
          err(k ": best older " nm "version \"" M[nw - 1] " " M[nw] "\", want " w " among" names[k, v]) }
      has = lay != "subspace"
      w = sprintf("; cpu_blocked_t %.1f%% (inverse %.1f%%)", tb[k, 0], tb[k, 1])
      if (has ? index(r, w) == 0 : index(r, "cpu_blocked_t") > 0) err(k ": cpu_blocked_t part wrong: " r) }
    if (length(keys) != 22 || nres != 22) err(length(keys) " shapes, " nres " result lines, want 22 each")
    if (rows != 2 * (5 * 8 + 3 * 6) + 3 * 6 + 3 * 4) err(rows " rows, want 146")
    print bad + 0 }' "$f")
[ "$res" = 0 ] || cli_fail "cpu-roofline: $res checks failed"
cli_done
