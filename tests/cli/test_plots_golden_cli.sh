#!/usr/bin/env bash
# What the figures plot: every plots/<dir>_*.gp run by plots/table.sh on the committed
# <dir>/results-ref/ data with gnuplot's `set table`, each figure's curves and points against
# its line in plots/golden-tables.txt (curve and point counts, cksum of the table).  A wrong
# column, a wrong selection constant, a wrong unit factor, a dropped, added or swapped series
# or title changes a line; one line per figure that differs.  A change on purpose:
# plots/table.sh --update, then review the golden file's diff.  SKIP (77) without gnuplot.
# Then table.sh itself, on a scratch tree: a `set format x '2^{%L}'` and a `set xtics ...
# format` come out as plain numbers with eight digits, multiplot panels, `plot for`, a
# function and `every` are all in the table; --check reports DIFFERS, NEW and GONE lines and
# exits 1; a format the filter does not know (an abbreviated `set fo`) fails the figure; with
# NAMEs, --check compares only those and --update keeps the other figures' lines; style is no NAME.
# SKIP (77) also when the golden file was made by another gnuplot major.minor version.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v gnuplot >/dev/null 2>&1 || { echo "SKIP: gnuplot not installed (gnuplot-nox)"; exit 77; }
# the tables are compared as text, written by one gnuplot: another major.minor version may write
# them differently (plots/table.sh --update under it makes a golden file for it)
made=$(sed -n 's/^# made with: gnuplot \([0-9]*\.[0-9]*\).*/\1/p' "$top/plots/golden-tables.txt")
have=$(gnuplot --version | awk '{ print $2 }')
[ "$made" = "$have" ] || { echo "SKIP: plots/golden-tables.txt was made with gnuplot $made, this is gnuplot $have"; exit 77; }

# ---- 1. the real figures against the golden file
o=$("$top/plots/table.sh" --check 2>&1); rc=$?
printf '%s\n' "$o" | head -n 80
[ $rc -eq 0 ] || cli_fail "plots/table.sh --check: exit $rc (the figures above differ from plots/golden-tables.txt or failed)"

# ---- 2. table.sh on a scratch tree
s=$cli_tmp/tree
mkdir -p "$s/plots" "$s/d/results-ref"
cp "$top/plots/table.sh" "$top/plots/style.gp" "$s/plots/"
{ echo '# gpu: none'; echo 'n ms m'; for n in 8 16 32 64; do echo "$n $((n * 3)).123456789 $((n % 3))"; done; } >"$s/d/results-ref/d_a.dat"
hdr="# inputs: d_a.dat
if (!exists('datadir')) datadir = 'd/results-ref'
if (!exists('styledir')) styledir = 'plots'
load styledir.'/style.gp'
f = datadir.'/d_a.dat'
set logscale x 2"
printf '%s\n' "$hdr" "set format x '2^{%L}'" "set format y '10^{%T}'; set ytics 10 format '%.1f'" \
  "set multiplot layout 1,2" \
  "plot for [k in '1 2'] f using 'n':(column('m') == k ? column('ms') : NaN) title 'm = '.k, 2 * x title 'fn'" \
  "plot f every 2 using 'n':'ms' title 'every'" "unset multiplot" >"$s/plots/d_fig.gp"
tab=$cli_tmp/tabs
(cd "$s" && plots/table.sh --out="$tab" d_fig) >"$cli_tmp/print" 2>&1 || cli_fail "table.sh d_fig: exit $?: $(cat "$cli_tmp/print")"
grep -q '^d_fig curves=4 points=' "$cli_tmp/print" || cli_fail "table.sh d_fig: want 4 curves (two of plot for, the function, every): $(cat "$cli_tmp/print")"
t=$tab/d_fig.txt
for want in 'title: "m = 1"' 'title: "m = 2"' 'title: "fn"' 'title: "every"' \
            '^ *16 48.123457  i' '^ *64 192.12346  i' '^ *8 24.123457  i' '^ *32 96.123457  i'; do
  grep -q "$want" "$t" 2>/dev/null || cli_fail "table of d_fig lacks '$want'"
