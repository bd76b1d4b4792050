#!/usr/bin/env bash
# tensorcore/spread.sh OUT.dat RUN1.dat RUN2.dat [RUN3.dat ...] -- the run-to-run spread of
# every speedup of Fig. 10 (section 6) over repeated runs of ./tensorcore (same work kernel and
# GPU); only the configurations of RUN1 present in every run are reported.
# Per (r, rho, map): the speedup_x of each run (lambda median / map median, same run), their
# median, min and max, and the run-to-run spread of the classic lambda itself
# (lambda_spread_pct = (max - min) / median of lambda's median_ms over the runs): an
# identical kernel timed again, i.e. the noise floor of a comparison.
# inside_noise = 1 when the speedups of the runs straddle 1, or when |median speedup - 1|
# is not larger than lambda_spread_pct: such a difference is not a measured effect.
# Output columns: fractal r n rho map runs speedup_med speedup_min speedup_max lambda_ms_med lambda_spread_pct inside_noise
set -eu
[ $# -ge 3 ] || { echo "usage: tensorcore/spread.sh OUT.dat RUN1.dat RUN2.dat [RUN3.dat ...]" >&2; exit 2; }
out=$1
shift
for f in "$@"; do [ -f "$f" ] || { echo "error: $f: no such file" >&2; exit 2; }; done
tmp="$out.tmp"
trap 'rm -f "$tmp"' EXIT
awk -v nruns=$# -v files="$*" '
  function med(a, n,   i, j, t, b) { for (i = 1; i <= n; i++) b[i] = a[i]
    for (i = 2; i <= n; i++) for (j = i; j > 1 && b[j - 1] > b[j]; j--) { t = b[j]; b[j] = b[j - 1]; b[j - 1] = t }
    return n % 2 ? b[(n + 1) / 2] : (b[n / 2] + b[n / 2 + 1]) / 2 }
  FNR == 1 { run++; h = 0 }
  /^#/ { if (run == 1 && ($2 == "program:" || $2 == "gpu:" || $2 == "flags:" || $2 == "timing:" || $2 == "fractal:" || $2 == "host:")) print; next }
  !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  { k = $c["r"] " " $c["rho"] " " $c["map"]
    if (run == 1) { keys[++nk] = k; nn[k] = $c["n"]; fr = $c["fractal"] }
    sp[k, run] = $c["speedup_x"]; cnt[k]++
    if ($c["map"] == "lambda") lam[$c["r"] " " $c["rho"], run] = $c["median_ms"] }
  END {
    print "# derived: by tensorcore/spread.sh from " nruns " runs: " files
    print "# columns: speedup_* over the runs; lambda_spread_pct = run-to-run (max-min)/median of the classic lambda itself; inside_noise = 1 if the runs straddle 1 or |speedup_med - 1| <= lambda_spread_pct/100"
    print "fractal r n rho map runs speedup_med speedup_min speedup_max lambda_ms_med lambda_spread_pct inside_noise"
    for (q = 1; q <= nk; q++) { k = keys[q]
      if (cnt[k] != nruns) { skipped++; continue } # a level not in every run (e.g. a run with --rmin)
      split(k, p, " "); lk = p[1] " " p[2]
      for (i = 1; i <= nruns; i++) if (!((lk, i) in lam)) { printf "error: run %d has no lambda row at r rho = %s\n", i, lk > "/dev/stderr"; exit 1 }
      lo = 1e30; hi = -1e30; llo = 1e30; lhi = -1e30
      for (i = 1; i <= nruns; i++) { a[i] = sp[k, i]; if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i]
        l[i] = lam[lk, i]; if (l[i] < llo) llo = l[i]; if (l[i] > lhi) lhi = l[i] }
      m = med(a, nruns); lm = med(l, nruns); ls = (lhi - llo) / lm
      d = m - 1; if (d < 0) d = -d
      noise = (lo <= 1 && hi >= 1) || d <= ls
      printf "%s %s %s %s %s %d %.4f %.4f %.4f %.6f %.2f %d\n", fr, p[1], nn[k], p[2], p[3], nruns, m, lo, hi, lm, 100 * ls, noise }
    if (skipped) print "# skipped: " skipped " configurations of run 1 missing from another run"
  }' "$@" >"$tmp"
mv "$tmp" "$out"
echo "wrote $out"
