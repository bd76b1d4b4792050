#!/usr/bin/env bash
# plots/table.sh -- what every figure plots, as numbers: the golden-data check of plots/*.gp.
#
# For each plots/<dir>_*.gp (or the NAMEs given), gnuplot runs the script on the committed data
# <dir>/results-ref/ with `set table` on, so that every plot command -- each multiplot panel,
# `plot for`, functions, `every`, values a script computes with stats or system() -- writes
# its curves (title, then x y ... and an i/o/u flag a point) as text instead of drawing them.
# Each figure is summed up in one line
#   NAME curves=C points=P cksum=CRC/BYTES
# (P: the points of all C curves; CRC/BYTES: POSIX cksum of the whole table), and the
# committed plots/golden-tables.txt holds the line of every figure.  A script that selects
# another column or row, scales by another factor, drops, adds or swaps a series or a title
# changes its line.
#
# Numbers as plain numbers: `set table` prints each column with its axis's tick format, so a
# script's `set format x '2^{%L}'` would print 2^{3} for 8 and 2^{3} again for 9.  A script
# cannot be told from outside to ignore its own `set format` (gnuplot 5.4 has no table format
# of its own, and a setting given before the script is overridden by the script), so the
# script runs as a filtered copy (and style.gp as well) in which the string of every
# `set format [AXES] '...'` and `set Xtics ... format '...'` is '%.8g': eight significant
# digits, plain numbers, the same on any machine for the same gnuplot.  --check then also
# fails on a data field that is not a number (a format syntax the filter does not know).
#
# Usage: plots/table.sh [--check | --update] [--out=DIR] [NAME ...]
#   (no mode)  print the line of each figure
#   --check    compare with the golden file: one line per figure that differs (DIFFERS NAME:
#              golden ..., now ...), has no golden line (NEW NAME) or is in the golden file but
#              has no script (GONE NAME, only without NAMEs); exit 1 if there is any
#   --update   write the lines into the golden file (all figures; with NAMEs, only theirs)
#   --out=DIR  also write each figure's table to DIR/NAME.txt (to read a difference: run it at
#              two revisions and diff the directories)
# NAME: a script's stem (fractals_ratio) or its path (plots/fractals_ratio.gp).
# Environment: GOLDEN (default plots/golden-tables.txt).  Exit 0; 1 on a difference or a figure
# that fails (missing data, a gnuplot error, an empty table); 2 on a usage error or no gnuplot.
#
# Whoever changes a figure's script or its committed data runs plots/table.sh --update and
# reviews the difference of the golden file (git diff: which figures, their curve and point
# counts) before committing both.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
golden=${GOLDEN:-plots/golden-tables.txt}
mode=print out="" names=()
for a in "$@"; do
  case $a in
    --check) mode=check ;;
    --update) mode=update ;;
    --out=*) out=${a#--out=} ;;
    --help|-h) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $a (plots/table.sh --help)" >&2; exit 2 ;;
    *) n=${a##*/}; names+=("${n%.gp}") ;;
  esac
done
command -v gnuplot >/dev/null || { echo "error: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 2; }
scripts=()
if [ ${#names[@]} -eq 0 ]; then
  for gp in plots/*_*.gp; do [ -f "$gp" ] && scripts+=("$gp"); done
else
  for n in "${names[@]}"; do
    [ -f "plots/$n.gp" ] && [[ $n == *_* ]] || { echo "error: no figure script plots/$n.gp" >&2; exit 2; }
    scripts+=("plots/$n.gp")
  done
fi
[ "$mode" != check ] || [ -f "$golden" ] || { echo "error: no golden file $golden (plots/table.sh --update makes it)" >&2; exit 2; }
[ -z "$out" ] || mkdir -p "$out" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/plots-table-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the filter: every tick format string becomes '%.8g'
plain() {
  perl -pe '
    my $q = qr/"(?:[^"\\]|\\.)*"|\x27[^\x27]*\x27/;
    s/\bset\s+format((?:\s+(?:[xyz]2?|xy|cb|r))?)(?:\s*$q)?/set format$1 \x27%.8g\x27/g;
    s/(\bset\s+m?(?:[xyz]2?|cb|r)tics\b[^;\n]*?\bformat\s*)$q/$1\x27%.8g\x27/g;' "$1"
}
plain plots/style.gp >"$tmp/style.gp"

failed=0 lines="" failed_names=""
for gp in "${scripts[@]}"; do
  stem=$(basename "$gp" .gp)
  dir=${stem%%_*}
  datadir=$dir/results-ref
  absent=""
  for f in $(sed -n 's/^# inputs: *//p' "$gp" | head -n 1); do [ -f "$datadir/$f" ] || absent="$absent $datadir/$f"; done
  if [ -n "$absent" ]; then echo "FAILED $stem: missing data:$absent"; failed=$((failed + 1)); failed_names="$failed_names $stem"; continue; fi
  plain "$gp" >"$tmp/$stem.gp"
  tab=$tmp/$stem.txt
  if ! gnuplot -e "datadir='$datadir'; styledir='$tmp'; term='pdf'; outfile='/dev/null'; set table '$tab'" \
       "$tmp/$stem.gp" 2>"$tmp/$stem.log" </dev/null; then
    echo "FAILED $stem: gnuplot:"; tail -n 5 "$tmp/$stem.log" | sed 's/^/  /'; failed=$((failed + 1)); failed_names="$failed_names $stem"; continue
  fi
  [ -z "$out" ] || cp "$tab" "$out/$stem.txt"
  # curves, points; a data field that is not a number (the flag column aside) is an error
  counts=$(awk '/^# Curve [0-9]+ of / { c++; next } /^#/ || NF == 0 { next }
    { p++; for (i = 1; i < NF; i++) if ($i !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && $i !~ /^[-+]?(nan|NaN|inf|Inf)$/) bad++ }
    END { printf "%d %d %d", c, p, bad }' "$tab")
  set -- $counts
  if [ "$1" -eq 0 ] || [ "$3" -ne 0 ]; then
    echo "FAILED $stem: $1 curves, $3 fields that are not numbers (a format the filter misses?)"; failed=$((failed + 1)); failed_names="$failed_names $stem"; continue
  fi
  ck=$(cksum <"$tab" | awk '{ print $1 "/" $2 }')
  lines="$lines$stem curves=$1 points=$2 cksum=$ck"$'\n'
done
version=$(gnuplot --version)

case $mode in
  print) printf '%s' "$lines" ;;
  update)
    [ $failed -eq 0 ] || { echo "plots/table.sh: $failed figures failed: $golden not written" >&2; exit 1; }
    {
      echo "# $golden -- what every figure plots, from the committed <dir>/results-ref/ data: one line"
      echo "# per plots/<dir>_*.gp, written by plots/table.sh --update (its header says how)."
      echo "# After changing a figure's script or its committed data: plots/table.sh --update, then"
      echo "# review this file's diff (which figures changed, their curves and points) and commit it."
      echo "# made with: $version"
      { [ ${#names[@]} -eq 0 ] || [ ! -f "$golden" ] || {
          printf '%s' "$lines" | awk '{ print $1 }' >"$tmp/names"
          grep -v '^#' "$golden" | awk 'NR == FNR { skip[$1] = 1; next } !($1 in skip)' "$tmp/names" -; }
        printf '%s' "$lines"; } | sort
    } >"$tmp/golden" && mv "$tmp/golden" "$golden"
    echo "plots/table.sh: $(printf '%s' "$lines" | grep -c .) figures written to $golden" ;;
  check)
    diffs=$(printf '%s' "$lines" | awk -v all=$([ ${#names[@]} -eq 0 ] && echo 1 || echo 0) -v failed="$failed_names" '
      BEGIN { nf = split(failed, fl, " "); for (i = 1; i <= nf; i++) seen[fl[i]] = 1 }
      NR == FNR { if ($0 !~ /^#/ && NF) { g[$1] = $0; order[++n] = $1 } next }
      { seen[$1] = 1
        if (!($1 in g)) print "NEW " $1 ": no golden line; now " $0
        else if (g[$1] != $0) { split(g[$1], a, " "); print "DIFFERS " $1 ": golden " a[2] " " a[3] " " a[4] ", now " $2 " " $3 " " $4 } }
      END { if (all) for (i = 1; i <= n; i++) if (!(order[i] in seen)) print "GONE " order[i] ": in the golden file, no script" }' "$golden" -)
    if [ -n "$diffs" ]; then
      printf '%s\n' "$diffs"
      gv=$(sed -n 's/^# made with: //p' "$golden")
      [ "$gv" = "$version" ] || echo "note: $golden was made with $gv, this is $version"
      echo "plots/table.sh: $(printf '%s\n' "$diffs" | grep -c .) figures differ from $golden (a change on purpose: plots/table.sh --update, and review the diff)"
      exit 1
    fi
    echo "plots/table.sh: $(printf '%s' "$lines" | grep -c .) figures match $golden" ;;
esac
[ $failed -eq 0 ] || { echo "plots/table.sh: $failed figures failed" >&2; exit 1; }
exit 0
