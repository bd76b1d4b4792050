#!/usr/bin/env bash
# common/peers_ncu.awk (the raw ncu CSVs of a run that timed ours and the authors' gpumaps with one
# method, as one data file) and the committed runs it made, no GPU needed:
#   1. a tiny fabricated run gives the table worked out by hand below (medians of odd and even
#      counts, the first iteration dropped, processes in number order, a two-kernel iteration
#      summed, a 'us' value, another metric and ncu's own lines not read; values with a decimal part);
#   2. each committed .dat under */results-ref/peers/ncu_*/ is exactly what the script makes of
#      the header.txt and the CSVs beside it (so no value of it was typed by hand), and its 'all'
#      rows agree with the run's own summary.txt (4 decimals, computed on the GPU host by another
#      script) and with the number of CSVs and launches;
#   3. bad input: one error line on stderr, exit 2, nothing on stdout (a side word with no CMP
#      before it among them).
# PEERS_NCU_AWK names another copy of the script (to check that this test catches a planted bug).
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
awkp=${PEERS_NCU_AWK:-common/peers_ncu.awk}

# ---- 1. a fabricated run, worked out by hand
t=$cli_tmp/run; mkdir -p "$t"
printf '%s\n' '# a header' 'date: 2000-01-01T00:00:00Z' 'gpu: NVIDIA X1, 1.0, 10 MiB' \
  'ours: git abc1234 (built by hand)' 'gpumaps: example commit 0123' 'ncu: Version 0' >"$t/header.txt"
hdr='"ID","Process ID","Process Name","Kernel Name","Metric Name","Metric Unit","Metric Value"'
row() { printf '"%s","%s","p","%s","%s","%s","%s"\n' "$@"; }   # ID PID KERNEL METRIC UNIT VALUE
{ echo '==PROF== Connected to process 7'; echo "$hdr"
  row 0 7 'k(int, int)' gpu__time_duration.sum ns '9,000,000'   # dropped
  row 1 7 'k(int, int)' gpu__time_duration.sum ns '1,000,000'
  row 1 7 'k(int, int)' other__metric ns '5'                    # not read
  row 2 7 'k(int, int)' gpu__time_duration.sum ns '3,000,000'
  row 3 7 'k(int, int)' gpu__time_duration.sum ns '2,000,000'
  echo '==PROF== Disconnected from process 7'; } >"$t/t-ours.p1.csv"
{ echo "$hdr"
  row 0 8 'k(int, int)' gpu__time_duration.sum ns '5,000,000'   # dropped
  row 1 8 'k(int, int)' gpu__time_duration.sum ns '4,000,000'
  row 2 8 'k(int, int)' gpu__time_duration.sum ns '6,000,000'; } >"$t/t-ours.p2.csv"
{ echo "$hdr"
  row 0 9 'A(int)' gpu__time_duration.sum ns '1,000,000'         # first iteration, dropped
  row 1 9 'B(int)' gpu__time_duration.sum ns '500,000'
  row 2 9 'A(int)' gpu__time_duration.sum ns '2,000,000'         # 2 + 1 = 3 ms
  row 3 9 'B(int)' gpu__time_duration.sum ns '1,000,000'
  row 4 9 'A(int)' gpu__time_duration.sum ns '1,500,000'         # 1.5 + 0.25 = 1.75 ms
  row 5 9 'B(int)' gpu__time_duration.sum us '250'; } >"$t/t-gpumaps-v-w.p1.csv"
# ours p1 kept 1, 3, 2 ms: median 2; p2 kept 4, 6: median 5 (mean of the middle two);
# all five: 1 2 3 4 6 -> median 3; gpumaps v-w: iterations 3 and 1.75 -> median 2.375
want='cmp side variant process launches kernels median_ms min_ms max_ms
t ours - 1 3 1 2.0000000 1.0000000 3.0000000
t ours - 2 2 1 5.0000000 4.0000000 6.0000000
t ours - all 5 1 3.0000000 1.0000000 6.0000000
t gpumaps v-w 1 2 2 2.3750000 1.7500000 3.0000000
t gpumaps v-w all 2 2 2.3750000 1.7500000 3.0000000'
out=$(expect 0 awk -f "$awkp" "$t/header.txt" "$t/t-ours.p2.csv" "$t/t-ours.p1.csv" "$t/t-gpumaps-v-w.p1.csv")
got=$(printf '%s\n' "$out" | grep -v '^#')
[ "$got" = "$want" ] || { cli_fail "the fabricated run's table differs from the hand-computed one"; diff <(echo "$want") <(echo "$got") | head -n 8; }
for l in '# git: abc1234' '# gpu: NVIDIA X1, 1.0, 10 MiB' '# date: 2000-01-01T00:00:00Z' '# gpumaps: example commit 0123' \
         '# derived: by common/peers_ncu.awk from the run'"'"'s header and raw ncu CSVs, in this folder: header.txt t-ours.p2.csv t-ours.p1.csv t-gpumaps-v-w.p1.csv'; do
  printf '%s\n' "$out" | grep -qxF "$l" || cli_fail "the fabricated run: no line '$l'"
