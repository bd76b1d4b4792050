#!/usr/bin/env bash
# Edge inputs of hashmesh/hashdata and hashmesh/neighbors on the CPU (no GPU needed), each
# limit on both sides and the outcome asserted -- the values written, or ONE error line naming
# FILE:LINE, exit 2 and no output file:
#   look-up: queries exactly at each axis end (the corner values), one ulp past the maximum
#   (refused), a query line of one and of three numbers, a header of five and seven numbers,
#   NX * NY values on one line; remap: value lines of three (accepted) and four numbers; sort: the largest key in the table's last bucket, 1025 keys (the
#   readers' arrays grow past 1024); neighbors: cell lines of two, four and five integers, the
#   header's LEVMAX 24 (range passes, the table does not fit) and 25 (out of range), NX = 2^20
#   and 2^20 + 1, a mesh of 1089 cells.
. "$(dirname "$0")/lib.sh"
hd=hashmesh/hashdata
nb=hashmesh/neighbors
cli_need "make -C hashmesh" $hd $nb
tmp=$cli_tmp

# bad PROG NAME REGEX ARGS...: exit 2, one line matching REGEX, no output (nor .tmp)
bad() { # bad PROG NAME REGEX ARGS...
  local prog=$1 name=$2 re=$3
  shift 3
  cli_refused "$name" "$re" $tmp/$name.out $prog "$@" --out=$tmp/$name.out
}

# ---- table look-up: f = x + 2 y on [0, 1] x [0, 2], 2 x 3 values (x fastest)
printf 'table2d 2 3 0 1 0 2\n0 1 2 3 4 5\n' > $tmp/t.txt
printf '1 0\n0 2\n1 2\n0 0\n1 1\n0.5 2\n' > $tmp/q.txt # each maximum alone, both, both minima
expect 0 $hd --op=lookup --table=$tmp/t.txt --in=$tmp/q.txt --out=$tmp/l.txt >/dev/null
printf '1\n4\n5\n0\n3\n4.5\n' | cmp -s - $tmp/l.txt || { cli_fail "values at the axis ends"; cat $tmp/l.txt >&2; }
printf '1.0000000000000002 1\n' > $tmp/qx.txt # one ulp past X1
bad $hd qx 'qx\.txt:1: query .* outside the table' --op=lookup --table=$tmp/t.txt --in=$tmp/qx.txt
printf '0 1\n0.5 2.0000000000000004\n' > $tmp/qy.txt # one ulp past Y1
bad $hd qy 'qy\.txt:2: query .* outside the table' --op=lookup --table=$tmp/t.txt --in=$tmp/qy.txt
printf '0 -1e-300\n' > $tmp/qlo.txt # just below Y0
bad $hd qlo 'qlo\.txt:1: query .* outside the table' --op=lookup --table=$tmp/t.txt --in=$tmp/qlo.txt
printf '0.5 1 7\n' > $tmp/q3.txt
bad $hd q3 'q3\.txt:1: malformed query line' --op=lookup --table=$tmp/t.txt --in=$tmp/q3.txt
printf '0.5 1\n0.5 1 2 3 4 5 6 7 8 9\n' > $tmp/q10.txt
bad $hd q10 'q10\.txt:2: malformed query line' --op=lookup --table=$tmp/t.txt --in=$tmp/q10.txt
printf '0.5\n' > $tmp/q1.txt
bad $hd q1 'q1\.txt:1: malformed query line' --op=lookup --table=$tmp/t.txt --in=$tmp/q1.txt
printf 'table2d 2 3 0 1 0\n0 1 2 3 4 5\n' > $tmp/h5.txt
bad $hd h5 'h5\.txt:1: expected the header' --op=lookup --table=$tmp/h5.txt --in=$tmp/q.txt
printf 'table2d 2 3 0 1 0 2 9\n0 1 2 3 4 5\n' > $tmp/h7.txt
bad $hd h7 'h7\.txt:1: expected the header' --op=lookup --table=$tmp/h7.txt --in=$tmp/q.txt
printf 'table2d 2 2 0 1 0 1\n0 1 2 3 4\n' > $tmp/t5.txt # NX * NY + 1 values on one line
bad $hd t5 't5\.txt:2: more than NX \* NY = 4' --op=lookup --table=$tmp/t5.txt --in=$tmp/q1.txt
# ---- sort: the largest key lands in the last bucket; 1025 keys grow the arrays
printf 'keys1d 2\n6\n0\n2\n' > $tmp/k.txt
expect 0 $hd --op=sort --in=$tmp/k.txt --out=$tmp/ks.txt >/dev/null
printf '1 0\n2 2\n0 6\n' | cmp -s - $tmp/ks.txt || cli_fail "sort with the largest key in the last bucket"
{ echo "keys1d 1"; for i in $(seq 1025 -1 1); do echo $((3 * i)); done; } > $tmp/k1025.txt
expect 0 $hd --op=sort --in=$tmp/k1025.txt --out=$tmp/k1025s.txt >/dev/null
[ "$(wc -l < $tmp/k1025s.txt)" -eq 1025 ] || cli_fail "1025 keys: $(wc -l < $tmp/k1025s.txt) lines"
[ "$(head -n 1 $tmp/k1025s.txt)" = "1024 3" ] && [ "$(tail -n 1 $tmp/k1025s.txt)" = "0 3075" ] ||
  cli_fail "1025 keys: first/last line $(head -n 1 $tmp/k1025s.txt) / $(tail -n 1 $tmp/k1025s.txt)"
