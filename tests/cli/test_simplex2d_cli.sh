#!/usr/bin/env bash
# Command-line contract of simplex2d/simplex2d: --help lists every map and kernel; --exp=list
# prints the experiment table without a GPU; no --exp, an unknown one and bad input (n = 0,
# unsupported rho, n too large, rec with n not a multiple of rho, unknown map) print one error
# line and exit 2; --exp=layout (no GPU) prints every cell of the triangle exactly once for
# every map; a GPU experiment exits 77 without a GPU (0 with one).
. "$(dirname "$0")/lib.sh"
prog=simplex2d/simplex2d
cli_need "make -C simplex2d" $prog
help=$(expect 0 "$prog" --help)
for w in bb rb rec utm lambda-sqrt lambda-newton lambda-rsqrt lambda-exact recursive \
         dummy write edm4d collision3d collision1d; do
  printf '%s\n' "$help" | grep -qw -- "$w" || { echo "FAILED: --help does not list $w"; fail=1; }
done
# the experiment table: every experiment by name, exit 0, no GPU needed
list=$(expect 0 "$prog" --exp=list)
for e in fig3 fig5 sblocks rho coarse point layout; do
  printf '%s\n' "$list" | grep -qE "^  $e " || { echo "FAILED: --exp=list does not list $e"; fail=1; }
done
# no experiment, or an unknown one: one line naming the choices, exit 2
for bad in "" "--exp=nope" "--exp=point3"; do
  out=$(expect 2 "$prog" $bad)
  { [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '^error: .*fig3 fig5 .* layout'; } ||
    { echo "FAILED: '$bad' should print one error line naming the experiments"; printf '%s\n' "$out"; fail=1; }
done
# bad input: one error line about the input itself (not the missing experiment), exit 2
for bad in "--n=0" "--rho=3" "--rho=64" "--n=2000000" "--map=nope" "--bogus" "--exp=point --map=rec --n=100 --rho=16" \
           "--exp=layout --n=0" "--exp=layout --rho=5" "--exp=layout --map=rec --n=30 --rho=4" \
           "--exp=point --n=1048576 --rho=1 --map=bb" "--nmin=10 --nmax=5 --exp=fig3" "--kernel=nope" \
           "--exp=layout --map=lambda-exact --n=1048576 --rho=1" "--exp=layout --map=recursive --n=200000 --rho=2" \
           "--exp=coarse --n=1030" "--exp=layout --map=bb --n=65536 --rho=32" "--exp=fig3 --nmin=1 --nmax=5000 --nstep=1"; do
  out=$(expect 2 "$prog" $bad)
  { [ "$(printf '%s\n' "$out" | grep -c '^error:')" -eq 1 ] && ! printf '%s\n' "$out" | grep -q 'experiment'; } ||
    { echo "FAILED: '$bad' should print one error line"; printf '%s\n' "$out"; fail=1; }
done
# --exp=layout: each cell (i, j), 0 <= j <= i < n, exactly once; nothing else
for map in bb rb rec utm lambda-sqrt lambda-newton lambda-rsqrt lambda-exact recursive lambda-exact-2d recursive-2d utm-published recursive-above; do
  for nr in "32 4" "37 4" "64 8" "33 1" "96 32"; do
    set -- $nr; n=$1; rho=$2
    [ $map = rec ] && [ $((n % rho)) -ne 0 ] && continue
    res=$("$prog" --exp=layout --map=$map --n=$n --rho=$rho | awk -v n=$n '
      /^#/ || /^i j/ { next }
      { if ($1 >= n || $2 > $1 || $1 < 0 || $2 < 0) bad++; if (seen[$1 " " $2]++) dup++; c++ }
      END { print c + 0, bad + 0, dup + 0 }')
    want="$((n * (n + 1) / 2)) 0 0"
    [ "$res" = "$want" ] || { echo "FAILED: --exp=layout --map=$map --n=$n --rho=$rho: cells/outside/duplicates = $res, want $want"; fail=1; }
  done
done
# eq. (5), lambda-strict: exactly the strict triangle j < i, and refused for kernels that need the diagonal
for nr in "9 4" "37 4" "33 1" "65 32"; do
  set -- $nr; n=$1; rho=$2
  res=$("$prog" --exp=layout --map=lambda-strict --n=$n --rho=$rho | awk -v n=$n '
    /^#/ || /^i j/ { next }
    { if ($1 >= n || $2 >= $1 || $2 < 0) bad++; if (seen[$1 " " $2]++) dup++; c++ }
    END { print c + 0, bad + 0, dup + 0 }')
  want="$((n * (n - 1) / 2)) 0 0"
  [ "$res" = "$want" ] || { echo "FAILED: --exp=layout --map=lambda-strict --n=$n --rho=$rho: $res, want $want"; fail=1; }
done
expect 2 "$prog" --exp=point --map=lambda-strict --kernel=write | grep -q 'pair kernels' || { echo "FAILED: lambda-strict with write"; fail=1; }
expect 2 "$prog" --exp=point --map=lambda-strict --kernel=dummy | grep -q 'pair kernels' || { echo "FAILED: lambda-strict with dummy"; fail=1; }
# header and columns of the layout output
"$prog" --exp=layout --map=bb --n=4 --rho=2 | grep -qx 'i j launch block thread' || { echo "FAILED: layout header"; fail=1; }
# rec's layout uses several launches (the diagonal pass is launch 0)
[ "$("$prog" --exp=layout --map=rec --n=32 --rho=4 | awk '!/^#/ && !/^i/ {print $3}' | sort -u | wc -l)" -eq 4 ] \
  || { echo "FAILED: rec at n=32 rho=4 should use 4 launches (3 levels + diagonal)"; fail=1; }
# a GPU experiment: 77 without a GPU, 0 with one
"$prog" --exp=point --map=lambda-exact --kernel=write --n=100 --rho=8 --reps=1 --warmup=0 >/dev/null 2>&1; rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || { echo "FAILED: point run exited $rc (want 0, or 77 without GPU)"; fail=1; }
cli_done
