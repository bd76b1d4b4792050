#!/usr/bin/env bash
# Tools that read the user's file and write one (common/fileio.h):
#   hashmesh/neighbors never overwrites its input (--out = --in, ./, ../, a symlink, a hard
#   link): exit 2, one line, the input unchanged; --out naming a device, a directory or a
#   missing directory: exit 2 ("cannot write"); --in=/dev/zero, an endless pipe, a huge
#   header, an input over --max-mb: ONE line and exit 2 in well under a second (timeout 5 s).
. "$(dirname "$0")/lib.sh"
nb=hashmesh/neighbors
cli_need "make -C hashmesh neighbors" $nb
tmp=$cli_tmp
printf 'amr2d 1 1 0\n0 0 0\n' > $tmp/m.txt
cp $tmp/m.txt $tmp/orig.txt
ln -s m.txt $tmp/link.txt
ln $tmp/m.txt $tmp/hard.txt
mkdir $tmp/sub

one_line() { # one_line NAME REGEX OUTPUT: exactly one line, matching
  [ "$(printf '%s\n' "$3" | wc -l)" -eq 1 ] || cli_fail "$1: not one line: $3"
  printf '%s\n' "$3" | grep -Eq "$2" || cli_fail "$1: '$3' does not match '$2'"
}

# ---- data loss: every spelling of the input as --out is refused, the input kept
for o in $tmp/m.txt $tmp/./m.txt $tmp/sub/../m.txt $tmp/link.txt $tmp/hard.txt; do
  out=$(expect 2 timeout 5 $nb --in=$tmp/m.txt --out=$o)
  one_line "--out=$o" 'same file as the input' "$out"
  cmp -s $tmp/m.txt $tmp/orig.txt || cli_fail "--out=$o changed the input"
  cp $tmp/orig.txt $tmp/m.txt
done
(cd $tmp && expect 2 timeout 5 "$OLDPWD/$nb" --in=m.txt --out=./m.txt) >/dev/null
cmp -s $tmp/m.txt $tmp/orig.txt || cli_fail "--in=m.txt --out=./m.txt changed the input"
out=$(expect 2 timeout 5 $nb --in=$tmp/link.txt --out=$tmp/m.txt); one_line "input via a symlink" 'same file' "$out"
cmp -s $tmp/m.txt $tmp/orig.txt || cli_fail "--in=link --out=target changed the input"
# the temporary file FILE.tmp (written first, then renamed) must not be the input either
cp $tmp/orig.txt $tmp/x.txt.tmp
out=$(expect 2 timeout 5 $nb --in=$tmp/x.txt.tmp --out=$tmp/x.txt); one_line "--out=FILE with --in=FILE.tmp" 'written as .*x\.txt\.tmp, the input' "$out"
cmp -s $tmp/x.txt.tmp $tmp/orig.txt || cli_fail "--in=FILE.tmp --out=FILE changed the input"

# ---- outputs that cannot be written: exit 2, one line, nothing created
out=$(expect 2 timeout 5 $nb --in=$tmp/m.txt --out=/dev/null); one_line "--out=/dev/null" 'cannot write' "$out"
out=$(expect 2 timeout 5 $nb --in=$tmp/m.txt --out=$tmp/sub); one_line "--out=directory" 'cannot write.*directory' "$out"
out=$(expect 2 timeout 5 $nb --in=$tmp/m.txt --out=$tmp/nodir/o.txt); one_line "--out in a missing directory" 'cannot write' "$out"
[ -e $tmp/sub.tmp ] && cli_fail "temporary file left for --out=directory"

# ---- no hang, no unbounded memory: one line, exit 2, fast
out=$(expect 2 timeout 5 $nb --in=/dev/zero --out=$tmp/z.txt); one_line "/dev/zero" '/dev/zero:1: NUL byte \(binary data' "$out"
out=$( (printf 'amr2d 1 1 0\n'; yes '0 0 0') | (expect 2 timeout 5 $nb --in=/dev/stdin --out=$tmp/p.txt))
one_line "endless pipe" 'stdin:3: .*overlaps the cell on line 2' "$out"
out=$(head -c 3000000 /dev/zero | tr '\0' ' ' | (expect 2 timeout 5 $nb --in=/dev/stdin --out=$tmp/p.txt))
one_line "endless line" 'line too long' "$out"
printf 'amr2d 1048576 1048576 24\n0 0 0\n' > $tmp/huge.txt
out=$(expect 2 timeout 5 $nb --in=$tmp/huge.txt --out=$tmp/h.txt); one_line "huge header" 'huge\.txt:1: ' "$out"
{ echo 'amr2d 4 4 0'; for i in $(seq 1 200000); do echo '# padding comment line'; done; } > $tmp/big.txt
out=$(expect 2 timeout 5 $nb --in=$tmp/big.txt --out=$tmp/b.txt --max-mb=1); one_line "--max-mb" 'more than the limit' "$out"
out=$(expect 2 timeout 5 $nb --in=$tmp --out=$tmp/b.txt); one_line "--in=directory" 'cannot read.*directory' "$out"
for f in z p h b; do [ -e $tmp/$f.txt ] && cli_fail "output $f.txt created for bad input"; done
# a good run still works
expect 0 timeout 5 $nb --in=$tmp/m.txt --out=$tmp/good.txt >/dev/null
[ "$(cat $tmp/good.txt)" = "0 0 0 0" ] || cli_fail "the one-cell mesh's neighbours: $(cat $tmp/good.txt)"
cli_done
