#!/usr/bin/env bash
# tensorcore/v2_readings.sh IN.dat OUT.dat -- both readings of variant 2 (section 5.2, Fig. 8)
# from a measured tensorcore_fig10_<work>.dat (no new measurement: a re-pairing of its rows).
#   reading 1 (implemented): rho is the real block, split into (rho/2)^2 sub-blocks; compared
#             with lambda at the same rho (this is Fig. 10's speedup_x);
#   reading 2: rho is the sub-block, inside a real block of 2 rho; compared with lambda at
#             rho, i.e. lambda(rho) / v2(2 rho).  Exists for rho = 8, 16 (a 64 x 64 block
#             would exceed 1024 threads).
# Maps: v2, v2-mma (tensor cores) and v2-lambda (the same layout, classic lambda).
# Output columns: fractal r n rho map reading block_rho sub_rho lambda_ms map_ms speedup_x
set -eu
[ $# -eq 2 ] || { echo "usage: tensorcore/v2_readings.sh IN.dat OUT.dat" >&2; exit 2; }
in=$1 out=$2
[ -f "$in" ] || { echo "error: $in: no such file" >&2; exit 2; }
tmp="$out.tmp"
trap 'rm -f "$tmp"' EXIT
awk -v src="$in" '
  /^#/ { if ($2 != "columns:") print; next }
  !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1
       print "# derived: by tensorcore/v2_readings.sh from " src " (rows re-paired, nothing re-measured)"
       print "# columns: reading 1 = rho is the real block of v2 (sub-blocks rho/2), reading 2 = rho is the sub-block (real block 2 rho); speedup_x = lambda_ms at rho / map_ms at block_rho"
       print "fractal r n rho map reading block_rho sub_rho lambda_ms map_ms speedup_x"
       next }
  { key = $c["r"] " " $c["rho"] " " $c["map"]; ms[key] = $c["median_ms"]; nn[$c["r"]] = $c["n"]; fr = $c["fractal"]
    if (!($c["r"] in seen)) { seen[$c["r"]] = 1; rs[++nr] = $c["r"] } }
  END {
    split("v2 v2-mma v2-lambda", maps, " ")
    split("8 16 32", rhos, " ")
    for (i = 1; i <= nr; i++) { r = rs[i]
      for (q = 1; q <= 3; q++) { rho = rhos[q]; lk = r " " rho " lambda"
        if (!(lk in ms)) continue
        for (m = 1; m <= 3; m++) {
          k1 = r " " rho " " maps[m]; k2 = r " " 2 * rho " " maps[m]
          if (k1 in ms) printf "%s %d %d %d %s 1 %d %d %s %s %.4f\n", fr, r, nn[r], rho, maps[m], rho, rho / 2, ms[lk], ms[k1], ms[lk] / ms[k1]
          if (k2 in ms) printf "%s %d %d %d %s 2 %d %d %s %s %.4f\n", fr, r, nn[r], rho, maps[m], 2 * rho, rho, ms[lk], ms[k2], ms[lk] / ms[k2]
        } } } }' "$in" >"$tmp"
mv "$tmp" "$out"
echo "wrote $out"
