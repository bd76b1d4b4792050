#!/usr/bin/env bash
# Command-line contract of simplex3d/simplex3d and simplex3d/volume (no GPU needed):
# --help lists every map; --exp=list every experiment; no --exp, an unknown one, bad sizes and
# options: one error line, exit 2; --exp=layout prints `x y z launch block thread` for every
# working thread, each cell of D_n exactly once; a GPU experiment without a GPU exits 77;
# volume writes its four data files.
. "$(dirname "$0")/lib.sh"
prog=simplex3d/simplex3d
vol=simplex3d/volume
cli_need "make -C simplex3d" $prog $vol
tmp=$cli_tmp
help=$(expect 0 $prog --help)
for m in bb lambda-cubic lambda-exact recursive-log recursive-o1 recursive-o1-below nlist mblocks tpm; do
  grep -q -- "$m" <<<"$help" || { echo "FAILED: --help does not list $m"; fail=1; }
done
# the experiment table, without a GPU
list=$(expect 0 $prog --exp=list)
for e in write dummy map empty triplet write-coarse dummy-coarse triplet-coarse layout; do
  grep -qE "^  $e " <<<"$list" || { echo "FAILED: --exp=list does not list $e"; fail=1; }
done
# no experiment, or an unknown one: one line naming the choices, exit 2
for bad in "" "--exp=speedup" "--exp=write-coarse2"; do
  out=$(expect 2 $prog $bad)
  { [ "$(wc -l <<<"$out")" -eq 1 ] && grep -q '^error: .*write dummy map empty triplet .* layout' <<<"$out"; } ||
    { echo "FAILED: '$bad' should print one error line naming the experiments:"; echo "$out"; fail=1; }
done
# bad input: exactly one error line about the input itself (not the experiment), exit 2
for bad in "--exp=layout --n=0 --map=bb" "--rho=3" "--rho=0" "--map=foo" "--exp=layout --n=8" "--exp=layout --map=bb --n=600" \
           "--exp=layout --map=bb --n=100000" "--exp=write --nlist=24,x" "--exp=write --nlist=0" "--exp=write --nlist=8,16," \
           "--exp=write --nlist=70000" "--exp=write --n=8 --nlist=16" "--exp=dummy-coarse --rho=1" \
           "--exp=triplet-coarse --eval=thread" "--exp=write --nmin=512 --nmax=256" \
           "--exp=write --n=70000" "--exp=triplet --n=60000" "--n=-4" "--bogus" "extra" \
           "--exp=write-coarse --rho=1" "--exp=write-coarse --tpm=3" "--exp=write-coarse --rho=2 --tpm=4" \
           "--exp=write-coarse --mblocks=64 --tpm=32" "--exp=write-coarse --eval=thread" \
           "--exp=write-coarse --tpm=256"; do
  out=$(expect 2 $prog $bad)
  { [ "$(grep -c '^error' <<<"$out")" -eq 1 ] && ! grep -q 'experiment' <<<"$out"; } ||
    { echo "FAILED: '$bad' should print one error line:"; echo "$out"; fail=1; }
done
# rho = 1 on a *-coarse experiment: the error says why (16-byte chunks need rho >= 2), not a
# configuration message computed from rho^3/4 = 0 threads per map block
for e in write-coarse dummy-coarse; do
  out=$(expect 2 $prog --exp=$e --rho=1)
  grep -q "^error: --exp=$e needs rho >= 2" <<<"$out" || { echo "FAILED: --exp=$e --rho=1: '$out'"; fail=1; }
done
expect 2 $vol --nmax=3 >/dev/null
expect 2 $vol --nmax=6 >/dev/null
expect 2 $vol --nmax=65536 >/dev/null # n^8 would overflow 128 bits (bb_extra was -1)
# --exp=layout: every cell of D_n = {x <= y <= z < n} exactly once, nothing else
check_layout() { # map n rho
  $prog --exp=layout --map=$1 --n=$2 --rho=$3 > "$tmp/l.txt" 2>/dev/null || { echo "FAILED: layout $*"; fail=1; return; }
  head -n 20 "$tmp/l.txt" | grep -qx 'x y z launch block thread' || { echo "FAILED: layout $* header"; fail=1; }
  res=$(awk -v n=$2 '/^#/ || /^x/ {next} { if (!($1 <= $2 && $2 <= $3 && $3 < n)) bad++; k = $1 " " $2 " " $3; if (seen[k]++) dup++; rows++ }
        END { print rows + 0, bad + 0, dup + 0 }' "$tmp/l.txt")
  want=$(( $2 * ($2 + 1) * ($2 + 2) / 6 ))
  [ "$res" = "$want 0 0" ] || { echo "FAILED: layout $*: rows/outside/duplicates = $res, want $want 0 0"; fail=1; }
}
for m in bb lambda-cubic lambda-exact recursive-o1 recursive-o1-below recursive-log; do
  for n in 1 7 13; do for r in 1 2 4; do check_layout $m $n $r; done; done
done
for n in 8 16 17 33; do for r in 1 2; do check_layout recursive-log $n $r; check_layout recursive-o1-below $n $r; done; done
# recursive-log: several launches, numbered from 0
n_l=$($prog --exp=layout --map=recursive-log --n=16 --rho=2 | awk '!/^#/ && !/^x/ {print $4}' | sort -un | wc -l)
[ "$n_l" -gt 1 ] || { echo "FAILED: recursive-log layout shows $n_l launches"; fail=1; }
# GPU experiments: run (0) on a GPU machine, exit 77 without one
$prog --exp=write --n=8 --rho=2 --reps=1 --warmup=0 --out="$tmp" >"$tmp/g.log" 2>&1; rc=$?
case $rc in 0|77) ;; *) echo "FAILED: GPU mode exit $rc"; cat "$tmp/g.log"; fail=1;; esac
$prog --exp=write-coarse --n=8 --rho=2 --reps=1 --warmup=0 --out="$tmp" >"$tmp/g.log" 2>&1; rc=$?
case $rc in 0|77) ;; *) echo "FAILED: write-coarse GPU mode exit $rc"; cat "$tmp/g.log"; fail=1;; esac
# the map kernel (no store) and the empty kernel: every map verified, one row each
for e in map empty; do
  $prog --exp=$e --n=40 --rho=4 --reps=1 --warmup=0 --out="$tmp" >"$tmp/g.log" 2>&1; rc=$?
  case $rc in
    0) rows=$(grep -cv '^#\|^kernel' "$tmp/simplex3d_speedup_${e}_rho4.dat")
       [ "$rows" -eq 6 ] || { echo "FAILED: --exp=$e wrote $rows rows, want one per map (6)"; fail=1; } ;;
    77) ;;
    *) echo "FAILED: --exp=$e GPU mode exit $rc"; cat "$tmp/g.log"; fail=1;;
  esac
done
# volume: host only, its four files
expect 0 $vol --quick --out="$tmp/v" >/dev/null
for f in bb m3 m search; do
  [ -f "$tmp/v/simplex3d_volume_$f.dat" ] || { echo "FAILED: volume did not write simplex3d_volume_$f.dat"; fail=1; }
done
grep -q '^# gpu: none (host computation)' "$tmp/v/simplex3d_volume_m3.dat" || { echo "FAILED: volume gpu metadata"; fail=1; }
cli_done
