#!/usr/bin/env bash
# The command-line conventions every program shares (common/README.md), checked across programs:
#   - MPI: common/mpirun.sh, the one launch command, runs as root with more ranks than cores
#     (plain mpirun refuses both); a failed run prints the program's ONE error line and no
#     mpirun banner, and every rank exits by itself with the program's code (no hang);
#     MPIRUN names another launcher (a missing one: one SKIP line, 77);
#   - bad ranges are refused, never run empty: neighbors-mpi --exp=scaling with --min-log2 >
#     --max-log2 (one line, exit 2, no .dat); lambda-mpi --rho must be a power of two, as in
#     simplex2d;
#   - an existing output that cannot be replaced (read-only; as root: immutable) is bad input,
#     exit 2 with one line before any work, the file unchanged, for every program that writes
#     files and runs here (the tools, the MPI programs, host-only experiments, .dat writers);
#   - one default backend (cpu) for both MPI programs, as for every --backend option;
#   - --exp=list marks every experiment `GPU` or `host` in the same column in every program,
#     and hashmesh --exp=tab4_1 (host) runs without a GPU, giving the committed table from the
#     committed figures' data;
#   - the sample inputs of hashmesh/hashdata give the results their comments state;
#     sparsegrid/examples/make_sample.py writes where its argument says.
. "$(dirname "$0")/lib.sh"
tmp=$cli_tmp
immutable=() # files made immutable (as root): made mutable again before the scratch is removed
trap 'for f in "${immutable[@]}"; do chattr -i "$f" 2>/dev/null; done; rm -rf "$cli_tmp"' EXIT
nm=hashmesh/neighbors-mpi lm=simplex2d/lambda-mpi

