#!/usr/bin/env bash
# Distributed neighbours: hashmesh/neighbors-mpi under mpirun, P = 1, 2, 4 (and 3,
# 5 for odd shares), CPU backend (MPI only); GPU backend where GPUs exist (else SKIP lines).
#   - the distributed remesh (partition and ghost pattern of each rank's share: host backend
#     here, GPU backend on a GPU machine) runs in every mode and must equal the host reference
#     (else exit 1): --exp=scaling rows carry its times, --remesh=host leaves them nan;
#   - the same output as the serial hashmesh/neighbors, cell by cell, on awkward meshes: a
#     hand-checked one, ranks owning one cell, levmax 0, a rank boundary through a refined
#     region, levmax 10 next to coarse cells; random generated meshes (--exp=scaling verifies
#     every face against the serial CPU hash and exits 1 on a mismatch);
#   - the cpu backend with --threads=2 (OpenMP build and query) at P = 1, 3: verified the same
#     way, the threads column and the '# threads:' line say 2;
#   - the times are milliseconds: the rows' partition and pattern times add up to less than
#     the mpirun's wall time;
#   - bad input: more ranks than cells, a mesh that differs between ranks, a bad mesh file,
#     a bad option, (GPU machine) more ranks than GPUs: exit != 0, ONE error line from rank 0,
#     no output file, and no hang (every mpirun runs under a timeout); on 3 ranks (bad option,
#     missing input, malformed file, more ranks than cells, --reps=0, bad --out) each rank's
#     own exit code is recorded and must be the same non-zero code on every rank.
# SKIP (77) where mpirun is missing; FAIL where it exists but neighbors-mpi was not built.
. "$(dirname "$0")/lib.sh"
cli_mpi_need # SKIP without mpirun
nm=hashmesh/neighbors-mpi
nb=hashmesh/neighbors
cli_need "make -C hashmesh; needs mpicxx" $nm $nb
tmp=$cli_tmp
# common/mpirun.sh: mpirun -q (no banners between the programs' own lines) --oversubscribe,
# --allow-run-as-root as root, and NCCL_NVLS_ENABLE passed through where the machine sets it
MPI_TIMEOUT=${MPI_TIMEOUT:-60}
mpi() { local np=$1; shift; timeout "$MPI_TIMEOUT" "$cli_mpirun" -np "$np" "$@"; }
# has_times FILE [COLUMN...]: every row has the distributed remesh's times (checked equal to the
# host's, else exit 1 before), and a number in each extra COLUMN
has_times() {
  local f=$1; shift
  awk -v extra="$*" '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; n = split(extra, x, " "); next }
    { r++; if ($c["partition_dist_ms"] == "nan" || $c["pattern_dist_ms"] == "nan" || $c["remesh_dist_ms"] == "nan") bad = 1
      for (k = 1; k <= n; k++) if (!(x[k] in c) || $c[x[k]] == "nan") bad = 1 }
    END { exit !(r > 0 && !bad) }' "$f" 2>/dev/null
}

# ---- meshes
hm_hand_mesh $tmp/hand.txt $tmp/hand_want.txt # lib.sh
{ echo "amr2d 7 5 0"; for j in 4 2 0 3 1; do for i in 6 0 5 1 4 2 3; do echo "$i $j 0"; done; done; } > $tmp/lev0.txt
# 4 x 4 coarse, the central 2 x 2 refined to level 2 and one of those cells to level 3:
# the Morton halves meet at y = 2 coarse, right through the refined block
{ echo "amr2d 4 4 3"
  for j in 0 1 2 3; do for i in 0 1 2 3; do
    if [ $i -ge 1 ] && [ $i -le 2 ] && [ $j -ge 1 ] && [ $j -le 2 ]; then
      for b in 0 1 2 3; do for a in 0 1 2 3; do
        x=$((4 * i + a)); y=$((4 * j + b))
        if [ $x = 7 ] && [ $y = 7 ]; then echo "14 14 3"; echo "15 14 3"; echo "14 15 3"; echo "15 15 3"
        else echo "$x $y 2"; fi
      done; done
    else echo "$i $j 0"; fi
  done; done; } > $tmp/center.txt
