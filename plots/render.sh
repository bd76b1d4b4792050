#!/usr/bin/env bash
# plots/render.sh -- render every plots/<dir>_*.gp whose data exists into plots/out/.
#
# Each script names the data files it reads in a header line
#   # inputs: simplex2d_fig3_dummy.dat simplex2d_fig3_write.dat
# (file names inside <dir>/results/, or <dir>/results-ref/ with DATA=ref).  A script whose
# inputs are missing is reported by name and not rendered; STRICT=1 turns that into a
# failure.  Environment: DATA (''|ref|quick), PLOT_TERM (pdf|png), DIRS (restrict to these
# directories; default: all), STRICT.  Bad DATA, PLOT_TERM or DIRS: one line, exit 2.  No
# data at all (e.g. `make plots` before any `make run`): one line pointing to DATA=ref, exit 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
case "${DATA:-}" in
  ref) sub=results-ref;; quick) sub=results-quick;; "") sub=results;;
  *) echo "error: DATA=${DATA}: use DATA=ref (committed data), DATA=quick or nothing (results/)" >&2; exit 2;;
esac
term=${PLOT_TERM:-pdf}
case "$term" in
  pdf|png) ;;
  *) echo "error: TERM=$term: use TERM=pdf (default) or TERM=png" >&2; exit 2;;
esac
for d in ${DIRS:-}; do
  ls plots/"$d"_*.gp >/dev/null 2>&1 ||
    { echo "error: DIRS=$DIRS: no plot scripts plots/${d}_*.gp (directories with plots: $(ls plots/*_*.gp | sed 's|plots/||; s|_.*||' | sort -u | tr '\n' ' '))" >&2; exit 2; }
done
mkdir -p plots/out
rendered=0; missing=0; failed=0; missing_lines=""
for gp in plots/*_*.gp; do
  [ -f "$gp" ] || continue
  stem=$(basename "$gp" .gp)
  dir=${stem%%_*}
  if [ -n "${DIRS:-}" ] && ! [[ " $DIRS " == *" $dir "* ]]; then continue; fi
  datadir="$dir/$sub"
  inputs=$(sed -n 's/^# inputs: *//p' "$gp" | head -n 1)
  if [ -z "$inputs" ]; then echo "error: $gp has no '# inputs:' line"; failed=$((failed+1)); continue; fi
  absent=""
  for f in $inputs; do [ -f "$datadir/$f" ] || absent="$absent $datadir/$f"; done
  if [ -n "$absent" ]; then
    missing_lines="${missing_lines}MISSING data for $gp:$absent"$'\n'
    missing=$((missing+1)); continue
  fi
  out="plots/out/$stem.$term"
  # gnuplot is needed only now: bad settings and missing data are reported without it
  command -v gnuplot >/dev/null || { echo "error: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }
  if gnuplot -e "datadir='$datadir'; outfile='$out'; term='$term'; styledir='plots'" "$gp" 2>plots/out/$stem.log; then
    echo "rendered $out"; rendered=$((rendered+1)); rm -f plots/out/$stem.log
  else
    echo "FAILED $gp (log: plots/out/$stem.log)"; tail -n 5 plots/out/$stem.log; failed=$((failed+1))
  fi
done
if [ $rendered -eq 0 ] && [ $failed -eq 0 ] && [ $missing -gt 0 ]; then
  echo "plots: no data in */$sub/ (run 'make run' on a GPU machine first); the figures from the committed reference data: make plots DATA=ref" >&2
  exit 1
fi
printf '%s' "$missing_lines"
echo "plots: $rendered rendered, $missing missing data, $failed failed (data from */$sub)"
[ $failed -eq 0 ] || exit 1
[ "${STRICT:-}" != 1 ] || [ $missing -eq 0 ] || exit 1
exit 0
