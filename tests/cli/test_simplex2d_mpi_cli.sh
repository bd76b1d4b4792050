#!/usr/bin/env bash
# The lambda split across processes: simplex2d/lambda-mpi under mpirun.
#   --help exits 0; bad --sizes, --backend, --reps, --out, more than 2^32 blocks: exit 2, ONE
#   error line from rank 0, no hang (every mpirun under a timeout);
#   CPU backend (no GPU needed): P = 1, 2, 3, both variants, rho 4 and 16, every element of
#   every rank's part verified inside the program (exit 1 and no .dat otherwise), the rows
#   and their rank counts checked; n = 2 (one block) leaves P - 1 ranks without work, a normal
#   case of the split (ranks_idle = P - 1), not an error;
#   GPU backend: without a GPU one SKIP line, exit 77 on every rank; with GPUs P = 1 .. #GPUs
#   at small n verified in full on the host (every element, poison included) plus the device
#   check, and one rank more than there are GPUs refused with one line.
. "$(dirname "$0")/lib.sh"
cli_mpi_need # SKIP without mpirun
lm=simplex2d/lambda-mpi
cli_need "make -C simplex2d; needs mpicxx" $lm
tmp=$cli_tmp
# common/mpirun.sh: mpirun -q --oversubscribe (--allow-run-as-root as root)
mpi() { local np=$1; shift; timeout "${MPI_TIMEOUT:-60}" "$cli_mpirun" -np "$np" "$@"; }
one_error() { # one_error WANT_RC REGEX CMD...
  local want=$1 re=$2 out rc; shift 2
  out=$("$@" 2>&1); rc=$?
  [ $rc -eq 124 ] && { cli_fail "hang (timeout): $*"; return; }
  [ $rc -eq "$want" ] || cli_fail "$* -> exit $rc, want $want"
  [ "$(printf '%s\n' "$out" | grep -c '^error:')" -eq 1 ] || { cli_fail "$*: not one error line"; printf '%s\n' "$out" | head -5; }
  printf '%s\n' "$out" | grep '^error:' | grep -Eq "$re" || cli_fail "$*: message does not match '$re'"
}
out=$(mpi 2 $lm --help 2>&1); [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q -- '--sizes=V' || cli_fail "--help under mpirun"
one_error 2 'want up to 16 comma-separated' mpi 2 $lm --sizes=12,abc --out=$tmp
one_error 2 'lambda-exact numbers at most 2\^32' mpi 2 $lm --sizes=1048576 --variant=plain --rho=8 --out=$tmp
one_error 2 "unknown option '--bogus'" mpi 2 $lm --bogus
one_error 2 'at least one timed sample' mpi 3 $lm --reps=0
touch $tmp/afile
one_error 2 'cannot write --out=.*afile is not a directory' mpi 3 $lm --out=$tmp/afile/x
# dat_rows FILE AWK-CONDITION: rows of a .dat satisfying a condition on named columns
dat_rows() {
  awk '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } '"$2"' { r++ } END { print r + 0 }' "$1"
}

# ---- CPU backend (no GPU needed): P = 1, 2, 3, both variants, every element verified; a rank
# without a block (n = 2 at P >= 2, n = 33 at rho = 32 and P = 3 has 3 blocks) is a normal case
for np in 1 2 3; do
  for rho in 4 16; do
    out=$(mpi $np -x OMP_NUM_THREADS=1 $lm --backend=cpu --sizes=2,33,300,1001 --variant=both --rho=$rho --reps=1 --warmup=0 \
      --out=$tmp/c 2>&1); rc=$?
    [ $rc -eq 0 ] || { cli_fail "CPU backend P=$np rho=$rho -> exit $rc"; printf '%s\n' "$out" | tail -5; }
  done
  f=$tmp/c/simplex2d_dist_lambda_cpu_p$np.dat
  [ -s $f ] || { cli_fail "CPU backend: no .dat for P=$np"; continue; }
  [ "$(dat_rows $f 1)" -eq 20 ] || cli_fail "CPU backend P=$np: want 20 rows (4 sizes x fill, 2 kernels x 2 variants)"
  [ "$(dat_rows $f '$c["n"] == 2 && $c["ranks_idle"] == '$((np - 1)))" -eq 5 ] || cli_fail "CPU backend P=$np: n = 2 rows without $((np - 1)) idle rank(s)"
  [ "$(dat_rows $f '$c["ranks"] != '$np)" -eq 0 ] || cli_fail "CPU backend P=$np: a row with another rank count"
  grep -q '^# gpu: none (host only' $f || cli_fail "CPU backend P=$np: no host-only gpu line"
done
# the rates of the rows (P = 2): n = 32 at rho = 32 is one block, so one rank works and
# gbs_per_rank (per rank WITH work) is gbs itself; n = 3 is the smallest triangle with a word to
# fill (6 cells of the triangle, diagonal included: one 16-byte store), so every kernel row has a
# pct_of_fill (n = 2: 3 cells, nothing to fill, nan)
out=$(mpi 2 -x OMP_NUM_THREADS=1 $lm --backend=cpu --sizes=2,3,32 --variant=both --rho=32 --reps=5 --warmup=1 --out=$tmp/rates 2>&1) ||
  { cli_fail "CPU backend, n = 2, 3, 32 on 2 ranks -> exit $?"; printf '%s\n' "$out" | tail -3; }
f=$tmp/rates/simplex2d_dist_lambda_cpu_p2.dat
[ "$(dat_rows $f '$c["n"] == 32 && $c["ranks_idle"] == 1 && $c["gbs_per_rank"] == $c["gbs"]')" -eq 5 ] ||
  cli_fail "n = 32, one rank working: gbs_per_rank is not gbs in its 5 rows (per rank with work, not per rank)"
[ "$(dat_rows $f '$c["n"] == 3 && $c["kernel"] != "fill" && $c["pct_of_fill"] != "nan"')" -eq 4 ] ||
  cli_fail "n = 3: a kernel row without pct_of_fill (the fill wrote nothing?)"
[ "$(dat_rows $f '$c["n"] == 2 && $c["pct_of_fill"] == "nan"')" -eq 5 ] || cli_fail "n = 2: pct_of_fill is not nan (nothing to fill)"
one_error 2 "'--backend=tpu': choose one of: cpu gpu" mpi 3 $lm --backend=tpu

out=$(mpi 2 $lm --backend=gpu --sizes=300 --out=$tmp 2>&1); rc=$?
if [ $rc -eq 77 ]; then
  echo "gpu: SKIP (no GPU)"
  [ "$(printf '%s\n' "$out" | grep -c '^SKIP')" -eq 1 ] || cli_fail "exit 77 without exactly one SKIP line"
  [ -e $tmp/simplex2d_dist_lambda_p2.dat ] && cli_fail "data written by a skipped run"
else
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  echo "gpu: tested on $ngpu GPU(s)"
  for np in $(seq 1 "$ngpu"); do
    for rho in 4 16 32; do
      mpi $np $lm --backend=gpu --sizes=2,33,300,1001,4097 --variant=both --rho=$rho --full-max=4097 --reps=1 --warmup=0 --out=$tmp/g >/dev/null 2>&1 \
        || cli_fail "P=$np rho=$rho: verification or run failed"
    done
    [ -s $tmp/g/simplex2d_dist_lambda_p$np.dat ] || cli_fail "no .dat for P=$np"
    if [ "$np" -ge 2 ]; then # n = 2 (one block): P - 1 ranks idle, verified, a row written
      [ "$(dat_rows $tmp/g/simplex2d_dist_lambda_p$np.dat '$c["n"] == 2 && $c["ranks_idle"] == '$((np - 1)))" -eq 5 ] \
        || cli_fail "P=$np: n = 2 rows without $((np - 1)) idle rank(s)"
    fi
  done
  one_error 2 "rank $ngpu has no GPU" mpi $((ngpu + 1)) $lm --backend=gpu --sizes=300 --out=$tmp/x
fi
cli_done
