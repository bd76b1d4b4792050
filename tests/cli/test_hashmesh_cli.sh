#!/usr/bin/env bash
# Command-line contract of hashmesh/hashmesh and hashmesh/neighbors:
#   --help exits 0; unknown / malformed options exit 2 with one error line; --exp=list
#   prints the experiment table without a GPU; a tiny run writes its data or SKIPs (77);
#   neighbors --backend=cpu runs without a GPU and gives Listing 2's neighbours for a
#   hand-checked mesh; every kind of bad mesh gives ONE line naming the line number, exit 2,
#   and no output file; --backend=gpu exits 77 (SKIP) without a GPU, else matches the CPU.
. "$(dirname "$0")/lib.sh"
hm=hashmesh/hashmesh
nb=hashmesh/neighbors
cli_need "make -C hashmesh" $hm $nb
tmp=$cli_tmp
# ---- hashmesh options (these end before device_require) ----
expect 0 $hm --help | grep -q -- '--exp=V' || { echo "FAILED: hashmesh --help lacks --exp"; fail=1; }
# the experiment table without a GPU: every experiment with its paper item
list=$(expect 0 $hm --exp=list)
for e in fig3_3 fig3_4 fig3_5 fig3_6 fig3_7 fig3_9 fig3_10 fig3_11 tab4_1 tab4_2 sort_best tab4_1_best tab4_2_best levmax clustered \
         sort_scale sort_cpu sort_variants; do
  printf '%s\n' "$list" | grep -Eq "^  $e +[^ ]" || { echo "FAILED: --exp=list lacks $e"; fail=1; }
