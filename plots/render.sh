#!/usr/bin/env bash
# plots/render.sh -- render every plots/<dir>_*.gp whose data exists into plots/out/.
#
# Each script names the data files it reads in a header line
#   # inputs: simplex2d_fig3_dummy.dat simplex2d_fig3_write.dat
# (file names inside the data directory).  DATA picks it:
#   (unset)  <dir>/results/ where it holds every input of the figure, else the committed
#            <dir>/results-ref/ (the line 'rendered ...' then says so and names what
#            results/ lacks): `make run` without a GPU makes only the host-only data
#   results  <dir>/results/ only;  ref  <dir>/results-ref/ only;  quick  <dir>/results-quick/
# A script whose inputs are missing is reported by name and not rendered; STRICT=1 turns that
# into a failure.  Environment: DATA, PLOT_TERM (pdf|png), DIRS (restrict to these
# directories; default: all), STRICT.  Bad DATA, PLOT_TERM or DIRS: one line, exit 2.  No
# data at all with DATA=results or quick: one line pointing to DATA=ref, exit 1.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
fallback=""
case "${DATA:-}" in
  ref) sub=results-ref;; quick) sub=results-quick;; results) sub=results;;
  "") sub=results; fallback=results-ref;;
  *) echo "error: DATA=${DATA}: use DATA=ref (committed data), DATA=quick, DATA=results or nothing (results/, else results-ref/)" >&2; exit 2;;
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
rendered=0; from_ref=0; missing=0; failed=0; missing_lines=""
for gp in plots/*_*.gp; do
  [ -f "$gp" ] || continue
  stem=$(basename "$gp" .gp)
  dir=${stem%%_*}
  if [ -n "${DIRS:-}" ] && ! [[ " $DIRS " == *" $dir "* ]]; then continue; fi
  datadir="$dir/$sub"
  inputs=$(sed -n 's/^# inputs: *//p' "$gp" | head -n 1)
  if [ -z "$inputs" ]; then echo "error: $gp has no '# inputs:' line"; failed=$((failed+1)); continue; fi
  absent=""; lacks=""; nlacks=0; note=""
  for f in $inputs; do [ -f "$datadir/$f" ] || absent="$absent $datadir/$f"; done
  if [ -n "$absent" ] && [ -n "$fallback" ]; then
    # not all measured here: the whole figure from the committed data, if it has every input
    for f in $inputs; do [ -f "$datadir/$f" ] || { nlacks=$((nlacks+1)); [ -n "$lacks" ] || lacks=$f; }; done
    absent_ref=""
    for f in $inputs; do [ -f "$dir/$fallback/$f" ] || absent_ref="$absent_ref $dir/$fallback/$f"; done
    if [ -z "$absent_ref" ]; then
      datadir="$dir/$fallback"; absent=""
      [ $nlacks -gt 1 ] && lacks="$lacks +$((nlacks-1)) more"
      note=" from $datadir/ ($dir/$sub/ lacks $lacks)"
    else
      absent="$absent; not in $dir/$fallback/ either:$absent_ref"
    fi
  fi
  if [ -n "$absent" ]; then
    missing_lines="${missing_lines}MISSING data for $gp:$absent"$'\n'
    missing=$((missing+1)); continue
  fi
  out="plots/out/$stem.$term"
  # gnuplot is needed only now: bad settings and missing data are reported without it
  command -v gnuplot >/dev/null || { echo "error: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }
  if gnuplot -e "datadir='$datadir'; outfile='$out'; term='$term'; styledir='plots'" "$gp" 2>plots/out/$stem.log; then
    echo "rendered $out$note"; rendered=$((rendered+1)); rm -f plots/out/$stem.log
    [ -z "$note" ] || from_ref=$((from_ref+1))
  else
    echo "FAILED $gp (log: plots/out/$stem.log)"; tail -n 5 plots/out/$stem.log; failed=$((failed+1))
  fi
done
if [ $rendered -eq 0 ] && [ $failed -eq 0 ] && [ $missing -gt 0 ]; then
  [ "$sub" = results-quick ] && how="make quick" || how="make run"
  echo "plots: no data in */$sub/ ($how makes it; without a GPU only the host-only data); the figures from the committed reference data: make plots DATA=ref" >&2
  exit 1
fi
printf '%s' "$missing_lines"
if [ -n "$fallback" ]; then
  echo "plots: $rendered rendered ($((rendered-from_ref)) from */$sub/, $from_ref from the committed */$fallback/), $missing missing data, $failed failed"
  [ $from_ref -eq 0 ] || [ $from_ref -lt $rendered ] ||
    echo "plots: no figure had all its data in */$sub/ (make run measures them; without a GPU only the host-only ones): every figure from */$fallback/"
else
  echo "plots: $rendered rendered, $missing missing data, $failed failed (data from */$sub)"
fi
[ $failed -eq 0 ] || exit 1
[ "${STRICT:-}" != 1 ] || [ $missing -eq 0 ] || exit 1
exit 0
