#!/usr/bin/env bash
# The README claims checker (tests/claims/check.sh; syntax in common/README.md, "How to cite a
# measured number"), no GPU needed:
#   1. the repository passes: every annotated number of every README matches its data file,
#      every generated table is up to date, every results-ref file has a known, clean '# git:'
#      revision and a '# gpu:' line (or is on tests/claims/remeasure.txt);
#   2. mutation: the first claim line of each README, copied alone into a scratch README against
#      the same data, passes; with one digit of its first number changed it fails with
#      'README:line: claimed X, recomputed Y ...';
#   3. the forms on a small data file: value, ratio, range, min/max, percentages, bounds,
#      generated tables (stale -> fail, make readme-tables -> pass), unsupported markers
#      (fail, or warn when pending), malformed claims;
#   4. provenance on a scratch git repository: dirty, edited, unknown and missing revisions,
#      no gpu line, derived files, the re-measure list.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
chk=$top/tests/claims/check.sh
tmp=$cli_tmp

# ---- 1. the repository as committed passes
out=$(sh "$chk" 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^claims: .* 0 failed' | head -n 60
printf '%s\n' "$out" | grep '^claims: ' | sed 's/^/  /'
[ $rc -eq 0 ] || cli_fail "tests/claims/check.sh fails on the repository (exit $rc)"

# ---- 2. mutation of a real claim in each README
# mutate LINE: the line with the last digit before its first claim (inline '<!-- claim:' or a
# key '<!-- c:KEY -->') changed (+5 mod 10)
mutate() {
  awk '{ i = index($0, "<!-- claim:"); j = index($0, "<!-- c:"); if (!i || (j && j < i)) i = j
         pre = substr($0, 1, i - 1); post = substr($0, i)
         for (k = length(pre); k > 0; k--) if (substr(pre, k, 1) ~ /[0-9]/) break
         d = (substr(pre, k, 1) + 5) % 10
         print substr(pre, 1, k - 1) d substr(pre, k + 1) post }'
}
nreal=0
for r in README.md */README.md; do
  [ -f "$top/$r" ] || continue
  side=$top/${r%.md}.claims; [ -f "$side" ] || side=/dev/null
  # the first line whose first claim (inline, or through a key of the side file) is a value,
  # not a bound (<= / >=), on a line without unsupported markers; a keyed line is copied with
  # the side file's lines of the keys it uses
  line=$(awk 'FILENAME != ARGV[2] { if ($0 !~ /^[ \t]*(#|$)/) { k = $1; b = $0; sub(/^[ \t]*[^ \t]+[ \t]*/, "", b); K[k] = b }; next }
              /^[ \t]*(```|~~~)/ { f = !f; next }
              !f { s = $0; gsub(/`[^`]*`/, "", s)
                   i = index(s, "<!-- claim:"); j = index(s, "<!-- c:")
                   if (s ~ /unsupported:/) next
                   if (i && (!j || i < j)) { if (substr(s, i) ~ /^<!-- claim: *[^<> ]/) { print NR ":" $0; exit } ; next }
                   if (j) { k = substr(s, j + 7); sub(/[ ]*-->.*/, "", k)
                            if (K[k] ~ /^claim: *[^<> ]/) { print NR ":" $0; exit } } }' "$side" "$top/$r")
  [ -n "$line" ] || continue
  ln=${line%%:*}; text=${line#*:}
  mkdir -p "$tmp/real"
  printf '%s\n' "$text" >"$tmp/real/README.md"
  printf '%s\n' "$text" | grep -o '<!-- c:[^ ]* -->' | sed 's/<!-- c://; s/ -->//' | sort -u |
    while read -r k; do awk -v k="$k" '$1 == k' "$side"; done >"$tmp/real/README.claims"
  base=$top/$(dirname "$r")
  out=$(sh "$chk" --no-provenance --root "$tmp/real" --base "$base" README.md 2>&1) ||
    cli_fail "$r:$ln: the claim copied alone does not pass: $out"
  printf '%s\n' "$text" | mutate >"$tmp/real/README.md"
  out=$(sh "$chk" --no-provenance --root "$tmp/real" --base "$base" README.md 2>&1) && cli_fail "$r:$ln: a changed number still passes: $(cat "$tmp/real/README.md")"
  printf '%s\n' "$out" | grep -Eq '^README\.md:1: claimed [-0-9.–]+, recomputed [-0-9.–]+ \(' ||
    cli_fail "$r:$ln: the failure is not one clear 'README:line: claimed X, recomputed Y' line: $out"
  printf '  mutation of %s:%s -> %s\n' "$r" "$ln" "$(printf '%s\n' "$out" | grep -m1 'claimed' | cut -c1-160)"
  nreal=$((nreal + 1))
  rm -f "$tmp/real/README.claims"
done
[ $nreal -gt 0 ] || cli_fail "no README has a claim to mutate"

# ---- 3. the forms, on a small data file
mkdir -p "$tmp/s/d/results-ref"
cat >"$tmp/s/d/results-ref/t.dat" <<'EOF'
# program: test
# git: 0000000
# gpu: none (test data)
# ceiling_gbs: 4000.0 (a measured copy rate, bytes read + written)
n map median_ms min_ms max_ms speedup_x
1024 bb 2.000 1.990 2.040 1.0000
1024 lam 1.000 0.990 1.010 2.0000
2048 bb 8.000 7.900 8.100 1.0000
2048 lam 5.000 4.950 5.050 1.6000
4096 bb 32.00 31.00 33.00 1.0000
4096 lam 25.00 24.00 26.00 1.2800
4096 xx nan nan nan nan
EOF
# run BODY: the checker on a one-README scratch tree; prints its output, returns its status
run() { printf '%s\n' "$1" >"$tmp/s/d/README.md"; sh "$chk" --no-provenance --root "$tmp/s" d/README.md 2>&1; }
pass() { local o; o=$(run "$1") || cli_fail "should pass: '$1' -> $o"; }
fails() { # fails BODY REGEX: exit 1 and a line matching REGEX
  local o; o=$(run "$1") && cli_fail "should fail: '$1'"
  printf '%s\n' "$o" | grep -Eq -- "$2" || cli_fail "'$1': no line matching '$2' in: $o"
}
# --list: unannotated numbers that look measured, but not a paper's figure/table/equation numbers
o=$(printf '%s\n' 'Fig. 3.3 and Tables 4.1-4.2, eq. 2.13: 2.5x faster, 12.3 ms' >"$tmp/s/d/README.md"; sh "$chk" --list --no-provenance --root "$tmp/s" d/README.md 2>&1)
printf '%s\n' "$o" | grep -q ': unannotated 2\.5x' && printf '%s\n' "$o" | grep -q ': unannotated 12\.3 ms' ||
  cli_fail "--list misses a measured-looking number: $o"
printf '%s\n' "$o" | grep -Eq ': unannotated (3\.3|4\.1|4\.2|2\.13)' && cli_fail "--list counts a figure or table number as measured: $o"
printf 'error: rank 0: the GPU remesh needs 60.62 GiB of device memory, 51.27 GiB are free\n' >"$tmp/s/d/results-ref/refused.txt"
pass 'refused: `needs 60.62 GiB of device memory, 51.27 GiB are free` <!-- quote: refused.txt -->'
pass 'refused: `the GPU remesh needs 60.62 GiB` <!-- quote: results-ref/refused.txt -->'
fails 'refused: `needs 60.63 GiB of device memory` <!-- quote: refused.txt -->' '^d/README\.md:1: quoted `needs 60\.63 GiB of device memory`: not a line of d/results-ref/refused\.txt$'
fails 'refused: `needs 60.62 GiB` <!-- quote: gone.txt -->' 'quoted from gone\.txt: no such file'
fails 'refused: needs 60.62 GiB <!-- quote: refused.txt -->' 'quote with no `code span` right before it'
pass 'copy 4000 GB/s <!-- claim: t.dat #ceiling_gbs n=1024 map=bb -->, lam at 80 % <!-- claim: t.dat speedup_x*2000/#ceiling_gbs n=2048 map=lam pct --> of it'
fails 'copy 4100 GB/s <!-- claim: t.dat #ceiling_gbs n=1024 map=bb -->' 'claimed 4100, recomputed 4000'
fails 'copy 4000 GB/s <!-- claim: t.dat #copy_gbs n=1024 map=bb -->' "no metadata line '# copy_gbs: NUMBER' in"
fails 'git 0 <!-- claim: t.dat #gpu n=1024 map=bb -->' "no metadata line '# gpu: NUMBER'"
pass 'bb takes 8.0 ms <!-- claim: t.dat median_ms n=2048 map=bb -->.'
pass 'bb takes 8.00 ms <!-- claim: results-ref/t.dat median_ms n=2048 map=bb -->.'
fails 'bb takes 8.1 ms <!-- claim: t.dat median_ms n=2048 map=bb -->.' '^d/README\.md:1: claimed 8\.1, recomputed 8\.0 \(8\) from d/results-ref/t\.dat: t\.dat median_ms n=2048 map=bb$'
pass 'ratio **1.60×** <!-- claim: t.dat median_ms n=2048 map=bb / map=lam -->'
fails 'ratio 1.5x <!-- claim: t.dat median_ms n=2048 map=bb / map=lam -->' 'claimed 1\.5, recomputed 1\.6'
pass 'range 1.28–2.00 <!-- claim: range t.dat speedup_x map=lam -->'
pass 'range 1.3-2 <!-- claim: range t.dat speedup_x map=lam -->'
fails 'range 1.3–1.9 <!-- claim: range t.dat speedup_x map=lam -->' 'claimed 1\.3–1\.9, recomputed 1\.3–2\.0'
fails 'range 1.28–2.00 <!-- claim: t.dat speedup_x map=lam -->' 'from one value: use range|selects 3 rows'
pass 'ratio range 1.28-2.00 <!-- claim: range t.dat median_ms map=bb / map=lam by n -->'
fails 'ratio range 1.28-2.00 <!-- claim: range t.dat median_ms map=bb / map=lam -->' 'selects 3 rows.*by COL'
pass 'up to 2.0x <!-- claim: max t.dat speedup_x map=lam -->, at least 1.3x <!-- claim: min t.dat speedup_x map=lam n<=4096 -->'
pass 'from n = 2048: 1.28–1.60 <!-- claim: range t.dat speedup_x map=lam n>=2048 -->, not bb 1.6 <!-- claim: t.dat speedup_x n=2048 map!=bb -->'
pass 'at the largest n: 1.28 <!-- claim: t.dat speedup_x map=lam n=max -->, smallest 2.0 <!-- claim: t.dat speedup_x map=lam n=min -->'
sed 's/^2048 lam 5.000/2048 lam 4.000/' "$tmp/s/d/results-ref/t.dat" >"$tmp/s/d/results-ref/t2.dat"
pass 'two runs: 1.6-2.0 <!-- claim: range t{,2}.dat median_ms n=2048 map=bb / map=lam -->'
fails 'two runs: 1.6-2.0 <!-- claim: range t{,2}.dat median_ms n=2048 map=bb / t.dat map=lam -->' 'claimed 1\.6-2\.0|claimed 1\.6–2\.0, recomputed 1\.6–1\.6'
pass 'glob: 1.28–2.00 <!-- claim: range t.dat speedup_x map=l* -->, per n the fastest: 1.00–25.00 <!-- claim: range t.dat median_ms map!=xx median_ms=min by n -->'
pass 'largest n, then fastest: 25.0 <!-- claim: t.dat median_ms n=max median_ms=min map!=xx -->'
fails 'fastest, then largest n: 25.0 <!-- claim: t.dat median_ms median_ms=min n=max map!=xx -->' 'claimed 25.0, recomputed 1.0'
pass 'lam takes 62.5 % <!-- claim: t.dat median_ms n=2048 map=lam / map=bb pct -->, 60 % faster <!-- claim: t.dat median_ms n=2048 map=bb / map=lam pctdiff -->, −37.5 % <!-- claim: t.dat median_ms n=2048 map=lam / map=bb pctdiff -->'
fails 'lam is 37 % faster <!-- claim: t.dat median_ms n=2048 map=lam / map=bb pctdiff -->' 'claimed 37, recomputed -38'
pass 'spread within 8 % <!-- claim: <= max t.dat (max_ms-min_ms)/median_ms pct map!=xx -->'
fails 'spread within 3 % <!-- claim: <= max t.dat (max_ms-min_ms)/median_ms pct map!=xx -->' 'claimed <= 3, recomputed 8'
pass 'difference 7 <!-- claim: t.dat median_ms n=4096 map=bb - map=lam -->, 7.0 <!-- claim: t.dat median_ms n=4096 map=lam - map=bb abs -->'
fails 'nan 1.0 <!-- claim: t.dat median_ms n=4096 map=xx -->' "is 'nan', not a number"
fails 'no such column 1.0 <!-- claim: t.dat gbs n=4096 map=bb -->' "no column 'gbs'"
fails 'no such file 1.0 <!-- claim: u.dat gbs n=4096 map=bb -->' 'no data file'
fails 'no row 1.0 <!-- claim: t.dat median_ms n=512 map=bb -->' 'no row of the data matches'
fails 'no number <!-- claim: t.dat median_ms n=2048 map=bb -->' 'claim with no number before it'
# markers: paper values, unsupported claims (a failure unless pending)
pass 'the paper says 1.18 <!-- paper -->'
fails 'gpumaps took 1.48 ms <!-- unsupported: peers -->' "unsupported claim 'peers': no committed data"
mkdir -p "$tmp/s/tests/claims"
echo 'd/README.md peers  the raw output of the peer run' >"$tmp/s/tests/claims/pending.txt"
o=$(run 'gpumaps took 1.48 ms <!-- unsupported: peers -->') || cli_fail "a pending unsupported claim fails: $o"
printf '%s\n' "$o" | grep -q "warning: unsupported claim 'peers' (pending" || cli_fail "a pending claim gives no warning: $o"
o=$(run $'<!-- begin unsupported: peers -->\n| 1.48 | 0.82 |\n<!-- end unsupported -->') || cli_fail "a pending block fails: $o"
printf '%s\n' "$o" | grep -q '2 numbers under 1 unsupported markers' || cli_fail "the block's numbers are not counted: $o"
printf 'nothing here\n' >"$tmp/s/d/README.md"
o=$(cd "$tmp/s" && sh "$chk" --no-provenance --root "$tmp/s" 2>&1) || true
printf '%s\n' "$o" | grep -q "pending.txt: warning: 'd/README.md peers' is listed but no README marks it" || cli_fail "a stale pending entry gives no warning: $o"
rm -f "$tmp/s/tests/claims/pending.txt"
# generated tables
tbl=$'<!-- table: t.dat\n| n | bb | lam |\n|---|---|---|\nfor n=1024,2048,4096\n| {n} | {median_ms map=bb %.1f} | {median_ms map=lam %.2f} ({speedup_x map=lam %.2f}) |\n-->\n'
pass "${tbl}| n | bb | lam |
|---|---|---|
| 1024 | 2.0 | 1.00 (2.00) |
| 2048 | 8.0 | 5.00 (1.60) |
| 4096 | 32.0 | 25.00 (1.28) |
<!-- end table -->"
fails "${tbl}| n | bb | lam |
|---|---|---|
| 1024 | 2.0 | 1.00 (2.00) |
| 2048 | 8.0 | 5.00 (1.70) |
| 4096 | 32.0 | 25.00 (1.28) |
<!-- end table -->" "^d/README\.md:1: generated table out of date \(make readme-tables\): README has '\| 2048 \| 8\.0 \| 5\.00 \(1\.70\) \|', the data give '\| 2048 \| 8\.0 \| 5\.00 \(1\.60\) \|'"
printf '%s\n' "${tbl}<!-- end table -->" >"$tmp/s/d/README.md"
sh "$chk" --tables --no-provenance --root "$tmp/s" d/README.md >/dev/null 2>&1 || cli_fail "--tables does not write a fresh table"
sh "$chk" --no-provenance --root "$tmp/s" d/README.md >/dev/null 2>&1 || cli_fail "the table --tables wrote does not pass"
grep -qx '| 4096 | 32.0 | 25.00 (1.28) |' "$tmp/s/d/README.md" || cli_fail "--tables wrote: $(cat "$tmp/s/d/README.md")"
pass $'<!-- table: t.dat\nfor n=512,1024\n| {n} | {median_ms map=bb %.1f ?not run} |\n-->\n| 512 | not run |\n| 1024 | 2.0 |\n<!-- end table -->'
fails $'<!-- table: t.dat\n| a |\n-->\n| a |' "has no '<!-- end table -->'"
# keys: <!-- c:KEY --> resolved in the side file d/README.claims
keys() { printf '%s\n' "$@" >"$tmp/s/d/README.claims"; }
keys '# keys of d/README.md' 'bb8 claim: t.dat median_ms n=2048 map=bb' 'ratio  claim: t.dat median_ms n=2048 map=bb / map=lam'
pass 'bb takes 8.0 ms <!-- c:bb8 -->, lam is 1.60x <!-- c:ratio --> faster'
fails 'bb takes 8.1 ms <!-- c:bb8 -->, lam is 1.60x <!-- c:ratio --> faster' '^d/README\.md:1: claimed 8\.1, recomputed 8\.0 .*\[key bb8, d/README\.claims:2\]$'
fails 'bb takes 8.0 ms <!-- c:bb8 -->' "^d/README\.claims:3: key 'ratio' is used by no <!-- c:ratio --> of d/README\.md"
fails 'bb takes 8.0 ms <!-- c:bb9 -->, lam is 1.60x <!-- c:ratio -->' "^d/README\.md:1: unknown key 'bb9': not defined in d/README\.claims$"
keys 'bb8 claim: t.dat median_ms n=2048 map=bb' 'bb8 claim: t.dat median_ms n=2048 map=lam'
fails 'bb takes 8.0 ms <!-- c:bb8 -->' "^d/README\.claims:2: key 'bb8' defined twice \(first at line 1\)$"
keys 'bb8' 'b@d claim: t.dat median_ms n=2048 map=bb'
fails 'bb takes 8.0 ms <!-- c:bb8 -->' "^d/README\.claims:1: key 'bb8' has no body"
fails 'bb takes 8.0 ms <!-- c:bb8 -->' "^d/README\.claims:2: bad key 'b@d'"
keys 'paperval paper'
pass 'the paper: 1.15 <!-- c:paperval -->'
rm -f "$tmp/s/d/README.claims"
# a claim whose sentence (or table row) names a GPU must cite data measured on it
mkdir -p "$tmp/s/d/results-ref/h100"
sed 's/^# gpu: .*/# gpu: NVIDIA H100 80GB HBM3 (sm_90)/' "$tmp/s/d/results-ref/t.dat" >"$tmp/s/d/results-ref/h100/t.dat"
sed 's/^# gpu: .*/# gpu: NVIDIA H200 (sm_90)/' "$tmp/s/d/results-ref/t.dat" >"$tmp/s/d/results-ref/h200.dat"
pass 'On the H100, bb takes 8.0 ms <!-- claim: h100/t.dat median_ms n=2048 map=bb -->.'
pass 'bb takes 8.0 ms <!-- claim: h100/t.dat median_ms n=2048 map=bb --> on an H100.'
pass 'bb takes 8.0 ms <!-- claim: h200.dat median_ms n=2048 map=bb --> (H100: 8.0 <!-- claim: h100/t.dat median_ms n=2048 map=bb -->).'
pass 'bb takes 8.0 ms <!-- claim: h100/t.dat median_ms n=2048 map=bb -->.'
fails 'On the H200, bb takes 8.0 ms <!-- claim: h100/t.dat median_ms n=2048 map=bb -->.' '^d/README\.md:1: the text names H200 but d/results-ref/h100/t\.dat was measured on H100 \(its # gpu: line\)$'
fails 'bb takes 8.0 ms <!-- claim: h100/t.dat median_ms n=2048 map=bb --> on the H200.' 'names H200 but d/results-ref/h100/t\.dat was measured on H100'
fails '| H200 | 8.0 <!-- claim: h200.dat median_ms n=2048 map=bb --> | 8.0 <!-- claim: h100/t.dat median_ms n=2048 map=bb --> |' 'names H200 but d/results-ref/h100/t\.dat'
fails 'H200: lam is 1.60x <!-- claim: h200.dat median_ms n=2048 map=bb / h100/t.dat map=lam --> faster.' 'names H200 but d/results-ref/h100/t\.dat'
# GH200 is not H200: a model named inside another one's name does not count
sed 's/^# gpu: .*/# gpu: NVIDIA GH200 480GB (sm_90)/' "$tmp/s/d/results-ref/t.dat" >"$tmp/s/d/results-ref/gh200.dat"
fails 'On the GH200, bb takes 8.0 ms <!-- claim: h200.dat median_ms n=2048 map=bb -->.' 'names GH200 but d/results-ref/h200\.dat was measured on H200'
pass 'On the GH200, bb takes 8.0 ms <!-- claim: gh200.dat median_ms n=2048 map=bb -->.'
# the context is the claim's own sentence: a GPU named in the sentence before it does not count
pass 'The H100 runs are in NOTES. Here bb takes 8.0 ms <!-- claim: h200.dat median_ms n=2048 map=bb -->.'
pass 'The H100 runs are elsewhere; bb takes 8.0 ms <!-- claim: h200.dat median_ms n=2048 map=bb -->.'
# a range written 'a to b'
pass 'range 1.28 to 2.00 <!-- claim: range t.dat speedup_x map=lam -->'
fails 'range 1.28 to 1.90 <!-- claim: range t.dat speedup_x map=lam -->' 'claimed 1\.28–1\.90, recomputed 1\.28–2\.00'
# a value claim that selects two rows (not only three) is refused
fails 'lam 1.6 <!-- claim: t.dat speedup_x map=lam n>=2048 -->' 'selects 2 rows of t\.dat \(one is needed'
# a column expression with a token left over is refused, not read up to it
fails 'bb 8.0 <!-- claim: t.dat (median_ms)) n=2048 map=bb -->' "unexpected '\)' in column expression"
# a second term's file without a column that the first term's conditions name: those
# conditions are dropped there (o.dat has no 'map')
printf '# gpu: none (test)\nn ref_ms\n2048 4.0\n4096 16.0\n' >"$tmp/s/d/results-ref/o.dat"
pass 'bb is 2.0x the reference <!-- claim: t.dat median_ms n=2048 map=bb / o.dat ref_ms -->'
# a generated table: a README table with a line fewer than the data give is out of date
fails "${tbl}| n | bb | lam |
|---|---|---|
| 1024 | 2.0 | 1.00 (2.00) |
| 2048 | 8.0 | 5.00 (1.60) |
<!-- end table -->" "generated table out of date \(make readme-tables\): README lacks a line, the data give '\| 4096 \| 32\.0 \| 25\.00 \(1\.28\) \|'"
# code blocks are not prose and not claims
pass $'```\nx 1.5 <!-- claim: t.dat median_ms n=1 -->\n```'

# R13-r4: behaviours each planted bug of that round changed without a test noticing
# extremes and number comparisons skip a row whose value is not a number ('-': a run left out)
printf '# gpu: none (test)\nn map median_ms\n1024 bb 2.0\n1024 lam -\n2048 bb 8.0\n2048 lam 5.0\n' >"$tmp/s/d/results-ref/u.dat"
pass 'fastest at 1024: 2.0 ms <!-- claim: u.dat median_ms n=1024 median_ms=min -->'
pass 'the one run under 3 ms: 2.0 <!-- claim: u.dat median_ms median_ms<3 -->'
# a unary minus in a column expression: how far the fastest sample is under the median
pass 'the fastest sample is 3.1 % under the median <!-- claim: t.dat -(min_ms-median_ms)/median_ms pct n=4096 map=bb -->'
fails 'the fastest sample is 3.1 % over the median <!-- claim: t.dat (min_ms-median_ms)/median_ms pct n=4096 map=bb -->' 'claimed 3\.1, recomputed -3\.1'
# a bound over every selected row: '<= range' holds for the largest, '>= range' for the smallest
pass 'every run under 33 ms <!-- claim: <= range t.dat max_ms map!=xx -->, over 0.9 ms <!-- claim: >= range t.dat min_ms map!=xx -->'
fails 'every run under 30 ms <!-- claim: <= range t.dat max_ms map!=xx -->' '^d/README\.md:1: claimed <= 30, recomputed 33 '
fails 'every run over 2 ms <!-- claim: >= range t.dat min_ms map!=xx -->' '^d/README\.md:1: claimed >= 2, recomputed 1 '
# a ?fallback belongs in a table cell, not in a claim (it would hide a claim that selects no row)
fails 'bb 8.0 <!-- claim: t.dat median_ms n=2048 map=bb ?none -->' 'a format or \?fallback belongs in a table, not in a claim'
# a model name inside a chip's name (GH100: the H100's and H200's die) names no GPU
pass 'A GH100 chip runs bb in 8.0 ms <!-- claim: h200.dat median_ms n=2048 map=bb -->.'
# a range cell of a generated table: smallest–largest
pass $'<!-- table: t.dat\n| lam | {range speedup_x map=lam %.2f} |\n-->\n| lam | 1.28–2.00 |\n<!-- end table -->'
# a 'begin unsupported' block must be closed
fails $'<!-- begin unsupported: peers -->\n| 1.48 | 0.82 |' "^d/README\\.md:1: 'begin unsupported: peers' has no 'end unsupported'"

# ---- 4. provenance, on a scratch git repository
g=$tmp/g
mkdir -p "$g/p/results-ref/sub"
git -C "$g" init -q 2>/dev/null || { echo "SKIP: no git"; cli_done; }
echo x >"$g/f"; git -C "$g" add f
git -C "$g" -c user.name=t -c user.email=t@t commit -q -m one
rev=$(git -C "$g" rev-parse --short HEAD)
mk() { printf '# program: p\n%s\nn v\n1 2\n' "$2" >"$g/p/results-ref/$1"; }
mk good.dat "# git: $rev
# gpu: NVIDIA H100"
mk host.dat "# git: $rev
# gpu: none (host-only)"
mk dirty.dat "# git: $rev-dirty
# gpu: NVIDIA H100"
mk edited.dat "# git: $rev (built from $rev by hand)
# gpu: NVIDIA H100"
mk unknown.dat "# git: 1234567
# gpu: NVIDIA H100"
mk nogit.dat "# gpu: none"
mk nogpu.dat "# git: $rev"
mk sub/derived_ok.dat "# gpu: NVIDIA H100
# derived: by p/spread.sh from 2 runs: results-ref/good.dat results-ref/host.dat"
mk sub/derived_bad.dat "# gpu: NVIDIA H100
# derived: by p/spread.sh from 2 runs: results-ref/good.dat results-ref/dirty.dat"
mk sub/derived_dirty.dat "# git: $rev-dirty
# gpu: NVIDIA H100
# derived: by p/spread.sh from 2 runs: results-ref/good.dat results-ref/host.dat"
# measured on a side branch at S, committed on the main line at C before S was merged: S is
# in the history of HEAD but not an ancestor of C
gc() { git -C "$g" -c user.name=t -c user.email=t@t "$@"; }
gc checkout -q -b side && echo s >"$g/s" && gc add s && gc commit -q -m side
srev=$(git -C "$g" rev-parse --short HEAD)
gc checkout -q - && mk late.dat "# git: $srev
# gpu: NVIDIA H100" && gc add p/results-ref/late.dat && gc commit -q -m data
gc merge -q --no-edit side >/dev/null
echo '# a README' >"$g/README.md"
o=$(sh "$chk" --root "$g" 2>&1) && cli_fail "provenance: bad files pass"
for want in 'p/results-ref/dirty.dat: measured from a tree with uncommitted changes' \
            'p/results-ref/edited.dat: "# git: [0-9a-f]+ \(built from' \
            'p/results-ref/unknown.dat: revision 1234567 is not in the history of HEAD' \
            'p/results-ref/nogit.dat: no "# git:" line' \
            'p/results-ref/nogpu.dat: no "# gpu:" line' \
            'p/results-ref/sub/derived_bad.dat: derived from p/results-ref/dirty.dat: measured from a tree' \
            'p/results-ref/sub/derived_dirty.dat: measured from a tree with uncommitted changes' \
            "p/results-ref/late.dat: revision $srev is not an ancestor of [0-9a-f]{12}, the commit that added the file" \
            '11 data files, 3 pass, 8 failed, 0 listed'; do
  printf '%s\n' "$o" | grep -Eq -- "$want" || cli_fail "provenance: no line matching '$want' in: $o"
done
printf '%s\n' "$o" | grep -Eq 'good.dat|host.dat|derived_ok.dat' && cli_fail "provenance: a good file is reported: $o"
mkdir -p "$g/tests/claims"
printf '%s\n' '# the list' 'p/results-ref/dirty.dat  measured dirty; re-measure' 'p/results-ref/edited.dat edited' \
  'p/results-ref/unknown.dat x' 'p/results-ref/nogit.dat x' 'p/results-ref/nogpu.dat x' 'p/results-ref/sub/derived_bad.dat x' \
  'p/results-ref/late.dat x' 'p/results-ref/sub/derived_dirty.dat x' 'p/results-ref/good.dat fixed meanwhile' >"$g/tests/claims/remeasure.txt"
o=$(sh "$chk" --root "$g" 2>&1) || cli_fail "provenance: listed files still fail: $o"
printf '%s\n' "$o" | grep -q 'warning: p/results-ref/dirty.dat: measured from a tree with uncommitted changes .* \[remeasure.txt: measured dirty; re-measure\]' ||
  cli_fail "provenance: a listed file is not a warning with its reason: $o"
printf '%s\n' "$o" | grep -q 'warning: p/results-ref/good.dat passes now: remove it' || cli_fail "provenance: a stale list entry is not reported: $o"
# the revision of a file is its first '# git:' line (the one its program wrote): a later one
# (a header copied from a source) does not replace it
mk twogit.dat "# git: $rev-dirty
# gpu: NVIDIA H100
# git: $rev"
o=$(sh "$chk" --root "$g" 2>&1) && cli_fail "provenance: a dirty file with a second, clean '# git:' line passes: $o"
printf '%s\n' "$o" | grep -q 'provenance: p/results-ref/twogit.dat: measured from a tree with uncommitted changes' ||
  cli_fail "provenance: no failure for the first, dirty '# git:' line: $o"
cli_done
