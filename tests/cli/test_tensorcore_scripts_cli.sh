#!/usr/bin/env bash
# tensorcore's two host scripts on small hand-made data files, every output row against values
# worked out by hand (no GPU, no build):
#  - spread.sh OUT RUN1 RUN2 [RUN3 ...]: per (r, rho, map) of run 1 present in every run, the
#    median (odd: the middle value; even: the mean of the two middle ones), min and max of the
#    speedups (each run read by its own column names: run 2 has another column order), the
#    median of lambda's median_ms and its spread (max - min) / median in %,
#    inside_noise = 1 when the speedups straddle 1 (min <= 1 <= max, 1.00 itself counts) or
#    |median - 1| <= the spread, else 0; run 1's metadata lines only; a configuration missing
#    from another run skipped and counted; a run without the lambda row of a configuration
#    the others have: exit 1, no OUT; fewer than two runs or a missing file: exit 2, no OUT.
#  - v2_readings.sh IN OUT: reading 1 (v2 at rho against lambda at rho, sub-blocks rho/2) and
#    reading 2 (v2 at 2 rho against lambda at rho, sub-blocks rho), for v2, v2-mma and
#    v2-lambda, rho = 8, 16, 32, only where both rows exist; one '# columns:' line.
. "$(dirname "$0")/lib.sh"
tmp=$cli_tmp
spread=tensorcore/spread.sh
readings=tensorcore/v2_readings.sh
cols='fractal r n rho rb map median_ms min_ms max_ms speedup_x speedup_thread_x threads extra_threads batch'
# row R RHO MAP MEDIAN_MS SPEEDUP: one data row of tensorcore_fig10_<work>.dat (n = 2^R)
row() { echo "sierpinski-triangle $1 $((1 << $1)) $2 $(($1 - 3)) $3 $4 $4 $4 $5 1.0000 1024 0 1"; }

# three runs; r = 7 only in runs 1 and 3 (skipped: 2 configurations)
{ echo "# program: tensorcore"; echo "# gpu: GPU-ONE"; echo "# date: one"; echo "# columns: x"; echo "$cols"
  row 5 8 lambda 1.000000 1.0000; row 5 8 v1 0.900000 1.1000; row 5 8 v2 1.050000 0.9500; row 5 8 v3 0.950000 1.0500
  row 6 16 lambda 2.000000 1.0000; row 6 16 v1 1.980000 1.0100; row 6 16 v2 2.040000 0.9800
  row 7 8 lambda 3.000000 1.0000; row 7 8 v1 2.000000 1.5000; } >"$tmp/run1.dat"
{ echo "# program: tensorcore"; echo "# gpu: GPU-TWO"; echo "$cols"
  row 6 16 v2 2.000000 1.0000; row 6 16 v1 1.960000 1.0300; row 6 16 lambda 2.000000 1.0000
  row 5 8 v3 1.090000 1.1000; row 5 8 v2 1.170000 1.0200; row 5 8 v1 0.920000 1.3000; row 5 8 lambda 1.200000 1.0000; } |
  awk '/^#/ { print; next } { t = $1; $1 = $10; $10 = t; t = $2; $2 = $7; $7 = t; print }' >"$tmp/run2.dat" # its own column order
{ echo "# gpu: GPU-THREE"; echo "$cols"
  row 5 8 lambda 0.900000 1.0000; row 5 8 v1 0.750000 1.2000; row 5 8 v2 0.930000 0.9700; row 5 8 v3 0.830000 1.0800
  row 6 16 lambda 2.000000 1.0000; row 6 16 v1 1.960000 1.0200; row 6 16 v2 2.020000 0.9900
  row 7 8 lambda 3.000000 1.0000; row 7 8 v1 2.000000 1.5000; } >"$tmp/run3.dat"