# levmax 10: coarse (0, 0) refined toward the origin down to level 10, beside level-0 cells
{ echo "amr2d 2 2 10"; echo "1 0 0"; echo "0 1 0"; echo "1 1 0"
  for l in $(seq 1 10); do echo "1 0 $l"; echo "0 1 $l"; echo "1 1 $l"; done; echo "0 0 10"; } > $tmp/deep.txt

# ---- the same result as the serial tool, for every P
for mesh in hand lev0 center deep; do
  expect 0 $nb --in=$tmp/$mesh.txt --out=$tmp/${mesh}_serial.txt >/dev/null
  for np in 1 2 3 4 5; do
    out=$(mpi $np $nm --in=$tmp/$mesh.txt --out=$tmp/${mesh}_p$np.txt 2>&1); rc=$?
    if [ $rc -ne 0 ]; then cli_fail "$mesh at P=$np -> exit $rc"; printf '%s\n' "$out" | head -5; continue; fi
    cmp -s $tmp/${mesh}_serial.txt $tmp/${mesh}_p$np.txt || { cli_fail "$mesh at P=$np differs from the serial result"; diff $tmp/${mesh}_serial.txt $tmp/${mesh}_p$np.txt | head -5; }
  done
done
cmp -s $tmp/hand_serial.txt $tmp/hand_want.txt || cli_fail "the hand-checked mesh's serial neighbours changed"

# ---- random meshes, verified inside the program (every cell and face vs the serial CPU hash)
for np in 1 2 4; do
  for lev in 0 1 4; do
    out=$(mpi $np $nm --exp=scaling --min-log2=8 --max-log2=12 --levmax=$lev --reps=1 --warmup=0 --seed=$((np * 7 + lev)) --out=$tmp/dat 2>&1); rc=$?
    [ $rc -eq 0 ] || { cli_fail "random meshes, P=$np, levmax $lev -> exit $rc"; printf '%s\n' "$out" | tail -5; }
  done
  [ -s $tmp/dat/hashmesh_dist_scaling_cpu_p$np.dat ] || cli_fail "no scaling .dat for P=$np"
  has_times $tmp/dat/hashmesh_dist_scaling_cpu_p$np.dat || cli_fail "CPU P=$np: the distributed remesh has no time in some row"
done
# odd shares, a deep mesh, and the host-only switch
for np in 3 5; do
  out=$(mpi $np $nm --exp=scaling --min-log2=10 --max-log2=13 --levmax=5 --reps=1 --warmup=0 --out=$tmp/dat3 2>&1) ||
    { cli_fail "random meshes, P=$np, levmax 5 -> exit $?"; printf '%s\n' "$out" | tail -5; }
  has_times $tmp/dat3/hashmesh_dist_scaling_cpu_p$np.dat || cli_fail "CPU P=$np: the distributed remesh has no time in some row"
done
# the cpu backend on 2 OpenMP threads a rank (every face verified inside, as above): the rows
# and the metadata say how many threads a rank ran
for np in 1 3; do
  out=$(mpi $np $nm --exp=scaling --threads=2 --min-log2=10 --max-log2=13 --levmax=4 --reps=1 --warmup=0 --out=$tmp/datt 2>&1) ||
    { cli_fail "random meshes, P=$np, --threads=2 -> exit $?"; printf '%s\n' "$out" | tail -5; }
  f=$tmp/datt/hashmesh_dist_scaling_cpu_p$np.dat
  awk '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } { r++; if (!("threads" in c) || $c["threads"] != 2) bad = 1 }
    END { exit !(r > 0 && !bad) }' $f 2>/dev/null || cli_fail "--threads=2, P=$np: the threads column is not 2 in every row"
  grep -q '^# threads: 2 to 2 OpenMP threads a rank (column threads: rank 0.s; from --threads=2)' $f 2>/dev/null ||
    cli_fail "--threads=2, P=$np: no '# threads:' line naming 2 threads a rank"
