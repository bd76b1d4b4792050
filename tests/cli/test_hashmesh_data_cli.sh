#!/usr/bin/env bash
# Command-line contract of hashmesh/hashdata (sort, remap, table look-up of the user's files):
#   --help exits 0; missing / conflicting options exit 2; hand-checked results for each
#   operation on the CPU; every kind of bad input gives ONE line naming FILE:LINE, exit 2, and
#   neither the output nor its .tmp; the output may not be an input; --backend=gpu exits 77
#   (SKIP) without a GPU, else it matches the CPU (remap and look-up within 1e-12).  Also the
#   options of hashmesh/hashmesh's experiments beyond the paper that are refused before the
#   GPU is touched.
. "$(dirname "$0")/lib.sh"
hd=hashmesh/hashdata
cli_need "make -C hashmesh" $hd
tmp=$cli_tmp
expect 0 $hd --help | grep -q -- '--op=V' || cli_fail "--help lacks --op"
expect 2 $hd --op=sort --in=x >/dev/null
expect 2 $hd --op=shuffle --in=x --out=y >/dev/null
expect 2 $hd --op=remap --in=x --out=y >/dev/null
expect 2 $hd --op=lookup --in=x --out=y >/dev/null
expect 2 $hd --op=sort --in=x --out=y --table=z | grep -q "does not take" || cli_fail "conflicting options message"
expect 2 $hd --op=sort --in=$tmp/none.txt --out=$tmp/o.txt >/dev/null
[ -e $tmp/o.txt ] && cli_fail "output created for a missing input"

# ---- hand-checked results
printf '# keys, dmin 2\nkeys1d 2\n10\n4\n\n7.5\n-3\n' > $tmp/k.txt
expect 0 $hd --op=sort --in=$tmp/k.txt --out=$tmp/ks.txt >/dev/null
printf '3 -3\n1 4\n2 7.5\n0 10\n' | cmp -s - $tmp/ks.txt || cli_fail "sorted keys"
# old (lib.sh's hand-checked mesh): coarse cell (0,0) = 1, the right coarse cell refined into
# 2, 3, 4, 5; new: the reverse
hm_hand_mesh $tmp/old.txt
printf 'amr2d 2 1 1\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n1 0 0\n' > $tmp/new.txt
printf '1\n2\n3\n4\n5\n' > $tmp/v.txt
expect 0 $hd --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/v.txt --out=$tmp/r.txt >/dev/null
printf '1\n1\n1\n1\n3.5\n' | cmp -s - $tmp/r.txt || cli_fail "remapped means"
# a linear field (mean + slopes) is transferred exactly: f = 1 + x (finest-cell units; the
# coarse cell spans x in [0, 2), its mean is f(1) = 2)
printf '2 1 0\n4.5 1 0\n3.5 1 0\n4.5 1 0\n3.5 1 0\n' > $tmp/vl.txt
expect 0 $hd --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/vl.txt --out=$tmp/rl.txt >/dev/null
printf '1.5\n2.5\n1.5\n2.5\n4\n' | cmp -s - $tmp/rl.txt || { cli_fail "linear remap"; cat $tmp/rl.txt; }
printf 'table2d 2 3 0 1 0 2\n0 1\n2 3 4\n5\n' > $tmp/t.txt   # f = x + 2 y, values split over lines
printf '0 0\n1 2\n0.5 1\n0.25 0.5\n' > $tmp/q.txt
expect 0 $hd --op=lookup --table=$tmp/t.txt --in=$tmp/q.txt --out=$tmp/l.txt >/dev/null
printf '0\n5\n2.5\n1.25\n' | cmp -s - $tmp/l.txt || cli_fail "looked-up values"
# the output may not be an input (also through ./)
expect 2 $hd --op=lookup --table=$tmp/t.txt --in=$tmp/q.txt --out=$tmp/./t.txt | grep -q "same file" || cli_fail "out = table"
cmp -s $tmp/t.txt <(printf 'table2d 2 3 0 1 0 2\n0 1\n2 3 4\n5\n') || cli_fail "table overwritten"
# nor may FILE.tmp (written first): --in=x.tmp --out=x
cp $tmp/k.txt $tmp/kk.tmp
expect 2 $hd --op=sort --in=$tmp/kk.tmp --out=$tmp/kk >/dev/null
cmp -s $tmp/k.txt $tmp/kk.tmp || cli_fail "input overwritten through FILE.tmp"
[ -e $tmp/kk ] && cli_fail "output created when FILE.tmp is the input"

# ---- GPU backend: SKIP (77) without a GPU, else the same as the CPU
out=$($hd --op=sort --in=$tmp/k.txt --out=$tmp/ks_gpu.txt --backend=gpu 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  cmp -s $tmp/ks.txt $tmp/ks_gpu.txt || cli_fail "GPU and CPU sorts differ"
  expect 0 $hd --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/vl.txt --out=$tmp/rl_gpu.txt --backend=gpu >/dev/null
  paste $tmp/rl.txt $tmp/rl_gpu.txt | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-12) bad = 1} END {exit bad}' \
    || cli_fail "GPU and CPU remaps differ"
  expect 0 $hd --op=lookup --table=$tmp/t.txt --in=$tmp/q.txt --out=$tmp/l_gpu.txt --backend=gpu >/dev/null
  paste $tmp/l.txt $tmp/l_gpu.txt | awk '{d = $1 - $2; if (d < 0) d = -d; if (d > 1e-12) bad = 1} END {exit bad}' \
    || cli_fail "GPU and CPU look-ups differ"