hdr='fractal r n rho map runs speedup_med speedup_min speedup_max lambda_ms_med lambda_spread_pct inside_noise'
expect 0 $spread "$tmp/s3.dat" "$tmp/run1.dat" "$tmp/run2.dat" "$tmp/run3.dat" | grep -qx "wrote $tmp/s3.dat" || cli_fail "spread.sh: no 'wrote' line"
want="# program: tensorcore
# gpu: GPU-ONE
$hdr
sierpinski-triangle 5 32 8 lambda 3 1.0000 1.0000 1.0000 1.000000 30.00 1
sierpinski-triangle 5 32 8 v1 3 1.2000 1.1000 1.3000 1.000000 30.00 1
sierpinski-triangle 5 32 8 v2 3 0.9700 0.9500 1.0200 1.000000 30.00 1
sierpinski-triangle 5 32 8 v3 3 1.0800 1.0500 1.1000 1.000000 30.00 1
sierpinski-triangle 6 64 16 lambda 3 1.0000 1.0000 1.0000 2.000000 0.00 1
sierpinski-triangle 6 64 16 v1 3 1.0200 1.0100 1.0300 2.000000 0.00 0
sierpinski-triangle 6 64 16 v2 3 0.9900 0.9800 1.0000 2.000000 0.00 1
# skipped: 2 configurations of run 1 missing from another run"
got=$(grep -v '^# \(derived\|columns\):' "$tmp/s3.dat")
[ "$got" = "$want" ] || { cli_fail "spread.sh, three runs: output differs"; diff <(echo "$want") <(echo "$got") >&2; }
grep -qx "# derived: by tensorcore/spread.sh from 3 runs: $tmp/run1.dat $tmp/run2.dat $tmp/run3.dat" "$tmp/s3.dat" || cli_fail "spread.sh: the derived line"
[ "$(grep -c '^# columns:' "$tmp/s3.dat")" = 1 ] || cli_fail "spread.sh: not one '# columns:' line"

# two runs: even medians (the mean of the middle two); r = 7 skipped again
expect 0 $spread "$tmp/s2.dat" "$tmp/run1.dat" "$tmp/run2.dat" >/dev/null
want="$hdr
sierpinski-triangle 5 32 8 lambda 2 1.0000 1.0000 1.0000 1.100000 18.18 1
sierpinski-triangle 5 32 8 v1 2 1.2000 1.1000 1.3000 1.100000 18.18 0
sierpinski-triangle 5 32 8 v2 2 0.9850 0.9500 1.0200 1.100000 18.18 1
sierpinski-triangle 5 32 8 v3 2 1.0750 1.0500 1.1000 1.100000 18.18 1
sierpinski-triangle 6 64 16 lambda 2 1.0000 1.0000 1.0000 2.000000 0.00 1
sierpinski-triangle 6 64 16 v1 2 1.0200 1.0100 1.0300 2.000000 0.00 0
sierpinski-triangle 6 64 16 v2 2 0.9900 0.9800 1.0000 2.000000 0.00 1
# skipped: 2 configurations of run 1 missing from another run"
got=$(grep -v '^# \(derived\|columns\|program\|gpu\):' "$tmp/s2.dat")
[ "$got" = "$want" ] || { cli_fail "spread.sh, two runs: output differs"; diff <(echo "$want") <(echo "$got") >&2; }

# a map slower than lambda in every run, beyond lambda's spread, is a measured effect as much as a
# faster one: |median - 1| = 0.15 > 0.10 -> inside_noise 0 (not only when the speedup is above 1)
{ echo "$cols"; row 5 8 lambda 1.000000 1.0000; row 5 8 v1 1.200000 0.8000; row 5 8 v2 0.800000 1.2000; } >"$tmp/slow1.dat"
{ echo "$cols"; row 5 8 lambda 1.100000 1.0000; row 5 8 v1 1.200000 0.9000; row 5 8 v2 0.900000 1.1000; } >"$tmp/slow2.dat"
expect 0 $spread "$tmp/slow.dat" "$tmp/slow1.dat" "$tmp/slow2.dat" >/dev/null
want="$hdr
sierpinski-triangle 5 32 8 lambda 2 1.0000 1.0000 1.0000 1.050000 9.52 1
sierpinski-triangle 5 32 8 v1 2 0.8500 0.8000 0.9000 1.050000 9.52 0
sierpinski-triangle 5 32 8 v2 2 1.1500 1.1000 1.2000 1.050000 9.52 0"
got=$(grep -v '^#' "$tmp/slow.dat")
[ "$got" = "$want" ] || { cli_fail "spread.sh, a slower map: output differs"; diff <(echo "$want") <(echo "$got") >&2; }