done
# the default thread count (no --threads, no OMP_NUM_THREADS, ranks not bound to a core): the
# cores a rank sees shared among its node's ranks (dist_init), at least 1 -- never a full set
# of threads per rank, which would start P times as many threads as the node has cores
# (--bind-to none: Open MPI's spelling)
if ${MPIRUN:-mpirun} --version 2>/dev/null | grep -q 'Open MPI'; then
out=$(env -u OMP_NUM_THREADS timeout "$MPI_TIMEOUT" "$cli_mpirun" --bind-to none -np 2 $nm --exp=scaling --min-log2=8 \
  --max-log2=8 --reps=1 --warmup=0 --out=$tmp/share 2>&1) || { cli_fail "2 ranks, default threads -> exit $?"; printf '%s\n' "$out" | tail -3; }
awk '/^# threads: / { if (match($0, /from [0-9]+ cores visible \/ [0-9]+ rank/)) { split(substr($0, RSTART, RLENGTH), w, " ")
       want = int(w[2] / w[6]); if (want < 1) want = 1; line = 1
       if ($3 != want || $5 != want) bad = 1 } next }
  /^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } { r++; if ($c["threads"] != want) bad = 1 }
  END { exit !(line && r > 0 && !bad) }' $tmp/share/hashmesh_dist_scaling_cpu_p2.dat 2>/dev/null ||
  cli_fail "2 ranks, default threads: not max(1, cores visible / ranks on the node) threads a rank ($(grep '^# threads' $tmp/share/hashmesh_dist_scaling_cpu_p2.dat 2>/dev/null | cut -c1-140))"
fi
mpi 2 $nm --exp=scaling --min-log2=8 --max-log2=9 --reps=1 --warmup=0 --remesh=host --out=$tmp/dath >/dev/null 2>&1 || cli_fail "--remesh=host failed"
awk '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } { r++; if ($c["remesh_dist_ms"] != "nan") bad = 1 }
  END { exit !(r > 0 && !bad) }' $tmp/dath/hashmesh_dist_scaling_cpu_p2.dat || cli_fail "--remesh=host: remesh_dist_ms not nan"
awk '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } { r++; if (!("gpu_mem_max_mib" in c) || $c["gpu_mem_max_mib"] != "nan") bad = 1 }
  END { exit !(r > 0 && !bad) }' $tmp/dat/hashmesh_dist_scaling_cpu_p4.dat || cli_fail "CPU backend: gpu_mem_max_mib not nan (no GPU memory is used)"
# a sweep of one size (--min-log2 = --max-log2) is a valid sweep: one row (only min > max is refused)
mpi 1 $nm --exp=scaling --min-log2=8 --max-log2=8 --reps=1 --warmup=0 --out=$tmp/dat1 >/dev/null 2>&1 || cli_fail "--min-log2=8 --max-log2=8 refused"
[ "$(grep -vc '^#' $tmp/dat1/hashmesh_dist_scaling_cpu_p1.dat 2>/dev/null)" = 2 ] || cli_fail "--min-log2 = --max-log2: not one header and one row"

# ---- bad input: exit code, ONE "error:" line (rank 0's), no output, no hang
bad_run() { # bad_run WANT_RC REGEX OUTFILE -- COMMAND...
  local want=$1 re=$2 outf=$3; shift 4
  local out rc n
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 124 ] && { cli_fail "hang (timeout): $*"; return; }
  [ $rc -eq "$want" ] || cli_fail "$* -> exit $rc, want $want"
  n=$(printf '%s\n' "$out" | grep -c '^error:')
  [ "$n" -eq 1 ] || { cli_fail "$*: $n error lines, want 1"; printf '%s\n' "$out" | head -8; }
  printf '%s\n' "$out" | grep '^error:' | grep -Eq "$re" || { cli_fail "$*: message does not match '$re'"; printf '%s\n' "$out" | grep '^error:'; }
  [ -e "$outf" ] || [ -e "$outf.tmp" ] && cli_fail "$*: output file created"
  return 0
}
bad_run 2 'hand\.txt: 5 cell\(s\) for 6 ranks: every rank needs at least one cell' $tmp/o6.txt -- mpi 6 $nm --in=$tmp/hand.txt --out=$tmp/o6.txt
head -n 5 $tmp/hand.txt > $tmp/hand4.txt # one cell fewer: a hole, and a different mesh
bad_run 2 'rank 1 read a different mesh than rank 0' $tmp/od.txt -- timeout "$MPI_TIMEOUT" "$cli_mpirun" \
  -np 1 $nm --in=$tmp/hand.txt --out=$tmp/od.txt : -np 1 $nm --in=$tmp/hand4.txt --out=$tmp/od.txt