# ---- 1. the MPI launch command
have_mpi=1
l=${MPIRUN:-mpirun}
command -v "${l%% *}" >/dev/null 2>&1 || { have_mpi=0; echo "note: no mpirun: the MPI checks are skipped"; }
[ -x $nm ] && [ -x $lm ] || { [ $have_mpi -eq 0 ] || cli_fail "$nm or $lm not built (make -C hashmesh mpi; make -C simplex2d mpi)"; have_mpi=0; }
mpi() { local np=$1; shift; timeout "${MPI_TIMEOUT:-60}" "$cli_mpirun" -np "$np" "$@"; }
if [ $have_mpi -eq 1 ]; then
  np=$(($(nproc) + 2)) # more ranks than cores
  if [ "$(id -u)" -eq 0 ] && ${MPIRUN:-mpirun} --version 2>/dev/null | grep -q 'Open MPI'; then
    timeout 60 ${MPIRUN:-mpirun} -np 1 true >/dev/null 2>&1 && echo "note: this mpirun runs as root without --allow-run-as-root"
  fi
  out=$(mpi $np $lm --sizes=100,300 --reps=1 --warmup=0 --out=$tmp/w 2>&1); rc=$?
  [ $rc -eq 0 ] || { cli_fail "common/mpirun.sh -np $np (> $(nproc) cores, uid $(id -u)) lambda-mpi -> exit $rc"; printf '%s\n' "$out" | head -5; }
  [ -s $tmp/w/simplex2d_dist_lambda_cpu_p$np.dat ] || cli_fail "common/mpirun.sh -np $np: no CPU-backend .dat (the default backend is cpu)"
  out=$(mpi $np $nm --in=hashmesh/examples/mesh_small.txt --out=$tmp/nb_mpi.txt 2>&1) || cli_fail "common/mpirun.sh -np $np neighbors-mpi -> exit $?: $out"
  hashmesh/neighbors --in=hashmesh/examples/mesh_small.txt --out=$tmp/nb.txt 2>/dev/null
  cmp -s $tmp/nb.txt $tmp/nb_mpi.txt || cli_fail "neighbors-mpi on $np ranks differs from neighbors"

  # a failed run: the program's one line, no banner, the program's code; before MPI_Init (an
  # option) and after it (a limit found collectively)
  for args in "--reps=0" "--sizes=1048576 --variant=plain --rho=8"; do
    out=$(mpi 3 $lm $args --out=$tmp/f 2>&1); rc=$?
    [ $rc -eq 2 ] || cli_fail "failed run ($args) -> exit $rc, want 2"
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '^error: ' ||
      { cli_fail "failed run ($args): not exactly the program's one error line"; printf '%s\n' "$out" | head -8; }
  done
  # every rank exits by itself with 2 (Open MPI 4 is told not to end the others at the first exit)
  if ${MPIRUN:-mpirun} --version 2>/dev/null | grep -Eq 'Open MPI\) [1-4]\.'; then
    for args in "--reps=0" "--sizes=1048576 --variant=plain --rho=8" "--rho=3"; do
      rm -f $tmp/rc.*
      out=$(RC_DIR=$tmp OMPI_MCA_orte_abort_on_non_zero_status=0 timeout 60 "$cli_mpirun" -np 3 \
        sh -c '"$@"; rc=$?; echo $rc > "$RC_DIR/rc.$OMPI_COMM_WORLD_RANK"; exit $rc' sh $lm $args --out=$tmp/f 2>&1); rc=$?
      [ $rc -eq 124 ] && cli_fail "per-rank run ($args): hang"
      for r in 0 1 2; do
        [ "$(cat $tmp/rc.$r 2>/dev/null)" = 2 ] || cli_fail "per-rank run ($args): rank $r exit '$(cat $tmp/rc.$r 2>/dev/null)', want 2"
      done
    done
  fi
  out=$(MPIRUN=/nonexistent/mpirun "$cli_mpirun" -np 2 $lm 2>&1); rc=$?
  [ $rc -eq 77 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '^SKIP: ' ||
    cli_fail "MPIRUN=/nonexistent/mpirun: exit $rc, want 77 with one SKIP line ($out)"

  # ---- 2. ranges refused, not run empty
  cli_refused "scaling --min-log2=20 --max-log2=16" '^error: .*--min-log2=20 is larger than --max-log2=16' \
    $tmp/sc/hashmesh_dist_scaling_cpu_p2.dat mpi 2 $nm --exp=scaling --min-log2=20 --max-log2=16 --out=$tmp/sc
  [ -e $tmp/sc ] && cli_fail "scaling range refusal: --out directory created"
  out=$(mpi 1 $nm --exp=scaling --min-log2=8 --max-log2=8 --reps=1 --warmup=0 --out=$tmp/sc1 2>&1) ||
    cli_fail "scaling --min-log2=8 --max-log2=8 (one size) -> exit $?: $(printf '%s\n' "$out" | tail -2)"
  for rho in 3 12 0 64; do
    cli_refused "lambda-mpi --rho=$rho" "^error: .*'--rho=$rho'" $tmp/rho/simplex2d_dist_lambda_cpu_p2.dat \
      mpi 2 $lm --rho=$rho --variant=plain --sizes=100 --out=$tmp/rho
  done
  simplex2d/simplex2d --exp=layout --map=lambda-exact --n=8 --rho=3 >/dev/null 2>&1
  [ $? -eq 2 ] || cli_fail "simplex2d --rho=3 is no longer refused: lambda-mpi's rule must follow simplex2d's"
  mpi 2 $lm --rho=8 --variant=plain --sizes=100 --reps=1 --warmup=0 --out=$tmp/rho8 >/dev/null 2>&1 || cli_fail "lambda-mpi --rho=8 refused"

  # ---- 4. one default backend
  for p in $nm $lm; do
    $p --help 2>&1 | grep -E -- '^  --backend=V ' | grep -q '\[cpu\]$' || cli_fail "$p --help: the default backend is not cpu"
  done
fi

# ---- 3. an existing output that cannot be replaced: exit 2, one line, before any work
# ro FILE: make FILE unwritable for this process (as root: immutable; else mode 444); 1 if impossible
ro() {
  if [ "$(id -u)" -eq 0 ]; then chattr +i "$1" 2>/dev/null && immutable+=("$1") && return 0; return 1; fi
  chmod 444 "$1"
}
ro_refused() { # ro_refused NAME FILE CMD...: FILE exists, unwritable; CMD must refuse, FILE unchanged
  local name=$1 f=$2 out rc; shift 2
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 2 ] || cli_fail "$name: read-only output -> exit $rc, want 2 ($(printf '%s\n' "$out" | tail -1))"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "^error: cannot write .*$(basename "$f")" ||
    { cli_fail "$name: not one 'error: cannot write' line"; printf '%s\n' "$out" | head -5; }
  [ "$(cat "$f")" = "keep me" ] || cli_fail "$name: the read-only output was changed"
  [ -e "$f.tmp" ] && cli_fail "$name: $f.tmp left behind"
  return 0
}
mkdir -p $tmp/ro
echo "keep me" >$tmp/ro/probe
if ! ro $tmp/ro/probe; then
  echo "note: cannot make a file unwritable here (chattr +i unsupported): read-only output checks skipped"