done
expect 2 $hm --exp=fig9 | grep -q "no such experiment" || { echo "FAILED: bad --exp message"; fail=1; }
expect 2 $hm | grep -q "an experiment is required" || { echo "FAILED: missing --exp message"; fail=1; }
expect 2 $hm --exp=fig3_5 --levmax=25 | grep -q "out of range" || { echo "FAILED: --levmax range"; fail=1; }
expect 2 $hm --exp=levmax --lev-max=4 | grep -q "unknown option" || { echo "FAILED: --lev-max still accepted"; fail=1; }
expect 2 $hm --max-log2=abc >/dev/null
expect 2 $hm --bogus >/dev/null
# a real (tiny) run: a data file with a GPU, else SKIP (77) and none
out=$($hm --exp=fig3_3 --quick --max-log2=10 --reps=1 --warmup=0 --out=$tmp/dat 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  grep -q '^1024 2 hash_gpu ' $tmp/dat/hashmesh_fig3_3_sort1d.dat || { echo "FAILED: fig3_3 data lacks its hash_gpu row"; fail=1; }
elif [ $rc -eq 77 ]; then
  echo "$out" | grep -q '^SKIP' || { echo "FAILED: exit 77 without a SKIP line"; fail=1; }
  [ -e $tmp/dat/hashmesh_fig3_3_sort1d.dat ] && { echo "FAILED: data file written by a skipped run"; fail=1; }
else echo "FAILED: --exp=fig3_3 -> exit $rc"; echo "$out" | tail -3; fail=1; fi
# a 2D perfect hash table that cannot fit is refused before the GPU is needed
expect 2 $hm --exp=fig3_7 --levmax=16 | grep -q "does not fit" || { echo "FAILED: 2D table too large message"; fail=1; }
# ---- neighbors options ----
expect 0 $nb --help | grep -q -- '--backend=V' || { echo "FAILED: neighbors --help lacks --backend"; fail=1; }
expect 2 $nb --in=x >/dev/null
expect 2 $nb --in=x --out=y --backend=tpu >/dev/null
expect 2 $nb --in=$tmp/none.txt --out=$tmp/o.txt | grep -q "cannot read" || { echo "FAILED: missing input message"; fail=1; }
[ -e $tmp/o.txt ] && { echo "FAILED: output created for a missing input"; fail=1; }
mkdir -p $tmp/outdir
printf 'amr2d 1 1 0\n0 0 0\n' > $tmp/one.txt
expect 2 $nb --in=$tmp/one.txt --out=$tmp/outdir | grep -q "is a directory" || { echo "FAILED: --out=directory message"; fail=1; }
[ -e $tmp/outdir.tmp ] && { echo "FAILED: temporary file left for --out=directory"; fail=1; }

# ---- the hand-checked mesh (lib.sh), with a comment line and a blank line: both are ignored
hm_hand_mesh $tmp/hand.txt $tmp/want.txt
awk 'NR == 1 { print "# comment lines and blank lines are ignored" } { print } NR == 2 { print "" }' $tmp/hand.txt > $tmp/good.txt
expect 0 $nb --in=$tmp/good.txt --out=$tmp/cpu.txt --backend=cpu >/dev/null
cmp -s $tmp/cpu.txt $tmp/want.txt || { echo "FAILED: neighbours of the hand-checked mesh"; diff $tmp/cpu.txt $tmp/want.txt | head; fail=1; }
[ -e $tmp/cpu.txt.tmp ] && { echo "FAILED: temporary file left behind"; fail=1; }

# ---- a generated-looking larger mesh: uniform 5 x 3 at level 0 plus a refined corner
{ echo "amr2d 5 3 2"; for j in 0 1 2; do for i in 0 1 2 3 4; do [ $i$j = 00 ] || echo "$i $j 0"; done; done
  for j in 0 1; do for i in 0 1; do echo "$i $j 1"; done; done; } > $tmp/big.txt
sed -i '/^0 0 1$/d' $tmp/big.txt
for j in 0 1; do for i in 0 1; do echo "$i $j 2"; done; done >> $tmp/big.txt
expect 0 $nb --in=$tmp/big.txt --out=$tmp/big_cpu.txt >/dev/null
[ "$(wc -l < $tmp/big_cpu.txt)" -eq "$(($(grep -c . $tmp/big.txt) - 1))" ] || { echo "FAILED: one output line per cell"; fail=1; }

# ---- GPU backend: SKIP (77) without a GPU, else identical to the CPU
out=$($nb --in=$tmp/big.txt --out=$tmp/big_gpu.txt --backend=gpu 2>&1); rc=$?
if [ $rc -eq 0 ]; then
  cmp -s $tmp/big_cpu.txt $tmp/big_gpu.txt || { echo "FAILED: GPU and CPU neighbours differ"; fail=1; }
  $nb --in=$tmp/good.txt --out=$tmp/gpu.txt --backend=gpu 2>/dev/null
  cmp -s $tmp/gpu.txt $tmp/want.txt || { echo "FAILED: GPU neighbours of the hand-checked mesh"; fail=1; }
elif [ $rc -eq 77 ]; then
  echo "$out" | grep -q '^SKIP' || { echo "FAILED: exit 77 without a SKIP line"; fail=1; }
  [ -e $tmp/big_gpu.txt ] && { echo "FAILED: output created by a skipped GPU run"; fail=1; }
else echo "FAILED: --backend=gpu -> exit $rc"; echo "$out" | head -3; fail=1; fi

# ---- bad meshes: exit 2, one line naming the line, no output file
bad() { # bad NAME EXPECTED_REGEX CONTENT
  printf '%b' "$3" > $tmp/$1.txt
  out=$($nb --in=$tmp/$1.txt --out=$tmp/$1.out 2>&1); rc=$?
  [ $rc -eq 2 ] || { echo "FAILED: $1 -> exit $rc, want 2"; fail=1; }
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { echo "FAILED: $1: not one line: $out"; fail=1; }
  printf '%s\n' "$out" | grep -Eq "$2" || { echo "FAILED: $1: '$out' does not match '$2'"; fail=1; }
  [ -e $tmp/$1.out ] || [ -e $tmp/$1.out.tmp ] && { echo "FAILED: $1: output created"; fail=1; }
  return 0
}
bad empty      'empty\.txt:1: empty file'                   ''
bad header     'header\.txt:1: expected the header'          'amr3d 2 2 1\n0 0 0\n'
bad hdrrange   'hdrrange\.txt:1: header out of range'        'amr2d 0 2 1\n'
bad nocells    'nocells\.txt:2: no cells'                    'amr2d 1 1 0\n'
bad malformed  'malformed\.txt:3: malformed cell line'       'amr2d 2 1 0\n0 0 0\n1 0\n'
bad letters    'letters\.txt:2: malformed cell line'         'amr2d 2 1 0\nx 0 0\n1 0 0\n'
bad extra      'extra\.txt:2: malformed cell line'           'amr2d 2 1 0\n0 0 0 7\n1 0 0\n'
bad level      'level\.txt:3: level 2 out of range'          'amr2d 2 1 1\n0 0 0\n1 0 2\n'
bad outside    'outside\.txt:3: cell \(2, 0\) at level 0 is outside' 'amr2d 2 1 0\n0 0 0\n2 0 0\n'
bad negative   'negative\.txt:2: .*outside'                  'amr2d 2 1 0\n-1 0 0\n1 0 0\n'
bad overlap    'overlap\.txt:4: .*overlaps the cell on line 2' 'amr2d 2 1 1\n0 0 0\n1 0 0\n1 1 1\n'
bad duplicate  'duplicate\.txt:3: .*overlaps the cell on line 2' 'amr2d 2 1 0\n0 0 0\n0 0 0\n1 0 0\n'
bad hole       'hole\.txt:[0-9]+: hole: .*\(2, 0\)'          'amr2d 2 1 1\n0 0 0\n3 0 1\n2 1 1\n3 1 1\n'
bad toolarge   'toolarge\.txt:1: .*hash table'               'amr2d 1048576 1048576 4\n0 0 0\n'
bad nulbyte    'nulbyte\.txt:3: NUL byte'                    'amr2d 1 1 0\n0 0 0\n\0junk\n'
bad longline   'longline\.txt:2: line too long'             "amr2d 1 1 0\n0 0 0$(printf '%5000s' '')\n"
cli_done
