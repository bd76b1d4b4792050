#!/usr/bin/env bash
# sparsegrid's --precision against the experiment table, each experiment by its exact name:
# --precision=double is accepted by --exp=sparse only (exit 77 with no visible device), and
# refused by every other experiment of --exp=list -- GPU ones and host ones, sparse-error and
# the others whose names share a prefix with "sparse" included -- before any work: exit 2, one
# error line, no data file.  --precision=half is refused by the option itself.  The same for
# --fam-plans (k_sparse_fam's configurations, --exp=sparse only): a valid list is accepted by
# --exp=sparse (exit 77 here), refused by the other experiments; a malformed or out-of-range list
# is refused before the GPU is looked for, with the entry and field named.
. "$(dirname "$0")/lib.sh"
sg=sparsegrid/sparsegrid
cli_need "make -C sparsegrid" $sg
export CUDA_VISIBLE_DEVICES=-1
tmp=$cli_tmp
names=$(expect 0 $sg --exp=list | awk 'NR > 1 && NF >= 2 { print $1 }')
[ "$(wc -w <<<"$names")" -ge 11 ] || cli_fail "--exp=list names $(wc -w <<<"$names") experiments, want 11 or more"
grep -qx 'sparse-error' <<<"$names" || cli_fail "--exp=list lacks sparse-error"
for e in $names; do
  if [ "$e" = sparse ]; then
    cli_nodev_ok "--exp=sparse --precision=double" $sg --exp=sparse --precision=double --quick --out="$tmp/$e"
    continue
  fi
  cli_refused_line "--exp=$e --precision=double" 'only --exp=sparse computes in double' \
    $sg --exp=$e --precision=double --quick --out="$tmp/$e"
  [ -n "$(ls -A "$tmp/$e" 2>/dev/null)" ] && cli_fail "--exp=$e --precision=double wrote $(ls "$tmp/$e")"
  cli_refused_line "--exp=$e --fam-plans" 'only --exp=sparse runs k_sparse_fam' \
    $sg --exp=$e --fam-plans=256:1:8:1:1 --quick --out="$tmp/$e"
  [ -n "$(ls -A "$tmp/$e" 2>/dev/null)" ] && cli_fail "--exp=$e --fam-plans wrote $(ls "$tmp/$e")"
done
cli_nodev_ok "--exp=sparse --fam-plans (two)" $sg --exp=sparse --fam-plans=256:1:8:1:1,512:2:4:8:0 --quick --out="$tmp/fp"
cli_refused_line "--fam-plans rmax 3" 'entry 2: rmax 3 is not a power of two' \
  $sg --exp=sparse --fam-plans=256:1:8:1:1,256:1:3:1:1 --quick --out="$tmp/fp"
cli_refused_line "--fam-plans lmin 64" 'entry 1: lmin 64 out of range \(1 to 32\)' $sg --exp=sparse --fam-plans=256:1:8:64:1 --quick --out="$tmp/fp"
cli_refused_line "--fam-plans four fields" 'entry 1: expected T:B:R:L:P' $sg --exp=sparse --fam-plans=256:1:8:1 --quick --out="$tmp/fp"
[ -n "$(ls -A "$tmp/fp" 2>/dev/null)" ] && cli_fail "--fam-plans refused but wrote $(ls "$tmp/fp")"
cli_refused_line "--precision=half" "'--precision=half'" $sg --exp=sparse --precision=half
cli_done