done
# values with a decimal part ('812.5', '1,262,208.5' ns: ncu prints them so for short kernels)
{ echo "$hdr"
  row 0 7 'k(int)' gpu__time_duration.sum ns '7,000'               # dropped
  row 1 7 'k(int)' gpu__time_duration.sum ns '1,262,208.5'
  row 2 7 'k(int)' gpu__time_duration.sum ns '812.5'; } >"$t/d-ours.p1.csv"
want='cmp side variant process launches kernels median_ms min_ms max_ms
d ours - 1 2 1 0.6315105 0.0008125 1.2622085
d ours - all 2 1 0.6315105 0.0008125 1.2622085'
got=$(expect 0 awk -f "$awkp" "$t/header.txt" "$t/d-ours.p1.csv" | grep -v '^#')
[ "$got" = "$want" ] || { cli_fail "decimal ns values: not the hand-computed table"; diff <(echo "$want") <(echo "$got") | head -n 6; }

# ---- 2. the committed runs
n=0
for dat in */results-ref/peers/ncu_*/*_peers_ncu.dat; do
  [ -f "$dat" ] || continue
  d=$(dirname "$dat"); n=$((n + 1))
  expect 0 awk -f "$awkp" "$d/header.txt" "$d"/*.csv >"$cli_tmp/out.dat"
  cmp -s "$cli_tmp/out.dat" "$dat" || { cli_fail "$dat differs from 'awk -f $awkp $d/header.txt $d/*.csv'"; diff "$cli_tmp/out.dat" "$dat" | head -n 6; }
  ncsv=$(ls "$d"/*.csv | wc -l)
  [ "$(grep -cE '^[^#].* [0-9]+ [0-9]+ [0-9]+ [0-9.]+ [0-9.]+ [0-9.]+$' "$dat")" -eq "$ncsv" ] || cli_fail "$dat: not one row per CSV ($ncsv)"
  # every process row: launches = the CSV's time rows / kernels - 1
  while read -r c s v p l k _; do
    f=$d/$c-$s; [ "$v" = - ] || f=$f-$v
    rows=$(grep -c '"gpu__time_duration.sum"' "$f.p$p.csv")
    [ "$l" -eq $((rows / k - 1)) ] || cli_fail "$dat: $c $s $v p$p keeps $l launches of $rows"
  done < <(grep -E '^[^#]' "$dat" | awk 'NR > 1 && $4 != "all"')
  # the 'all' rows against the run's own summary (key, median, min, max to 4 decimals)
  while read -r c s v _ _ _ med lo hi; do
    key=$c-$s; [ "$v" = - ] || key=$key-$v
    line=$(grep -E "^$key +$s +median " "$d/summary.txt")
    [ -n "$line" ] || { cli_fail "$d/summary.txt has no line for $key"; continue; }
    mine=$(printf 'median %.4f min %.4f max %.4f' "$med" "$lo" "$hi")
    printf '%s\n' "$line" | grep -qF "$mine" || cli_fail "$dat: $key '$mine', summary.txt says '$line'"
  done < <(grep -E '^[^#]' "$dat" | awk '$4 == "all"')
  grep -q '^# gpu: NVIDIA H200' "$dat" || cli_fail "$dat: not an H200 run"
done
[ "$n" -ge 3 ] || cli_fail "only $n committed ncu runs found (simplex2d, simplex3d and fractals)"

# ---- 3. bad input
refused() { # NAME ERE FILE... : exit 2, one line 'error: ...ERE' on stderr, nothing on stdout
  local name=$1 re=$2 rc; shift 2
  awk -f "$awkp" "$@" >"$cli_tmp/r.out" 2>"$cli_tmp/r.err"; rc=$?
  [ $rc -eq 2 ] || cli_fail "$name -> exit $rc, want 2"
  [ ! -s "$cli_tmp/r.out" ] || cli_fail "$name: something on stdout"
  [ "$(wc -l <"$cli_tmp/r.err")" -eq 1 ] && grep -Eq "^error: .*$re" "$cli_tmp/r.err" || cli_fail "$name: not one line 'error: ...$re': $(cat "$cli_tmp/r.err")"
}
b=$cli_tmp/bad; mkdir -p "$b"
csv() { { echo "$hdr"; cat; } >"$b/$1"; }                        # NAME < rows
good() { row 0 7 'k(int)' gpu__time_duration.sum ns 1; row 1 7 'k(int)' gpu__time_duration.sum ns 2; }
good | csv x-ours.p1.csv
refused noheader "no header file"   "$b/x-ours.p1.csv"
grep -v '^gpu:' "$t/header.txt" >"$b/nogpu.txt";    refused nogpu "no 'gpu:' line"  "$b/nogpu.txt" "$b/x-ours.p1.csv"
sed 's/^ours: git .*/ours: git unknown/' "$t/header.txt" >"$b/norev.txt"; refused norev "is not a revision" "$b/norev.txt" "$b/x-ours.p1.csv"
refused twoheaders "two header files" "$t/header.txt" "$t/header.txt" "$b/x-ours.p1.csv"
refused nocsv "no .csv file"      "$t/header.txt"
good | csv x-theirs.p1.csv;   refused noside "is not CMP-ours"   "$t/header.txt" "$b/x-theirs.p1.csv"
good | csv ours-x.p1.csv;      refused sidefirst "is not CMP-ours" "$t/header.txt" "$b/ours-x.p1.csv"
good | csv x-ours-gpumaps.p1.csv; refused twosides "names two sides" "$t/header.txt" "$b/x-ours-gpumaps.p1.csv"
good | csv x-ours.csv;        refused noproc "is not KEY.pP.csv"   "$t/header.txt" "$b/x-ours.csv"
refused twice "given twice"      "$t/header.txt" "$b/x-ours.p1.csv" "$b/x-ours.p1.csv"
printf '==WARNING== No kernels were profiled.\n' >"$b/e-ours.p1.csv"; refused empty "no ncu CSV header" "$t/header.txt" "$b/e-ours.p1.csv"
{ good; echo '"2","7","p","k(int)","gpu__time_duration.sum","ns"'; } | csv f-ours.p1.csv; refused fields "6 fields, the header has 7" "$t/header.txt" "$b/f-ours.p1.csv"
{ good; row 2 8 'k(int)' gpu__time_duration.sum ns 3; } | csv p-ours.p1.csv; refused twopids "process 8 in a file of process 7" "$t/header.txt" "$b/p-ours.p1.csv"
{ good; row 2 7 'k(int)' gpu__time_duration.sum cycle 3; } | csv u-ours.p1.csv; refused unit "unknown unit 'cycle'" "$t/header.txt" "$b/u-ours.p1.csv"
{ good; row 2 7 'k(int)' gpu__time_duration.sum ns 'n/a'; } | csv v-ours.p1.csv; refused value "not a number" "$t/header.txt" "$b/v-ours.p1.csv"
{ row 0 7 'A()' gpu__time_duration.sum ns 1; row 1 7 'B()' gpu__time_duration.sum ns 1
  row 2 7 'B()' gpu__time_duration.sum ns 1; row 3 7 'A()' gpu__time_duration.sum ns 1; } | csv o-ours.p1.csv; refused order "do not repeat in order" "$t/header.txt" "$b/o-ours.p1.csv"
{ row 0 7 'A()' gpu__time_duration.sum ns 1; row 1 7 'B()' gpu__time_duration.sum ns 1; row 2 7 'A()' gpu__time_duration.sum ns 1; } | csv w-ours.p1.csv; refused whole "not whole iterations" "$t/header.txt" "$b/w-ours.p1.csv"
row 0 7 'k(int)' gpu__time_duration.sum ns 1 | csv i-ours.p1.csv; refused oneiter "one iteration" "$t/header.txt" "$b/i-ours.p1.csv"
echo '"ID","Process ID","Kernel Name","Metric Value"' >"$b/h-ours.p1.csv"; refused columns "lacks Process ID" "$t/header.txt" "$b/h-ours.p1.csv"
cli_done
