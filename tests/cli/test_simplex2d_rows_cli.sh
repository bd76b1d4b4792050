#!/usr/bin/env bash
# The rows of simplex2d's host-only outputs against values computed here, independently of the
# program:
#  - --exp=layout: the launch, block and thread of every cell (i, j) for bb (block by m + bx,
#    m = ceil(n / rho)) and the lambda maps (block omega = by (by + 1) / 2 + bx, arXiv:1609.01490
#    eq. 4), thread (i % rho) rho + j % rho; the rows' count n (n + 1) / 2; the `# launches:`
#    line (rec: log2(m) + 1 launches);
#  - lambda-mpi --backend=cpu (when mpirun exists): every row's block counts against the split
#    [r T / P, (r + 1) T / P) computed here -- blocks_total = T(m), blocks_min / blocks_max =
#    floor / ceil(T / P), ranks_idle = max(P - T, 0) -- for P = 1, 3, 4, rho = 1, 4 and the coarse
#    tiles (rho 32), and the row count (sizes x (fill + kernels x variants)); --sizes at its
#    limits: 16 sizes accepted and 17 refused, n = 2 accepted and 1, 1048577 refused; n = 92682 at
#    rho = 1 (T = 4295022903 > 2^32 blocks) refused, naming the count.
. "$(dirname "$0")/lib.sh"
prog=simplex2d/simplex2d
cli_need "make -C simplex2d" $prog
tmp=$cli_tmp

for map in bb lambda-exact lambda-sqrt lambda-newton lambda-rsqrt; do
  for nr in "5 2" "37 4" "64 8" "33 1" "100 32" "1 1" "2 2"; do
    set -- $nr
    res=$($prog --exp=layout --map=$map --n=$1 --rho=$2 | awk -v n=$1 -v r=$2 -v map=$map '
      /^# launches:/ { launches = $3 } /^#/ || /^i j/ { next }
      { by = int($1 / r); bx = int($2 / r); m = int((n + r - 1) / r)
        b = map == "bb" ? by * m + bx : by * (by + 1) / 2 + bx
        t = ($1 % r) * r + $2 % r
        if ($3 != 0 || $4 != b || $5 != t) bad++; rows++ }
      END { print rows + 0, bad + 0, launches }')
    want="$(($1 * ($1 + 1) / 2)) 0 1"
    [ "$res" = "$want" ] || cli_fail "layout $map n=$1 rho=$2: rows/wrong/launches = $res, want $want"
  done
done
# rec: the diagonal pass plus one launch per level, log2(m) + 1 in all
for nr in "32 4 4" "64 4 5" "8 8 1" "16 8 2" "64 1 7"; do
  set -- $nr
  l=$($prog --exp=layout --map=rec --n=$1 --rho=$2 | awk '/^# launches:/ { print $3 }')
  used=$($prog --exp=layout --map=rec --n=$1 --rho=$2 | awk '!/^#/ && !/^i/ { print $3 }' | sort -u | wc -l)
  [ "$l $used" = "$3 $3" ] || cli_fail "layout rec n=$1 rho=$2: launches line $l, launches used $used, want $3"
done

# ---- lambda-mpi, CPU backend
lm=simplex2d/lambda-mpi
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x $lm ]; then
  echo "lambda-mpi: not tested here (no mpirun or not built)"
  cli_done
