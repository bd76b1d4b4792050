#!/usr/bin/env bash
# common/run-data.sh -- what `make run` does (common/README.md, "Make"): make each data file
# target in turn, one progress line per file on stderr, the GPU ones only where a GPU answers.
#
#   run-data.sh dir NAME 'HOST_DATA' 'GPU_DATA' ['LEFT']   a directory's `make run` (common.mk);
#                                                 LEFT: its LONG_DATA not made (no FULL=1)
#   run-data.sh top DIR...                        the top-level `make run`: every DIR in turn
#
# HOST_DATA (no GPU needed) always runs; GPU_DATA only where `common/bandwidth --check-device`
# exits 0 (built here if missing). Exit 77 there (no GPU or driver), or HOST_ONLY=1: the GPU
# files are skipped, one line per directory naming them, and the run still succeeds. Any other
# exit (e.g. a binary built for another GPU: it names `make ARCH=...`) stops the run.
# Progress, before each file (the count and the clock are the whole `make run`'s):
#   [5/23] simplex3d results/simplex3d_speedup_write.dat ... (elapsed 142 s)
# The top level hands each directory RUNDATA_GPU (yes|no), RUNDATA_WHY, RUNDATA_DONE (files
# before this directory), RUNDATA_TOTAL and RUNDATA_START (epoch seconds) in the environment.
set -u
here=$(cd "$(dirname "$0")" && pwd)
make_=${MAKE:-make}

# RUNDATA_GPU=yes|no and RUNDATA_WHY (why no GPU), from HOST_ONLY or common/bandwidth
gpu_probe() {
  if [ "${HOST_ONLY:-}" = 1 ]; then RUNDATA_GPU=no; RUNDATA_WHY="HOST_ONLY=1"; return 0; fi
  if [ ! -x "$here/bandwidth" ]; then
    echo "make run: building common/bandwidth (it tells whether a GPU is here)" >&2
    "$make_" --no-print-directory -C "$here" bandwidth >&2 || exit 1
  fi
  local out rc
  out=$("$here/bandwidth" --check-device 2>&1); rc=$?
  case $rc in
    0) RUNDATA_GPU=yes; RUNDATA_WHY="GPU: $(printf '%s' "$out" | head -n 1)";;
    77) RUNDATA_GPU=no; RUNDATA_WHY="no GPU here ($(printf '%s' "$out" | head -n 1 | sed 's/^SKIP: *//; s/ *(.*)$//'))";;
    *) printf '%s\n' "$out" >&2; echo "make run: common/bandwidth --check-device exited $rc: stopped" >&2; exit 1;;
  esac
}

case "${1:-}" in
dir)
  name=$2
  read -r -a host <<<"${3:-}"
  read -r -a gpu <<<"${4:-}"
  read -r -a left <<<"${5:-}"
  [ -n "${RUNDATA_GPU:-}" ] || gpu_probe
  targets=("${host[@]}")
  [ "$RUNDATA_GPU" = yes ] && targets+=("${gpu[@]}")
  i=${RUNDATA_DONE:-0}
  total=${RUNDATA_TOTAL:-${#targets[@]}}
  start=${RUNDATA_START:-$(date +%s)}
  for t in "${targets[@]}"; do
    i=$((i + 1))
    echo "[$i/$total] $name $t ... (elapsed $(($(date +%s) - start)) s)" >&2
    "$make_" --no-print-directory "$t" || exit 1
  done
  if [ "$RUNDATA_GPU" != yes ] && [ ${#gpu[@]} -gt 0 ]; then
    names=$(printf '%s\n' "${gpu[@]}" | sed 's|^[^/]*/||' | tr '\n' ' ')
    if [ "${RESDIR:-results}" = results-quick ]; then figs="make plots DATA=ref"
    else figs="make plots, from results-ref/, or make plots DATA=ref"; fi
    echo "$name: ${RUNDATA_WHY:-no GPU}: ${#host[@]} host-only data files made; ${#gpu[@]} GPU data files skipped (their figures: $figs): ${names% }" >&2
  fi
  if [ ${#left[@]} -gt 0 ]; then
    names=$(printf '%s\n' "${left[@]}" | sed 's|^[^/]*/||' | tr '\n' ' ')
    echo "$name: ${#left[@]} long GPU data files not made (make run FULL=1 makes them; their figures come from results-ref/): ${names% }" >&2
  fi
  ;;
top)
  shift
  start=$(date +%s)
  gpu_probe
  total=0; hosts=0; gpus=0; counts=()
  for d in "$@"; do
    # `make run-list`: one line 'host: FILES' and one 'gpu: FILES'
    list=$("$make_" -s --no-print-directory -C "$d" run-list) || exit 1
    h=$(printf '%s\n' "$list" | sed -n 's/^host://p' | wc -w)
    g=$(printf '%s\n' "$list" | sed -n 's/^gpu://p' | wc -w)
    hosts=$((hosts + h)); gpus=$((gpus + g))
    [ "$RUNDATA_GPU" = yes ] && n=$((h + g)) || n=$h
    counts+=("$n"); total=$((total + n))
  done
  if [ "$RUNDATA_GPU" = yes ]; then
    echo "make run: $total data files in $# directories ($RUNDATA_WHY)" >&2
  else
    echo "make run: $RUNDATA_WHY: the $hosts host-only data files of $# directories; the $gpus GPU ones are skipped" >&2
  fi
  done_=0; k=0
  for d in "$@"; do
    RUNDATA_GPU=$RUNDATA_GPU RUNDATA_WHY=$RUNDATA_WHY RUNDATA_DONE=$done_ RUNDATA_TOTAL=$total \
      RUNDATA_START=$start "$make_" --no-print-directory -C "$d" run || exit 1
    done_=$((done_ + counts[k])); k=$((k + 1))
  done
  secs=$(($(date +%s) - start))
  res=${RESDIR:-results}
  if [ "$res" = results-quick ]; then plots="make plots DATA=quick"; else plots="make plots"; fi
  if [ "$RUNDATA_GPU" = yes ]; then
    echo "make run: done, $total data files in <dir>/$res/ ($secs s); $plots draws them" >&2
  elif [ "$res" = results-quick ]; then
    echo "make run: done without a GPU ($secs s): $hosts host-only data files in <dir>/$res/ ($plots draws what they cover); the figures from the committed reference data: make plots DATA=ref" >&2
  else
    echo "make run: done without a GPU ($secs s): $hosts host-only data files in <dir>/$res/; make plots draws their figures from them and the others from the committed results-ref/ (make plots DATA=ref: every figure from it)" >&2
  fi
  ;;
*)
  echo "usage: run-data.sh dir NAME 'HOST_DATA' 'GPU_DATA' ['LEFT'] | top DIR..." >&2; exit 2;;
esac
exit 0
