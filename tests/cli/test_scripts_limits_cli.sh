#!/usr/bin/env bash
# The repository scripts' settings and refusals that the normal runs never take, on scratch
# trees (no GPU, no gnuplot):
#   plots/report.sh: DATA=quick and DATA=results link the page to results-quick/ and results/
#     (and check the data there); DATA=bogus is one error line, exit 2, no page; a plot cell
#     with text but neither a `script.gp` span nor a dash is refused with its line;
#   plots/render.sh: DATA=quick reads <dir>/results-quick/ (without data there: exit 1, the line
#     naming */results-quick/ and 'make quick'), DATA=ref results-ref/, DATA=results results/;
#     DATA unset (with a stand-in gnuplot): from results-ref/ naming what results/ lacks (the
#     first file, '+N more' only for more than one), a figure missing everywhere: exit 0, and
#     exit 1 under STRICT=1;
#   tests/claims/check.sh: by default it reads README.md, every */README.md, every */NOTES.md
#     and every README.md under */results-ref/ (one 'claims:' line each); an unknown option and
#     a README that does not exist are exit 2 with one error line.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$cli_tmp

# ---- plots/report.sh
s=$t/r
mkdir -p "$s/plots/out" "$s/d/results-ref" "$s/d/results-quick" "$s/d/results"
cp "$top/plots/report.sh" "$s/plots/"
: >"$s/d/Makefile"
for sub in results-ref results-quick results; do printf '# gpu: none\nn v\n1 2\n' >"$s/d/$sub/d_fig1.dat"; done
echo '# inputs: d_fig1.dat' >"$s/plots/d_fig1.gp"
echo png >"$s/plots/out/d_fig1.png"
table() { # table PLOT-CELL [SECOND-ROW's PLOT-CELL]
  { printf '# d -- scratch\n\n<!-- figures -->\n| paper item | what it shows | command | data | plot | paper | ours |\n|---|---|---|---|---|---|---|\n'
    printf '| Fig. 1 | a | `make` | `d_fig1.dat` | %s | 1 | 2 |\n' "$1"
    [ $# -lt 2 ] || printf '| Table 1 | b | `make` | `d_fig1.dat` | %s | 1 | 2 |\n' "$2"
    printf '<!-- end figures -->\n'; } >"$s/d/README.md"; }
report() { rm -f "$s/plots/out/index.html"; (cd "$s" && env "$@" bash plots/report.sh) 2>&1; }
table '`d_fig1.gp`'
for want in results-quick:quick results:results results-ref:ref results-ref:; do
  sub=${want%%:*} data=${want#*:}
  o=$(report DATA=$data); rc=$?
  [ $rc -eq 0 ] || cli_fail "report DATA=$data: exit $rc: $o"
  grep -q "href=\"../../d/$sub/d_fig1.dat\"" "$s/plots/out/index.html" 2>/dev/null ||
    cli_fail "report DATA=$data: the page does not link d/$sub/d_fig1.dat"
  printf '%s\n' "$o" | tail -n 1 | grep -q "data from \*/$sub)\$" || cli_fail "report DATA=$data: last line '$o'"
done
rm "$s/d/results-quick/d_fig1.dat"
o=$(report DATA=quick); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q 'data file d/results-quick/d_fig1\.dat not found' ||
  cli_fail "report DATA=quick without results-quick data: exit $rc: $o"
o=$(report DATA=bogus); rc=$?
[ $rc -eq 2 ] || cli_fail "report DATA=bogus: exit $rc, want 2"
[ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s\n' "$o" | grep -q '^error: DATA=bogus' || cli_fail "report DATA=bogus: '$o'"
[ -e "$s/plots/out/index.html" ] && cli_fail "report DATA=bogus wrote a page"
table 'd_fig1.gp'   # a script named without its code span: neither a span nor a dash
o=$(report); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^report: d/README\.md:6: the plot cell names no `script.gp`' ||
  cli_fail "report: a plot cell without span or dash: exit $rc: $o"
[ -e "$s/plots/out/index.html" ] && cli_fail "report wrote a page for a plot cell without span or dash"
for dash in '—' '-' '–'; do
  table '`d_fig1.gp`' "$dash"; o=$(report) || cli_fail "report: a table-only row (plot cell '$dash') refused: $o"
done

# ---- plots/render.sh: where each DATA reads (no data: nothing is rendered, gnuplot not needed)
s=$t/p
mkdir -p "$s/plots" "$s/d/results" "$s/d/results-ref"
cp "$top/plots/render.sh" "$s/plots/"
echo '# inputs: d_a.dat' >"$s/plots/d_a.gp"
render() { (cd "$s" && env "$@" DIRS=d bash plots/render.sh) 2>&1; }
o=$(render DATA=quick); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^plots: no data in \*/results-quick/ (make quick makes it' ||
  cli_fail "render DATA=quick without data: exit $rc: $o"
o=$(render DATA=ref); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^plots: no data in \*/results-ref/ (make run makes it' || cli_fail "render DATA=ref: exit $rc: $o"
o=$(render DATA=results); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^plots: no data in \*/results/ (make run makes it' || cli_fail "render DATA=results: exit $rc: $o"
# DIRS names whole directories: 'dd_', a prefix of the script names plots/dd_*.gp, is none: refused
echo '# inputs: dd_b.dat' >"$s/plots/dd_b.gp"
o=$( (cd "$s" && DATA=ref DIRS=dd_ bash plots/render.sh) 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$o" | grep -q '^error: DIRS=dd_: no plot scripts plots/dd__\*\.gp' || cli_fail "render DIRS=dd_ (no such directory): exit $rc: $o"
o=$( (cd "$s" && DATA=ref DIRS=dd bash plots/render.sh) 2>&1); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -q '^plots: no data in \*/results-ref/' || cli_fail "render DIRS=dd: exit $rc: $o"
rm -f "$s/plots/dd_b.gp"
# DATA unset with a stand-in gnuplot (it writes the output file it is given): a figure whose one
# input is only in results-ref/ comes from there ('lacks d_a.dat', no count of more files); one
# with two inputs missing from results/ names the first '+1 more'; a figure whose data is
# nowhere is MISSING: exit 0, and 1 under STRICT=1 (one such figure is enough)
mkdir -p "$t/bin"
cat >"$t/bin/gnuplot" <<'EOF'
#!/bin/sh
# gnuplot -e "datadir='D'; outfile='OUT'; term='T'; styledir='plots'" SCRIPT: writes OUT
o=$(printf '%s\n' "$2" | sed -n "s/.*outfile='\([^']*\)'.*/\1/p")
[ -n "$o" ] && : >"$o"
EOF
chmod +x "$t/bin/gnuplot"
echo 'x' >"$s/d/results-ref/d_a.dat"
echo '# inputs: d_b1.dat d_b2.dat' >"$s/plots/d_b.gp"
echo 'x' >"$s/d/results-ref/d_b1.dat"; echo 'x' >"$s/d/results-ref/d_b2.dat"
echo '# inputs: d_c.dat' >"$s/plots/d_c.gp"
o=$(render PATH="$t/bin:$PATH"); rc=$?
[ $rc -eq 0 ] || cli_fail "render, DATA unset, one figure missing: exit $rc: $o"
[ -f "$s/plots/out/d_a.pdf" ] || cli_fail "render: the stand-in gnuplot wrote no plots/out/d_a.pdf"
printf '%s\n' "$o" | grep -qx 'rendered plots/out/d_a.pdf from d/results-ref/ (d/results/ lacks d_a.dat)' || cli_fail "render: d_a not from results-ref/ lacking d_a.dat: $o"
printf '%s\n' "$o" | grep -qx 'rendered plots/out/d_b.pdf from d/results-ref/ (d/results/ lacks d_b1.dat +1 more)' || cli_fail "render: d_b not lacking d_b1.dat +1 more: $o"
printf '%s\n' "$o" | grep -q '^MISSING data for plots/d_c.gp: ' || cli_fail "render: d_c not missing: $o"
o=$(render PATH="$t/bin:$PATH" STRICT=1); rc=$?
[ $rc -eq 1 ] || cli_fail "render STRICT=1 with one figure missing: exit $rc: $o"
rm -f "$s/plots/d_b.gp" "$s/plots/d_c.gp"
# a script without its '# inputs:' line is a failure (exit 1), the others are still rendered
echo 'plot x' >"$s/plots/d_noin.gp"
o=$(render PATH="$t/bin:$PATH"); rc=$?
[ $rc -eq 1 ] && printf '%s\n' "$o" | grep -qx "error: plots/d_noin.gp has no '# inputs:' line" &&
  printf '%s\n' "$o" | grep -q '^rendered plots/out/d_a.pdf' || cli_fail "render with a script lacking '# inputs:': exit $rc: $o"
rm -f "$s/plots/d_noin.gp"

# ---- tests/claims/check.sh: the default list of files, usage errors
s=$t/c
mkdir -p "$s/tests/claims" "$s/d/results-ref/run1" "$s/e"
cp "$top/tests/claims/check.sh" "$top/tests/claims/claims.awk" "$s/tests/claims/"
for f in README.md d/README.md d/NOTES.md d/results-ref/README.md d/results-ref/run1/README.md e/NOTES.md; do
  printf 'nothing measured here\n' >"$s/$f"
done
o=$(sh "$s/tests/claims/check.sh" --no-provenance 2>&1); rc=$?
[ $rc -eq 0 ] || cli_fail "check.sh on the scratch tree: exit $rc: $o"
for f in README.md d/README.md d/NOTES.md d/results-ref/README.md d/results-ref/run1/README.md e/NOTES.md; do
  printf '%s\n' "$o" | grep -q "^claims: $f: 0 numbers checked" || cli_fail "check.sh by default does not read $f: $o"
done
[ "$(printf '%s\n' "$o" | grep -c '^claims: ')" -eq 6 ] || cli_fail "check.sh read other files: $o"
o=$(sh "$s/tests/claims/check.sh" --bogus 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s\n' "$o" | grep -q "^error: unknown option '--bogus'" ||
  cli_fail "check.sh --bogus: exit $rc: $o"
o=$(sh "$s/tests/claims/check.sh" --no-provenance d/GONE.md 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$o" | wc -l)" -eq 1 ] && printf '%s\n' "$o" | grep -q '^error: d/GONE.md: no such README' ||
  cli_fail "check.sh with a missing README: exit $rc: $o"
o=$(sh "$s/tests/claims/check.sh" --root 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s\n' "$o" | grep -q '^error: --root needs a directory' || cli_fail "check.sh --root without a directory: exit $rc: $o"
cli_done
