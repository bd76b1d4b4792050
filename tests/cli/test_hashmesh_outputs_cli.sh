#!/usr/bin/env bash
# hashmesh's file tools and an existing FILE.tmp that is not a regular file: each tool writes
# FILE.tmp, then renames it onto FILE, so FILE.tmp left as a FIFO would block the write forever
# and a directory there would fail only after the work.  Each is refused before any work:
# exit 2, one error line naming FILE.tmp, FILE not created, the FIFO still a FIFO -- for
# neighbors, hashdata's sort, remap and look-up, and neighbors-mpi on 1 and 2 ranks (every run
# under a timeout: a hang is a failure).  A regular FILE.tmp left by an earlier run is simply
# replaced (exit 0, the right rows).
# Also hashmesh --exp=tab4_1, the one experiment --exp=list marks `host`: with no visible device
# it reads the committed figures (results-ref/, copied to --out) and writes Table 4.1, exit 0, one
# row per algorithm, each speed-up the ratio of the times on its row (to the 2 decimals written).
. "$(dirname "$0")/lib.sh"
nb=hashmesh/neighbors
hd=hashmesh/hashdata
cli_need "make -C hashmesh" $nb $hd
tmp=$cli_tmp
hm_hand_mesh $tmp/m.txt $tmp/want.txt
printf 'keys1d 2\n10\n4\n' >$tmp/k.txt
printf '1\n2\n3\n4\n5\n' >$tmp/v.txt
printf 'table2d 2 2 0 1 0 1\n0 1 2 3\n' >$tmp/t.txt
printf '0.5 0.5\n' >$tmp/q.txt

# not_regular NAME KIND CMD...: FILE = $tmp/o_NAME.txt, its .tmp made a KIND (fifo, dir) first
not_regular() {
  local name=$1 kind=$2 o=$tmp/o_$1_$2.txt out rc
  shift 2
  if [ "$kind" = fifo ]; then mkfifo "$o.tmp"; else mkdir "$o.tmp"; fi
  out=$(timeout 30 "$@" --out="$o" 2>&1); rc=$?
  [ $rc -eq 124 ] && cli_fail "$name, FILE.tmp a $kind: hung (killed after 30 s)"
  [ $rc -eq 2 ] || cli_fail "$name, FILE.tmp a $kind: exit $rc, want 2: $out"
  [ "$(printf '%s\n' "$out" | grep -c .)" -eq 1 ] && grep -q "^error: .*$o\.tmp" <<<"$out" ||
    cli_fail "$name, FILE.tmp a $kind: want one error line naming $o.tmp, got: $out"
  [ -e "$o" ] && cli_fail "$name, FILE.tmp a $kind: FILE created"
  if [ "$kind" = fifo ]; then [ -p "$o.tmp" ] || cli_fail "$name: the FIFO replaced"; fi
  return 0
}
for kind in fifo dir; do
  not_regular neighbors $kind $nb --in=$tmp/m.txt
  not_regular sort $kind $hd --op=sort --in=$tmp/k.txt
  not_regular remap $kind $hd --op=remap --in=$tmp/m.txt --new=$tmp/m.txt --values=$tmp/v.txt
  not_regular lookup $kind $hd --op=lookup --table=$tmp/t.txt --in=$tmp/q.txt
done

# a stale regular FILE.tmp is replaced
printf 'stale\n' >$tmp/s.txt.tmp
expect 0 $nb --in=$tmp/m.txt --out=$tmp/s.txt >/dev/null
cmp -s $tmp/s.txt $tmp/want.txt || cli_fail "neighbors over a stale FILE.tmp: wrong rows"
[ -e $tmp/s.txt.tmp ] && cli_fail "neighbors left FILE.tmp behind"

# neighbors-mpi: the same refusal on every rank, before MPI_Init (needs an MPI launcher)
nm=hashmesh/neighbors-mpi
if [ -x $nm ] && command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
  for np in 1 2; do
    for kind in fifo dir; do not_regular "neighbors-mpi P=$np" $kind "$cli_mpirun" -np $np $nm --in=$tmp/m.txt; done
  done
else
  echo "note: neighbors-mpi or an MPI launcher missing: its FILE.tmp checks skipped"
fi
# tab4_1: host only, rows from the figures' data
hm=hashmesh/hashmesh
cli_need "make -C hashmesh" $hm
expect 0 $hm --exp=list | grep -Eq '^  tab4_1 +host ' || cli_fail "--exp=list does not mark tab4_1 host"
[ "$($hm --exp=list | grep -Ec ' host ')" -eq 1 ] || cli_fail "--exp=list marks more than tab4_1 host"
mkdir -p $tmp/t41
cp hashmesh/results-ref/hashmesh_fig3_*.dat $tmp/t41/
expect 0 env CUDA_VISIBLE_DEVICES=-1 $hm --exp=tab4_1 --out=$tmp/t41 >/dev/null
res=$(awk '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  function off(x, want) { return x - want > 0.006 * want + 0.01 || want - x > 0.006 * want + 0.01 }
  { rows++; r = $c["ref_ms"]; ch = $c["cpu_hash_ms"]; g = $c["gpu_hash_ms"]
    if (off($c["cpu_hash_vs_ref_x"], r / ch) || off($c["gpu_vs_cpu_hash_x"], ch / g) || off($c["gpu_vs_ref_x"], r / g)) bad++ }
  END { print rows + 0, bad + 0 }' $tmp/t41/hashmesh_tab4_1_speedups.dat 2>/dev/null)
[ "$res" = "7 0" ] || cli_fail "tab4_1 with no device: rows/wrong ratios = '$res', want '7 0'"
cli_done
