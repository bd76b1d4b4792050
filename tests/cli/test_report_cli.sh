#!/usr/bin/env bash
# The results page (make report -> plots/report.sh -> plots/out/index.html), no GPU needed:
#   1. on a scratch tree: a good figure table gives a page whose image, data and script links
#      resolve; a missing image, a missing data file, a script on no table, a wrong header,
#      a row of 6 cells and a README without a table each fail with their line, and no page
#      is written;
#   2. on the repository: every directory README has a figure table, `make report` writes the
#      page from results-ref/, every <img> and relative <a href> on it resolves, and every
#      plots/<dir>_*.gp script appears on it.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$cli_tmp

# links FILE: every relative src= and href= of the page, resolved from its folder, must exist
links() {
  local page=$1 dir n=0 u
  dir=$(dirname "$page")
  for u in $(grep -o -E '(src|href)="[^"#]*"' "$page" | sed -E 's/^(src|href)="//; s/"$//' | grep -v -E '^(https?:|/)' | sort -u); do
    [ -e "$dir/$u" ] || cli_fail "report: link '$u' on $page does not resolve"
    n=$((n + 1))
  done
  [ $n -gt 0 ] || cli_fail "report: $page has no link at all"
}

# ---- 1. a scratch tree
s=$tmp/s
mkdir -p "$s/plots/out" "$s/d/results-ref"
cp "$top/plots/report.sh" "$s/plots/"
: >"$s/d/Makefile"; : >"$s/d/NOTES.md"
printf '# program: t\n# git: 0000000\n# gpu: none\nn v\n1 2\n' >"$s/d/results-ref/d_fig1.dat"
cp "$s/d/results-ref/d_fig1.dat" "$s/d/results-ref/d_tab1.dat"
echo '# inputs: d_fig1.dat' >"$s/plots/d_fig1.gp"
echo 'png' >"$s/plots/out/d_fig1.png"
good='# d -- a test directory

<!-- figures -->
| paper item | what it shows | command | data | plot | paper | ours |
|---|---|---|---|---|---|---|
| Fig. 1 | a & b < c | `make -C d results/d_fig1.dat` | `d_fig1.dat` | `d_fig1.gp` | 1.5 <!-- paper --> | **2.0** <!-- c:x --> |
| Table 1 | a table | `make -C d results/d_tab1.dat` | `d_{fig1,tab1}.dat` | — | — | see [the notes](NOTES.md) |
<!-- end figures -->'
readme() { printf '%s\n' "$1" >"$s/d/README.md"; }
report() { rm -f "$s/plots/out/index.html"; (cd "$s" && bash plots/report.sh) 2>&1; }
refused() { # refused WHAT REGEX: report.sh exits 1 with a line matching REGEX and writes no page
  local o rc; o=$(report); rc=$?
  [ $rc -eq 1 ] || cli_fail "report ($1): exit $rc, want 1: $o"
  printf '%s\n' "$o" | grep -Eq -- "$2" || cli_fail "report ($1): no line matching '$2' in: $o"
  [ -e "$s/plots/out/index.html" ] && cli_fail "report ($1): a page was written"
  return 0
}
readme "$good"
o=$(report) || cli_fail "report on a good table fails: $o"
page=$s/plots/out/index.html
if [ -f "$page" ]; then
  links "$page"
  grep -q '<img src="d_fig1.png"' "$page" || cli_fail "report: no image of d_fig1.gp"
  grep -q 'href="../../d/results-ref/d_tab1.dat"' "$page" || cli_fail "report: {a,b} data not expanded"
  grep -q 'a &amp; b &lt; c' "$page" || cli_fail "report: text not escaped"
  grep -q '<b>2.0</b>' "$page" || cli_fail "report: bold not rendered"
  grep -q -- '<!--' "$page" && cli_fail "report: an annotation left on the page"
  grep -q -i '<script' "$page" && cli_fail "report: the page has a script"
  grep -q 'href="../../d/NOTES.md"' "$page" || cli_fail "report: a README link is not rewritten from plots/out/"
fi
rm "$s/plots/out/d_fig1.png"
refused "missing image" '^report: d/README\.md:6: missing image plots/out/d_fig1\.png'
echo png >"$s/plots/out/d_fig1.png"
rm "$s/d/results-ref/d_tab1.dat"
refused "missing data" 'data file d/results-ref/d_tab1\.dat not found'
cp "$s/d/results-ref/d_fig1.dat" "$s/d/results-ref/d_tab1.dat"
echo '# inputs: d_fig1.dat' >"$s/plots/d_other.gp"
refused "script on no table" '^report: plots/d_other\.gp is on no README figure table$'
rm "$s/plots/d_other.gp"
readme "${good/| plot | paper |/| plot script | paper |}"
refused "wrong header" 'header must be'
readme "${good/| \`d_fig1.gp\` | 1.5/| 1.5}"
refused "6 cells" 'needs 7 cells, this one has 6'
readme "${good/\`d_fig1.gp\`/\`d_gone.gp\`}"
refused "missing script" 'plot script plots/d_gone\.gp not found'
readme '# d -- no table'
refused "no table" '^report: d/README\.md: no figure table'
# a row of 8 cells (a '|' too many) is refused as one of 6 is; a data cell with no file too
readme "${good/| 1.5 <!-- paper -->/| 1.5 <!-- paper --> | x}"
refused "8 cells" 'needs 7 cells, this one has 8'
pat='| `d_{fig1,tab1}.dat` |'
readme "${good/"$pat"/| — |}"
refused "no data file" '^report: d/README\.md:7: no data file in the data cell'
# a README without a figure table is reported when another README follows it, not only the last
mkdir -p "$s/c"; : >"$s/c/Makefile"; printf '# c -- no table\n' >"$s/c/README.md"
readme "$good"
refused "no table, not the last README" '^report: c/README\.md: no figure table'
rm -r "$s/c"
readme "$good"
o=$(report) || cli_fail "report on the good table again fails: $o"

# ---- 2. the repository
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not installed (the repository's page needs its PNGs)"; cli_done; exit 77; }
o=$(cd "$top" && make -s report 2>&1) || cli_fail "make report fails: $(printf '%s\n' "$o" | tail -n 20)"
printf '%s\n' "$o" | tail -n 1
page=$top/plots/out/index.html
if [ -f "$page" ]; then
  links "$page"
  for gp in "$top"/plots/*_*.gp; do
    g=$(basename "$gp"); png=${g%.gp}.png
    grep -q "<img src=\"$png\"" "$page" || cli_fail "report: $g has no image on the page"
    grep -q "href=\"../$g\"" "$page" || cli_fail "report: $g is not linked on the page"
  done
  for r in "$top"/*/README.md; do
    d=$(basename "$(dirname "$r")"); [ -f "$top/$d/Makefile" ] && [ "$d" != tests ] || continue
    grep -q "<h2 id=\"$d\">" "$page" || cli_fail "report: no section for $d"
  done
else
  cli_fail "make report wrote no $page"
fi
cli_done