# a run without lambda's row at r = 5, rho = 8 (its maps present): exit 1, no output
awk '!($6 == "lambda" && $7 == 5)' "$tmp/run2.dat" >"$tmp/nolam.dat" # map and r: columns 6 and 7 there
out=$(expect 1 $spread "$tmp/nol.dat" "$tmp/run1.dat" "$tmp/nolam.dat")
printf '%s\n' "$out" | grep -q 'run 2 has no lambda row at r rho = 5 8' || cli_fail "spread.sh, missing lambda row: '$out'"
[ -e "$tmp/nol.dat" ] || [ -e "$tmp/nol.dat.tmp" ] && cli_fail "spread.sh, missing lambda row: output left"
# usage: fewer than two runs, a missing run
expect 2 $spread "$tmp/one.dat" "$tmp/run1.dat" | grep -q '^usage: tensorcore/spread.sh' || cli_fail "spread.sh with one run: no usage line"
expect 2 $spread "$tmp/one.dat" "$tmp/run1.dat" "$tmp/none.dat" | grep -q "error: $tmp/none.dat: no such file" || cli_fail "spread.sh, missing run"
[ -e "$tmp/one.dat" ] && cli_fail "spread.sh: a refused call wrote its output"

# ---- v2_readings.sh
{ echo "# program: tensorcore"; echo "# gpu: GPU-ONE"; echo "# columns: median/min/max_ms per launch"; echo "$cols"
  row 5 8 lambda 1.000000 1.0000; row 5 16 lambda 2.000000 1.0000; row 5 32 lambda 4.000000 1.0000
  row 5 8 v2 0.500000 2.0000; row 5 16 v2 0.800000 2.5000; row 5 32 v2 2.500000 1.6000
  row 5 16 v2-mma 1.600000 1.2500; row 5 32 v2-lambda 5.000000 0.8000; row 5 8 v1 0.900000 1.1111
  row 6 8 lambda 3.000000 1.0000; row 6 16 v2 1.500000 2.0000; } >"$tmp/fig10.dat"
expect 0 $readings "$tmp/fig10.dat" "$tmp/rd.dat" | grep -qx "wrote $tmp/rd.dat" || cli_fail "v2_readings.sh: no 'wrote' line"
want="# program: tensorcore
# gpu: GPU-ONE
# derived: by tensorcore/v2_readings.sh from $tmp/fig10.dat (rows re-paired, nothing re-measured)
fractal r n rho map reading block_rho sub_rho lambda_ms map_ms speedup_x
sierpinski-triangle 5 32 8 v2 1 8 4 1.000000 0.500000 2.0000
sierpinski-triangle 5 32 8 v2 2 16 8 1.000000 0.800000 1.2500
sierpinski-triangle 5 32 8 v2-mma 2 16 8 1.000000 1.600000 0.6250
sierpinski-triangle 5 32 16 v2 1 16 8 2.000000 0.800000 2.5000
sierpinski-triangle 5 32 16 v2 2 32 16 2.000000 2.500000 0.8000
sierpinski-triangle 5 32 16 v2-mma 1 16 8 2.000000 1.600000 1.2500
sierpinski-triangle 5 32 16 v2-lambda 2 32 16 2.000000 5.000000 0.4000
sierpinski-triangle 5 32 32 v2 1 32 16 4.000000 2.500000 1.6000
sierpinski-triangle 5 32 32 v2-lambda 1 32 16 4.000000 5.000000 0.8000
sierpinski-triangle 6 64 8 v2 2 16 8 3.000000 1.500000 2.0000"
got=$(grep -v '^# columns:' "$tmp/rd.dat")
[ "$got" = "$want" ] || { cli_fail "v2_readings.sh: output differs"; diff <(echo "$want") <(echo "$got") >&2; }
[ "$(grep -c '^# columns:' "$tmp/rd.dat")" = 1 ] || cli_fail "v2_readings.sh: not one '# columns:' line"
expect 2 $readings "$tmp/fig10.dat" | grep -q '^usage: tensorcore/v2_readings.sh' || cli_fail "v2_readings.sh with one argument"
expect 2 $readings "$tmp/none.dat" "$tmp/rd2.dat" | grep -q "error: $tmp/none.dat: no such file" || cli_fail "v2_readings.sh, missing input"
[ -e "$tmp/rd2.dat" ] && cli_fail "v2_readings.sh: a refused call wrote its output"
cli_done