else
  k=0
  rofile() { k=$((k + 1)); mkdir -p $tmp/ro/$k; f=$tmp/ro/$k/$1; echo "keep me" >"$f"; ro "$f"; } # sets f
  rofile nb.txt; ro_refused neighbors "$f" hashmesh/neighbors --in=hashmesh/examples/mesh_small.txt --out="$f"
  rofile s.txt; ro_refused "hashdata sort" "$f" hashmesh/hashdata --op=sort --in=hashmesh/examples/keys_small.txt --out="$f"
  rofile v.txt; ro_refused "hashdata lookup" "$f" hashmesh/hashdata --op=lookup --table=hashmesh/examples/table_small.txt \
    --in=hashmesh/examples/queries_small.txt --out="$f"
  rofile h.npy; ro_refused hierarchize "$f" sparsegrid/hierarchize --dims=33x33 --tiles=2 \
    --in=sparsegrid/examples/tiles_33x33.npy --out="$f"
  rofile simplex3d_volume_m3.dat; ro_refused "simplex3d/volume" "$f" simplex3d/volume --quick --out="$(dirname "$f")"
  rofile fractals_ratio.dat; ro_refused "fractals --exp=ratio" "$f" fractals/fractals --exp=ratio --out="$(dirname "$f")"
  rofile hashmesh_tab4_1_speedups.dat
  cp hashmesh/results-ref/hashmesh_fig3_{3_sort1d,5_sort2d,6_neigh1d,7_neigh2d,9_remap1d,10_remap2d,11_table}.dat "$(dirname "$f")/"
  ro_refused "hashmesh --exp=tab4_1" "$f" hashmesh/hashmesh --exp=tab4_1 --out="$(dirname "$f")"
  if [ $have_mpi -eq 1 ]; then
    rofile nbm.txt; ro_refused "neighbors-mpi" "$f" mpi 2 $nm --in=hashmesh/examples/mesh_small.txt --out="$f"
    rofile hashmesh_dist_scaling_cpu_p2.dat; ro_refused "neighbors-mpi --exp=scaling" "$f" \
      mpi 2 $nm --exp=scaling --min-log2=8 --max-log2=8 --reps=1 --out="$(dirname "$f")"
    rofile simplex2d_dist_lambda_cpu_p2.dat; ro_refused "lambda-mpi" "$f" mpi 2 $lm --sizes=100 --reps=1 --out="$(dirname "$f")"
  fi
fi

# ---- 4. --exp=list: one marker column (GPU or host) in every program, no ad-hoc markers
for p in simplex2d/simplex2d simplex3d/simplex3d fractals/fractals fractals/compact tensorcore/tensorcore \
         sparsegrid/sparsegrid hashmesh/hashmesh; do
  [ -x $p ] || { cli_fail "$p not built"; continue; }
  list=$(expect 0 $p --exp=list)
  printf '%s\n' "$list" | awk 'NR > 1 && $2 != "GPU" && $2 != "host" { bad = 1 } END { exit bad }' ||
    cli_fail "$p --exp=list: a line without GPU or host in the second column"
  printf '%s\n' "$list" | grep -Eiq '\((host|no GPU|GPU)\)|host only' && cli_fail "$p --exp=list: an ad-hoc host/GPU marker left in the text"