done
# every 2: rows n = 8 and 32 only
awk '/title: "every"/ { e = 1; next } /^# Curve [0-9]/ { e = 0 } e && /^ *[0-9]/ { print $1 }' "$t" 2>/dev/null | tr '\n' ' ' |
  grep -qx '8 32 ' || cli_fail "table of d_fig: 'every 2' did not give n = 8 and 32"
grep -q '{' "$t" 2>/dev/null && grep -v '^#' "$t" | grep -q '{' && cli_fail "table of d_fig: a tick format in the numbers"
# --update, then --check: pass; one figure changed: DIFFERS; a new one: NEW; a removed one: GONE
(cd "$s" && plots/table.sh --update) >/dev/null 2>&1 || cli_fail "table.sh --update on the scratch tree: exit $?"
(cd "$s" && plots/table.sh --check) >/dev/null 2>&1 || cli_fail "table.sh --check right after --update: exit $?"
sed -i "s/ 'fn'/ 'function'/" "$s/plots/d_fig.gp"
o=$(cd "$s" && plots/table.sh --check 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^DIFFERS d_fig: golden curves=4 ' ||
  cli_fail "a title changed: want exit 1 and 'DIFFERS d_fig', got $rc: $o"
printf '%s\n' "$hdr" "plot f using 'n':'ms' title 'b'" >"$s/plots/d_b.gp"
mv "$s/plots/d_fig.gp" "$cli_tmp/"
o=$(cd "$s" && plots/table.sh --check 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^NEW d_b: ' && printf '%s\n' "$o" | grep -q '^GONE d_fig: ' ||
  cli_fail "a figure added and one removed: want exit 1, NEW d_b and GONE d_fig, got $rc: $o"
# a format the filter does not rewrite: the figure fails, not a silent checksum of '2^{3}'
printf '%s\n' "$hdr" "set fo x '2^{%L}'" "plot f using 'n':'ms' title 'b'" >"$s/plots/d_b.gp"
o=$(cd "$s" && plots/table.sh d_b 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^FAILED d_b: .* not numbers' ||
  cli_fail "an abbreviated set fo: want exit 1 and 'FAILED d_b: ... not numbers', got $rc: $o"
# usage errors
o=$(cd "$s" && plots/table.sh --bogus 2>&1); [ $? -eq 2 ] || cli_fail "table.sh --bogus: want exit 2: $o"
o=$(cd "$s" && plots/table.sh nosuch_fig 2>&1); [ $? -eq 2 ] || cli_fail "table.sh nosuch_fig: want exit 2: $o"
# with NAMEs: --check compares only those (no GONE for the others), --update rewrites only their
# lines and keeps every other figure's
mv "$cli_tmp/d_fig.gp" "$s/plots/"
printf '%s\n' "$hdr" "plot f using 'n':'ms' title 'b'" >"$s/plots/d_b.gp"
(cd "$s" && plots/table.sh --update) >/dev/null 2>&1 || cli_fail "table.sh --update of d_b and d_fig: exit $?"
o=$(cd "$s" && plots/table.sh --check d_fig 2>&1) || cli_fail "table.sh --check d_fig: exit $?: $o"
printf '%s\n' "$o" | grep -q '^GONE' && cli_fail "table.sh --check d_fig reports other figures: $o"
fig_line=$(grep '^d_fig ' "$s/plots/golden-tables.txt")
sed -i "s/title 'b'/title 'b2'/" "$s/plots/d_b.gp"
(cd "$s" && plots/table.sh --update d_b) >/dev/null 2>&1 || cli_fail "table.sh --update d_b: exit $?"
[ -n "$fig_line" ] && [ "$(grep '^d_fig ' "$s/plots/golden-tables.txt")" = "$fig_line" ] ||
  cli_fail "table.sh --update d_b did not keep d_fig's line: $(grep -v '^#' "$s/plots/golden-tables.txt")"
o=$(cd "$s" && plots/table.sh --check 2>&1) || cli_fail "table.sh --check after --update d_b: exit $?: $o"
# style.gp is in plots/ but is no figure (a NAME has the <dir>_ prefix)
o=$(cd "$s" && plots/table.sh style 2>&1); [ $? -eq 2 ] || cli_fail "table.sh style: want exit 2: $o"
cli_done