printf 'keys1d 2 3\n1\n' > $tmp/kh.txt
bad $hd kh 'kh\.txt:1: expected the header' --op=sort --in=$tmp/kh.txt

# ---- remap value lines: one or three numbers; four (and eleven) refused
printf 'amr2d 1 1 0\n0 0 0\n' > $tmp/one.txt
printf '2 0.5 -1\n' > $tmp/v3.txt
expect 0 $hd --op=remap --in=$tmp/one.txt --new=$tmp/one.txt --values=$tmp/v3.txt --out=$tmp/r3.txt >/dev/null
[ "$(cat $tmp/r3.txt)" = "2" ] || cli_fail "remap of one cell with slopes: $(cat $tmp/r3.txt)"
printf '2 0.5 -1 7\n' > $tmp/v4.txt
bad $hd v4 'v4\.txt:1: malformed value line' --op=remap --in=$tmp/one.txt --new=$tmp/one.txt --values=$tmp/v4.txt
printf '1 2 3 4 5 6 7 8 9 10 11\n' > $tmp/v11.txt
bad $hd v11 'v11\.txt:1: malformed value line' --op=remap --in=$tmp/one.txt --new=$tmp/one.txt --values=$tmp/v11.txt

# ---- neighbors: cell lines with too few / too many integers, header limits
m() { printf '%b' "$2" > $tmp/$1.txt; bad $nb "$1" "$3" --in=$tmp/$1.txt; }
m c2  'amr2d 1 1 0\n0 0\n'              'c2\.txt:2: malformed cell line'
m c4  'amr2d 1 1 0\n0 0 0 0\n'          'c4\.txt:2: malformed cell line'
m c5  'amr2d 1 1 0\n0 0 0 0 0\n'        'c5\.txt:2: malformed cell line'
m c12 'amr2d 1 1 0\n0 0 0 1 2 3 4 5 6 7 8 9\n' 'c12\.txt:2: malformed cell line'
m l24 'amr2d 1 1 24\n0 0 0\n'           'l24\.txt:1: the perfect hash table needs'
m l25 'amr2d 1 1 25\n0 0 0\n'           'l25\.txt:1: header out of range'
m nx  'amr2d 1048577 1 0\n0 0 0\n'      'nx\.txt:1: header out of range'
m nxm 'amr2d 1048576 1 0\n0 0 0\n'      'nxm\.txt:[0-9]+: hole'
m h4  'amr2d 1 1 0 0\n0 0 0\n'          'h4\.txt:1: expected the header'
# a 33 x 33 uniform mesh: 1089 cells (more than the reader's first 1024), every line out
{ echo "amr2d 33 33 0"; for j in $(seq 0 32); do for i in $(seq 0 32); do echo "$i $j 0"; done; done; } > $tmp/big.txt
expect 0 $nb --in=$tmp/big.txt --out=$tmp/big.out >/dev/null
[ "$(wc -l < $tmp/big.out)" -eq 1089 ] || cli_fail "1089 cells: $(wc -l < $tmp/big.out) lines"
# cell 0 = (0, 0): left and bottom are itself (the domain edge), right is cell 1, top cell 33
[ "$(head -n 1 $tmp/big.out)" = "0 1 0 33" ] || cli_fail "neighbours of cell (0, 0): $(head -n 1 $tmp/big.out)"
# the last cell (32, 32): right and top are itself
[ "$(tail -n 1 $tmp/big.out)" = "1087 1088 1055 1088" ] || cli_fail "neighbours of cell (32, 32): $(tail -n 1 $tmp/big.out)"
cli_done