done
host_exps() { $1 --exp=list | awk 'NR > 1 && $2 == "host" { printf "%s ", $1 }'; }
for want in "simplex2d/simplex2d:layout " "simplex3d/simplex3d:layout " \
            "fractals/fractals:ratio shapes layout describe draw launch " "fractals/compact:" "tensorcore/tensorcore:" \
            "sparsegrid/sparsegrid:truncation sparse-error progressive cpu-roofline " "hashmesh/hashmesh:tab4_1 "; do
  p=${want%%:*}
  [ -x $p ] || continue
  [ "$(host_exps $p)" = "${want#*:}" ] || cli_fail "$p: host experiments '$(host_exps $p)', want '${want#*:}'"
done

# tab4_1 reads the figures' data only: no GPU needed; the committed figures give the committed table
mkdir -p $tmp/t41
cp hashmesh/results-ref/hashmesh_fig3_{3_sort1d,5_sort2d,6_neigh1d,7_neigh2d,9_remap1d,10_remap2d,11_table}.dat $tmp/t41/
out=$(hashmesh/hashmesh --exp=tab4_1 --out=$tmp/t41 2>&1); rc=$?
[ $rc -eq 0 ] || { cli_fail "hashmesh --exp=tab4_1 -> exit $rc (it needs no GPU)"; printf '%s\n' "$out" | tail -3; }
rows() { grep -v '^#' "$1"; }
[ -s $tmp/t41/hashmesh_tab4_1_speedups.dat ] && [ "$(rows $tmp/t41/hashmesh_tab4_1_speedups.dat)" = "$(rows hashmesh/results-ref/hashmesh_tab4_1_speedups.dat)" ] ||
  cli_fail "tab4_1 from the committed figures differs from the committed table"
grep -q "^$(grep '^# gpu:' hashmesh/results-ref/hashmesh_fig3_3_sort1d.dat)\$" $tmp/t41/hashmesh_tab4_1_speedups.dat 2>/dev/null ||
  cli_fail "tab4_1: its # gpu: line is not the figures' GPU"

# ---- sample inputs and the sample writer
hashmesh/hashdata --op=sort --in=hashmesh/examples/keys_small.txt --out=$tmp/sorted.txt 2>/dev/null || cli_fail "hashdata sort of keys_small.txt failed"
[ "$(head -1 $tmp/sorted.txt 2>/dev/null)|$(tail -1 $tmp/sorted.txt 2>/dev/null)|$(wc -l <$tmp/sorted.txt 2>/dev/null)" = "5 -1.5|8 9.75|12" ] ||
  cli_fail "keys_small.txt: not the sorted keys its comment states"
hashmesh/hashdata --op=lookup --table=hashmesh/examples/table_small.txt --in=hashmesh/examples/queries_small.txt \
  --out=$tmp/values.txt 2>/dev/null || cli_fail "hashdata lookup of table_small.txt failed"
[ "$(tr '\n' ' ' <$tmp/values.txt 2>/dev/null)" = "6.5 0 23 12.25 17.75 " ] || cli_fail "table_small.txt: not the values its comment states"
if command -v python3 >/dev/null 2>&1; then
  python3 sparsegrid/examples/make_sample.py $tmp/tiles.npy >/dev/null && cmp -s $tmp/tiles.npy sparsegrid/examples/tiles_33x33.npy ||
    cli_fail "make_sample.py OUT.npy: not the committed sample at OUT.npy"
  out=$(python3 sparsegrid/examples/make_sample.py $tmp/a.npy $tmp/b.npy 2>&1); rc=$?
  [ $rc -eq 2 ] && [ ! -e $tmp/a.npy ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || cli_fail "make_sample.py with two arguments: exit $rc ($out)"
fi
cli_done