fi
flags=(-q --oversubscribe)
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
# P = 1 runs as a singleton (no mpirun: a few tenths of a second instead of two seconds)
mpi() {
  local np=$1; shift
  if [ "$np" -eq 1 ]; then OMP_NUM_THREADS=1 timeout "${MPI_TIMEOUT:-60}" "$@"
  else timeout "${MPI_TIMEOUT:-60}" mpirun "${flags[@]}" -np "$np" -x OMP_NUM_THREADS=1 "$@"; fi
}
check_split() { # FILE P: every row's block counts against the split computed here
  awk -v P=$2 '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next }
    { n = $c["n"]; r = $c["rho"]; m = int((n + r - 1) / r); T = m * (m + 1) / 2
      mn = -1; mx = 0; idle = 0
      for (q = 0; q < P; q++) { b = int(T * (q + 1) / P) - int(T * q / P); if (mn < 0 || b < mn) mn = b; if (b > mx) mx = b; idle += b == 0 }
      if ($c["blocks_total"] != T || $c["blocks_min"] != mn || $c["blocks_max"] != mx || $c["ranks_idle"] != idle || $c["ranks"] != P) {
        bad++; if (bad <= 3) print "row " NR ": n=" n " rho=" r ": " $c["blocks_total"], $c["blocks_min"], $c["blocks_max"], $c["ranks_idle"] " want " T, mn, mx, idle > "/dev/stderr" }
      rows++ }
    END { print rows + 0, bad + 0 }' "$1"
}
for pr in "1 1" "1 4" "3 1" "4 4"; do # P = 2 is the MPI test's own (test_simplex2d_mpi_cli.sh)
  set -- $pr; np=$1; rho=$2
  {
    out=$(mpi $np $lm --backend=cpu --sizes=2,5,33,64,301 --variant=both --rho=$rho --reps=1 --warmup=0 --out=$tmp/c$rho 2>&1) ||
      { cli_fail "lambda-mpi P=$np rho=$rho failed"; printf '%s\n' "$out" | tail -3; continue; }
    res=$(check_split $tmp/c$rho/simplex2d_dist_lambda_cpu_p$np.dat $np)
    [ "$res" = "25 0" ] || cli_fail "lambda-mpi P=$np rho=$rho: rows/wrong = $res, want 25 0 (5 sizes x (fill + 2 kernels x 2 variants))"
  }
done
# one kernel, one variant: 1 + 1 rows per size
mpi 1 $lm --backend=cpu --sizes=40 --kernel=edm4d --variant=plain --rho=8 --reps=1 --warmup=0 --out=$tmp/k >/dev/null 2>&1 || cli_fail "lambda-mpi --kernel=edm4d --variant=plain"
res=$(check_split $tmp/k/simplex2d_dist_lambda_cpu_p1.dat 1)
[ "$res" = "2 0" ] || cli_fail "lambda-mpi --kernel=edm4d --variant=plain: rows/wrong = $res, want 2 0"
grep -v '^#' $tmp/k/simplex2d_dist_lambda_cpu_p1.dat | awk 'NR > 1 { print $1, $2 }' | tr '\n' ' ' | grep -qx 'fill linear edm4d plain ' ||
  cli_fail "lambda-mpi --kernel=edm4d --variant=plain: not the rows fill linear, edm4d plain"

# --sizes at its limits: 16 values, n = 2 accepted; 17 values, n = 1 and 2^20 + 1 refused
s16=$(seq -s, 2 17)
mpi 1 $lm --backend=cpu --sizes=$s16 --variant=plain --kernel=write --reps=1 --warmup=0 --out=$tmp/s16 >/dev/null 2>&1 || cli_fail "--sizes with 16 values refused"
[ "$(grep -v '^#' $tmp/s16/simplex2d_dist_lambda_cpu_p1.dat | awk 'NR > 1 && $2 == "plain"' | wc -l)" -eq 16 ] || cli_fail "--sizes with 16 values: not 16 plain rows"
for bad in "$s16,18" 1 1048577 "2,,3" "0x10"; do
  out=$(mpi 1 $lm --backend=cpu --sizes=$bad --out=$tmp/bad 2>&1); rc=$?
  [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^error:.*want up to 16 comma-separated')" -eq 1 ] ||
    cli_fail "--sizes=$bad: exit $rc, want 2 and one error line ($out)"
done
out=$(mpi 1 $lm --backend=cpu --sizes=92682 --variant=plain --rho=1 --out=$tmp/bad 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q '^error: n = 92682 at rho = 1 has 4295022903 blocks' ||
  cli_fail "n = 92682 at rho = 1: exit $rc, want 2 naming 4295022903 blocks ($out)"
[ -e $tmp/bad ] && [ -n "$(ls -A $tmp/bad)" ] && cli_fail "a refused lambda-mpi run wrote $(ls $tmp/bad)"
cli_done
