#!/usr/bin/env bash
# The lambda split across GPUs (issue 14): simplex2d/lambda-mpi under mpirun.
#   --help exits 0; bad --sizes, more than 2^32 blocks: exit 2, ONE error line from rank 0,
#   no hang (timeout); without a GPU: one SKIP line, exit 77 on every rank; with GPUs: P = 1 ..
#   #GPUs at small n verified in full on the host (every element, poison included) plus the
#   device check -- n = 2 and 33 leave ranks without a block at P >= 2 (n = 2: one block),
#   which is a normal split (ranks_idle > 0 in the .dat), not an error -- and one rank more
#   than there are GPUs refused with one line.
set -u
. "$(dirname "$0")/lib.sh"
command -v mpirun >/dev/null 2>&1 || { echo "SKIP: mpirun not installed (Open MPI: openmpi-bin)"; exit 77; }
lm=simplex2d/lambda-mpi
[ -x $lm ] || { echo "FAILED: $lm not built (make -C simplex2d; needs mpicxx)"; exit 1; }
tmp=$cli_tmp
flags=(-q --oversubscribe) # -q: no mpirun banners between the programs' own lines
[ "$(id -u)" -eq 0 ] && flags+=(--allow-run-as-root)
[ -n "${NCCL_NVLS_ENABLE+x}" ] && flags+=(-x NCCL_NVLS_ENABLE)
mpi() { local np=$1; shift; timeout "${MPI_TIMEOUT:-60}" mpirun "${flags[@]}" -np "$np" "$@"; }
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
out=$(mpi 2 $lm --sizes=300 --out=$tmp 2>&1); rc=$?
if [ $rc -eq 77 ]; then
  echo "gpu: SKIP (no GPU)"
  [ "$(printf '%s\n' "$out" | grep -c '^SKIP')" -eq 1 ] || cli_fail "exit 77 without exactly one SKIP line"
  [ -e $tmp/simplex2d_dist_lambda_p2.dat ] && cli_fail "data written by a skipped run"
else
  ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  echo "gpu: tested on $ngpu GPU(s)"
  for np in $(seq 1 "$ngpu"); do
    for rho in 4 16 32; do
      mpi $np $lm --sizes=2,33,300,1001,4097 --variant=both --rho=$rho --full-max=4097 --reps=1 --warmup=0 --out=$tmp/g >/dev/null 2>&1 \
        || cli_fail "P=$np rho=$rho: verification or run failed"
    done
    [ -s $tmp/g/simplex2d_dist_lambda_p$np.dat ] || cli_fail "no .dat for P=$np"
    if [ "$np" -ge 2 ]; then # n = 2 (one block): P - 1 ranks idle, verified, a row written
      awk -v p=$np '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next }
        $c["kernel"] == "write" && $c["n"] == 2 { f = 1; if ($c["ranks_idle"] != p - 1) bad = 1 } END { exit !(f && !bad) }' \
        $tmp/g/simplex2d_dist_lambda_p$np.dat || cli_fail "P=$np: no n = 2 row with $((np - 1)) idle rank(s)"
    fi
  done
  one_error 2 "rank $ngpu has no GPU" mpi $((ngpu + 1)) $lm --sizes=300 --out=$tmp/x
fi
cli_done