elif [ $rc -eq 77 ]; then
  [ -e $tmp/ks_gpu.txt ] && cli_fail "output created by a skipped GPU run"
else cli_fail "--backend=gpu -> exit $rc: $out"; fi

# ---- bad input: exit 2, one line naming FILE:LINE, no output (nor .tmp)
bad() { # bad NAME REGEX OP-ARGS... (the bad file is $tmp/NAME.txt, written by the caller)
  local name=$1 re=$2
  shift 2
  cli_refused "$name" "$re" $tmp/$name.out $hd "$@" --out=$tmp/$name.out
}
k() { printf '%b' "$2" > $tmp/$1.txt; bad "$1" "$3" --op=sort --in=$tmp/$1.txt; }
k empty     ''                          'empty\.txt:1: expected the header'
k header    'keys2d 2\n1\n'             'header\.txt:1: expected the header'
k dmin      'keys1d -1\n1\n'            'dmin\.txt:1: DMIN must be positive'
k nokeys    '# c\nkeys1d 2\n\n'         'nokeys\.txt:4: no keys'
k letters   'keys1d 2\n1\nabc\n'        'letters\.txt:3: malformed key line'
k two       'keys1d 2\n1\n3 4\n'        'two\.txt:3: malformed key line'
k nan       'keys1d 2\n1\nnan\n'        'nan\.txt:3: malformed key line'
k collide   'keys1d 2\n10\n4\n5\n'      'collide\.txt:4: key 5 shares a bucket with the key on line 3'
k huge      'keys1d 1e-9\n0\n1e9\n'     'huge\.txt:3: the perfect hash table'
k nul       'keys1d 2\n1\n\0x\n'        'nul\.txt:3: NUL byte'
k long      "keys1d 2\n1$(printf '%5000s' '')\n" 'long\.txt:2: line too long'
printf '1\n2\n3\n4\n' > $tmp/v4.txt
bad fewvals 'v4\.txt:5: 4 values for the 5 cells' --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/v4.txt
printf '1\n2\n3\n4\n5\n6\n' > $tmp/v6.txt
bad morevals 'v6\.txt:6: more values than the 5 cells' --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/v6.txt
printf '1\n2 3\n3\n4\n5\n' > $tmp/v2.txt
bad valline 'v2\.txt:2: malformed value line' --op=remap --in=$tmp/old.txt --new=$tmp/new.txt --values=$tmp/v2.txt
printf 'amr2d 2 2 1\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n' > $tmp/other.txt
bad domain 'other\.txt:1: header .* differs' --op=remap --in=$tmp/old.txt --new=$tmp/other.txt --values=$tmp/v.txt
printf 'amr2d 2 1 1\n0 0 0\n3 1 1\n2 0 1\n3 0 1\n' > $tmp/holey.txt
bad hole 'holey\.txt:[0-9]+: hole' --op=remap --in=$tmp/holey.txt --new=$tmp/new.txt --values=$tmp/v4.txt
bad newhole 'holey\.txt:[0-9]+: hole' --op=remap --in=$tmp/old.txt --new=$tmp/holey.txt --values=$tmp/v.txt
tab() { printf '%b' "$2" > $tmp/$1.txt; bad "$1" "$3" --op=lookup --table=$tmp/$1.txt --in=$tmp/q.txt; } # a bad table
qry() { printf '%b' "$2" > $tmp/$1.txt; bad "$1" "$3" --op=lookup --table=$tmp/t.txt --in=$tmp/$1.txt; } # bad queries
tab tshort 'table2d 2 3 0 1 0 2\n0 1 2 3 4\n'       'tshort\.txt:3: 5 table values, NX \* NY = 6'
tab tlong  'table2d 2 3 0 1 0 2\n0 1 2 3 4 5 6\n'   'tlong\.txt:2: more than NX \* NY = 6'
tab tnx    'table2d 1 3 0 1 0 2\n0 1 2\n'           'tnx\.txt:1: NX and NY must be integers >= 2'
tab taxis  'table2d 2 2 1 0 0 2\n0 1 2 3\n'         'taxis\.txt:1: the axes need X0 < X1'
tab tyaxis 'table2d 2 2 0 1 2 2\n0 1 2 3\n'         'tyaxis\.txt:1: the axes need X0 < X1 and Y0 < Y1'
qry qout   '0 0\n2 2\n'                             'qout\.txt:2: query \(2, 2\) outside the table'
qry qbad   '0 0\n0.5\n'                             'qbad\.txt:2: malformed query line'
bad zero '/dev/zero:1: NUL byte' --op=sort --in=/dev/zero

# ---- hashmesh's options beyond the paper (refused before the GPU is needed)
hm=hashmesh/hashmesh
if [ -x $hm ]; then
  expect 2 $hm --exp=levmax --levmax=24 | grep -q "does not fit the compact key" || cli_fail "levmax key limit message"
  expect 2 $hm --exp=levmax --corner-radius=1 >/dev/null
  expect 2 $hm --exp=levmax --load=0 >/dev/null
  expect 2 $hm --exp=sort_best --threads=-1 >/dev/null
  expect 2 $hm --exp=bogus | grep -q "tab4_1_best" || cli_fail "--exp choices lack the experiments beyond the paper"
  expect 0 $hm --help | grep -q -- "--flush-l2" || cli_fail "--help lacks --flush-l2"
fi
cli_done