want=$($nb --in=$tmp/hand4.txt --out=$tmp/oh.txt 2>&1)
bad_run 2 "^$(printf '%s' "$want" | sed 's/[][().*^$]/\\&/g')\$" $tmp/oh.txt -- mpi 2 $nm --in=$tmp/hand4.txt --out=$tmp/oh.txt
bad_run 2 'cannot read' $tmp/om.txt -- mpi 2 $nm --in=$tmp/missing.txt --out=$tmp/om.txt
cp $tmp/hand.txt $tmp/self.txt
bad_run 2 'is the same file as the input' $tmp/self.txt.none -- mpi 2 $nm --in=$tmp/self.txt --out=$tmp/self.txt
cmp -s $tmp/self.txt $tmp/hand.txt || cli_fail "--out=--in: the input was changed"
mkdir -p $tmp/adir
bad_run 2 'cannot write .*adir: it is a directory' $tmp/adir.none -- mpi 2 $nm --in=$tmp/hand.txt --out=$tmp/adir
bad_run 2 "unknown option '--bogus'" $tmp/ob.txt -- mpi 2 $nm --bogus
bad_run 2 "value of '--max-log2=31' out of range \\[4, 30\\]" $tmp/ol.txt -- mpi 2 $nm --exp=scaling --max-log2=31   # past the 32-bit cell indices
out=$(mpi 2 $nm --help 2>&1); [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--backend=V' || cli_fail "--help under mpirun"

# ---- bad input on 3 ranks: ONE line from rank 0, the same non-zero exit on EVERY rank (each
# rank's own exit code is recorded by a wrapper; Open MPI 4 is told not to end the other ranks
# at the first non-zero exit, so a rank that would hang shows as a timeout), no output file
printf 'amr2d 2 1 1\n0 0 0\n3 x 1\n' > $tmp/malformed.txt
printf 'amr2d 2 1 0\n0 0 0\n1 0 0\n' > $tmp/two.txt
per_rank=0
${MPIRUN:-mpirun} --version 2>/dev/null | grep -Eq 'Open MPI\) [1-4]\.' && per_rank=1
bad3() { # bad3 WANT_RC REGEX OUTFILE -- ARGS...
  local want=$1 re=$2 outf=$3; shift 4
  bad_run "$want" "$re" "$outf" -- mpi 3 $nm "$@"
  [ $per_rank -eq 1 ] || return 0
  local out rc r
  rm -f $tmp/rc.*
  out=$(OMPI_MCA_orte_abort_on_non_zero_status=0 timeout "$MPI_TIMEOUT" "$cli_mpirun" -np 3 \
    sh -c '"$@"; rc=$?; echo $rc > "$RC_DIR/rc.$OMPI_COMM_WORLD_RANK"; exit $rc' sh $nm "$@" 2>&1); rc=$?
  [ $rc -eq 124 ] && { cli_fail "hang (timeout), per-rank run: $*"; return 0; }
  [ "$(printf '%s\n' "$out" | grep -c '^error:')" -eq 1 ] || cli_fail "per-rank run $*: not one error line"
  for r in 0 1 2; do
    [ -s $tmp/rc.$r ] || { cli_fail "$*: rank $r did not exit by itself"; continue; }
    [ "$(cat $tmp/rc.$r)" -eq "$want" ] || cli_fail "$*: rank $r exit $(cat $tmp/rc.$r), want $want"
  done
  [ -e "$outf" ] || [ -e "$outf.tmp" ] && cli_fail "$*: output file created (per-rank run)"
  return 0
}
export RC_DIR=$tmp
bad3 2 "unknown option '--bogus'" $tmp/b1.txt -- --bogus --in=$tmp/hand.txt --out=$tmp/b1.txt
bad3 2 'cannot read .*missing\.txt' $tmp/b2.txt -- --in=$tmp/missing.txt --out=$tmp/b2.txt
bad3 2 'malformed\.txt:3: malformed cell line' $tmp/b3.txt -- --in=$tmp/malformed.txt --out=$tmp/b3.txt
bad3 2 'two\.txt: 2 cell\(s\) for 3 ranks: every rank needs at least one cell' $tmp/b4.txt -- --in=$tmp/two.txt --out=$tmp/b4.txt
bad3 2 'at least one timed sample' $tmp/b5/x.dat -- --exp=scaling --reps=0 --out=$tmp/b5
touch $tmp/afile
bad3 2 'cannot write --out=.*afile is not a directory' $tmp/afile/x -- --exp=scaling --out=$tmp/afile/x
[ $per_rank -eq 1 ] || echo "note: per-rank exit codes checked with Open MPI <= 4 only (this mpirun: $(${MPIRUN:-mpirun} --version 2>/dev/null | head -1))"

# ---- the times are milliseconds: each row's barrier-timed partition and pattern (taken once, one
# after the other, within the program's life) add up to less than the whole mpirun's wall time
t0=$(date +%s%N)
mpi 2 $nm --exp=scaling --min-log2=14 --max-log2=16 --levmax=4 --reps=1 --warmup=0 --out=$tmp/dtime >/dev/null 2>&1 ||
  cli_fail "scaling P=2 for the time check: exit $?"
wall_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
awk -v wall=$wall_ms '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next }
  { s += $c["partition_ms"] + $c["pattern_ms"]; r++ }
  END { printf "timed sections: %.1f ms in %d rows, mpirun: %d ms\n", s, r, wall; exit !(r == 3 && s > 0 && s < wall) }' \
  $tmp/dtime/hashmesh_dist_scaling_cpu_p2.dat || cli_fail "the rows' partition_ms + pattern_ms exceed the run's wall time (not milliseconds?)"

# ---- GPU backend: SKIP without GPUs; with them the same output, and one rank too many refused
out=$(mpi 1 $nm --in=$tmp/center.txt --out=$tmp/center_gpu1.txt --backend=gpu 2>&1); rc=$?
if [ $rc -eq 77 ]; then
  echo "gpu backend: SKIP (no GPU)"
  [ "$(printf '%s\n' "$out" | grep -c '^SKIP')" -eq 1 ] || cli_fail "--backend=gpu exit 77 without one SKIP line"
  [ -e $tmp/center_gpu1.txt ] && cli_fail "output written by a skipped GPU run"
elif [ $rc -eq 2 ] && printf '%s\n' "$out" | grep -q 'this build has no NCCL'; then
  echo "note: neighbors-mpi built without NCCL: GPU backend not tested"
else
  [ $rc -eq 0 ] || { cli_fail "--backend=gpu P=1 -> exit $rc"; printf '%s\n' "$out" | tail -5; }
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  echo "gpu backend: tested on $ngpu GPU(s)"
  for mesh in hand lev0 center deep; do
    for np in $(seq 1 "$ngpu"); do
      mpi $np $nm --in=$tmp/$mesh.txt --out=$tmp/${mesh}_g$np.txt --backend=gpu >/dev/null 2>&1 || cli_fail "$mesh GPU P=$np failed"
      cmp -s $tmp/${mesh}_serial.txt $tmp/${mesh}_g$np.txt || cli_fail "$mesh GPU P=$np differs from the serial result"
    done
  done
  for np in $(seq 1 "$ngpu"); do
    mpi $np $nm --exp=scaling --backend=gpu --min-log2=10 --max-log2=14 --levmax=2 --reps=1 --warmup=0 --out=$tmp/gdat >/dev/null 2>&1 || cli_fail "GPU random meshes P=$np"
    # the remesh on the GPUs ran and equalled the host's (else exit 1 above): times in every row
    has_times $tmp/gdat/hashmesh_dist_scaling_gpu_p$np.dat remesh_sort2_ms gpu_mem_max_mib || cli_fail "GPU P=$np: the GPU remesh (or its two-sort baseline, or its memory) has no value in some row"
  done
  bad_run 2 "rank $ngpu has no GPU" $tmp/og.txt -- mpi $((ngpu + 1)) $nm --in=$tmp/center.txt --out=$tmp/og.txt --backend=gpu
fi
cli_done
