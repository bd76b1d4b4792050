#!/usr/bin/env bash
# hashmesh's file tools checked row by row against independent computations in awk (no GPU):
#   neighbors and neighbors-mpi (CPU backend, P = 2, 3; and P = 1, 3 with --threads=2, the
#     serial tool's rows exactly): random AMR meshes (levmax 3, no
#     balance, cells shuffled) -- every cell's 'left right bottom top' is the cell covering the
#     finest cell just outside its lower-left corner on that side (itself at the domain's
#     edge), found by painting the finest grid; the row count is the cell count;
#   hashdata --op=sort: 3000 keys in random distinct buckets (negative ones too) -> the input
#     order of `sort -g`, row count, first and last row;
#   hashdata --op=remap: a linear field f = a + b x + c y (mean and slopes per old cell) lands
#     exactly on every new cell's centre, between two random meshes, both directions;
#   hashdata --op=lookup: a bilinear table of a linear function is exact at every query,
#     the table's far edges and corners included (and a hair past them is refused);
#   limits both sides: a table of NX * NY = 2^24 passes the header (its values are then
#     counted), 2^24 + NX does not; a mesh header with NX << LEVMAX = 2^31 - 2^24 passes,
#     2^31 does not; --max-mb=1 reads a file of 10^6 bytes and refuses 10^6 + 1;
#   a write error when the output is committed (ulimit -f 0: the fclose fails): exit 1, one
#     'write error' line, neither the output nor its .tmp (neighbors, hashdata, hierarchize).
. "$(dirname "$0")/lib.sh"
nb=hashmesh/neighbors
hd=hashmesh/hashdata
cli_need "make -C hashmesh" $nb $hd
t=$cli_tmp

# random_mesh NX NY LEVMAX P SEED: coarse cells refined with probability P at every level, in
# a random order.  Its own generator (Park-Miller, exact in doubles), not awk's rand(): mawk and
# gawk draw different numbers from one seed, and the meshes must be the same with either
random_mesh() {
  awk -v nx="$1" -v ny="$2" -v L="$3" -v p="$4" -v seed="$5" '
    function rnd() { x = (x * 16807) % 2147483647; return x / 2147483647 }
    function cell(i, j, l) { if (l < L && rnd() < p) { cell(2*i, 2*j, l+1); cell(2*i+1, 2*j, l+1); cell(2*i, 2*j+1, l+1); cell(2*i+1, 2*j+1, l+1) }
                             else c[++n] = i " " j " " l }
    BEGIN { x = seed; for (j = 0; j < ny; j++) for (i = 0; i < nx; i++) cell(i, j, 0)
            for (k = n; k > 1; k--) { r = 1 + int(rnd() * k); s = c[k]; c[k] = c[r]; c[r] = s }
            print "amr2d " nx " " ny " " L; for (k = 1; k <= n; k++) print c[k] }'
}
# neighbours_oracle MESH: paint the finest grid with the cells' indices, then read the four sides
neighbours_oracle() {
  awk 'NR == 1 { nx = $2; ny = $3; L = $4; W = nx * 2^L; H = ny * 2^L; next }
       { n = NR - 2; i[n] = $1; j[n] = $2; s[n] = 2^(L - $3)
         for (y = $2 * s[n]; y < ($2 + 1) * s[n]; y++) for (x = $1 * s[n]; x < ($1 + 1) * s[n]; x++) g[x, y] = n }
       function at(x, y, self) { return (x < 0 || y < 0 || x >= W || y >= H) ? self : g[x, y] }
       END { for (c = 0; c <= n; c++) { x = i[c] * s[c]; y = j[c] * s[c]
               print at(x - 1, y, c), at(x + s[c], y, c), at(x, y - 1, c), at(x, y + s[c], c) } }' "$1"
}
cells() { echo $(( $(wc -l <"$1") - 1 )); }

# ---- neighbours
hm_hand_mesh "$t/hand.txt" "$t/hand_want.txt"
neighbours_oracle "$t/hand.txt" | cmp -s - "$t/hand_want.txt" || cli_fail "the oracle itself disagrees with the hand-checked mesh"
random_mesh 9 6 3 0.45 7 >"$t/m1.txt"
random_mesh 1 1 3 0.9 8 >"$t/m2.txt"    # one coarse cell, deep
random_mesh 13 1 2 0.5 9 >"$t/m3.txt"   # one row of coarse cells
{ echo "amr2d 3 2 0"; echo "2 1 0"; echo "0 0 0"; echo "1 1 0"; echo "2 0 0"; echo "0 1 0"; echo "1 0 0"; } >"$t/m4.txt"
for m in m1 m2 m3 m4 hand; do
  neighbours_oracle "$t/$m.txt" >"$t/${m}_want.txt"
  expect 0 $nb --in="$t/$m.txt" --out="$t/${m}_nb.txt" >/dev/null
  [ "$(wc -l <"$t/${m}_nb.txt")" -eq "$(cells "$t/$m.txt")" ] || cli_fail "neighbors $m: $(wc -l <"$t/${m}_nb.txt") rows for $(cells "$t/$m.txt") cells"
  cmp -s "$t/${m}_nb.txt" "$t/${m}_want.txt" || { cli_fail "neighbors $m: rows differ from the painted grid's"; diff "$t/${m}_nb.txt" "$t/${m}_want.txt" | head -n 4 >&2; }
done
[ "$(cells "$t/m1.txt")" -gt 200 ] || cli_fail "the random mesh m1 has only $(cells "$t/m1.txt") cells"
[ "$(cells "$t/m2.txt")" -ge 3 ] || cli_fail "the random mesh m2 has only $(cells "$t/m2.txt") cells (3 ranks need 3)"
# neighbors-mpi, CPU backend, where MPI runs
if [ -x hashmesh/neighbors-mpi ] && [ -x "${cli_mpirun:-}" ] && "$cli_mpirun" -np 1 true >/dev/null 2>&1; then
  for np in 2 3; do
    for m in m1 m3; do
      out=$(timeout 60 "$cli_mpirun" -np $np hashmesh/neighbors-mpi --in="$t/$m.txt" --out="$t/${m}_mpi$np.txt" 2>&1) ||
        cli_fail "neighbors-mpi -np $np $m: $out"
      cmp -s "$t/${m}_mpi$np.txt" "$t/${m}_want.txt" || cli_fail "neighbors-mpi -np $np $m: rows differ from the painted grid's"
    done
  done
  # the cpu backend's build and query on 2 OpenMP threads a rank: the serial tool's rows
  for np in 1 3; do
    for m in m1 m2 m3; do
      out=$(timeout 60 "$cli_mpirun" -np $np hashmesh/neighbors-mpi --threads=2 --in="$t/$m.txt" --out="$t/${m}_omp$np.txt" 2>&1) ||
        cli_fail "neighbors-mpi -np $np --threads=2 $m: $out"
      printf '%s\n' "$out" | grep -q "on $np ranks (cpu, 2 thread(s) a rank)" || cli_fail "neighbors-mpi -np $np --threads=2 $m: not 2 threads a rank: $out"
      cmp -s "$t/${m}_omp$np.txt" "$t/${m}_nb.txt" || cli_fail "neighbors-mpi -np $np --threads=2 $m: rows differ from neighbors'"
      cmp -s "$t/${m}_omp$np.txt" "$t/${m}_want.txt" || cli_fail "neighbors-mpi -np $np --threads=2 $m: rows differ from the painted grid's"
    done
  done
else
  echo "note: neighbors-mpi not run (no MPI launcher here)"
fi

# ---- hashdata --op=sort: keys b * 0.5 + f * 0.25 - 300 for distinct random buckets b
# (the smallest key, -300, is bucket 0's: a key's bucket is then its b)
awk 'BEGIN { srand(11); print "# random keys"; print "keys1d 0.5"; u[0] = 1; n = 1; print "-300"
             while (n < 3000) { b = int(rand() * 9000); if (b in u) continue; u[b] = 1; n++
                                printf "%.4f\n", b * 0.5 + int(rand() * 2500) / 10000 - 300 } }' >"$t/keys.txt"
expect 0 $hd --op=sort --in="$t/keys.txt" --out="$t/sorted.txt" >/dev/null
awk '!/^#/ && !/^keys1d/ { print n++, $1 }' "$t/keys.txt" | sort -g -k2 >"$t/sorted_want.txt"
[ "$(wc -l <"$t/sorted.txt")" -eq 3000 ] || cli_fail "sort: $(wc -l <"$t/sorted.txt") rows for 3000 keys"
paste -d' ' "$t/sorted.txt" "$t/sorted_want.txt" | awk '$1 != $3 || ($2 - $4) > 1e-9 || ($4 - $2) > 1e-9 { bad++; if (bad < 4) print "row " NR ": " $0 }
  END { exit bad > 0 }' >&2 || cli_fail "sort: rows differ from sort -g of the input"
[ "$(head -n 1 "$t/sorted.txt" | cut -d' ' -f1)" = "$(head -n 1 "$t/sorted_want.txt" | cut -d' ' -f1)" ] &&
  [ "$(tail -n 1 "$t/sorted.txt" | cut -d' ' -f1)" = "$(tail -n 1 "$t/sorted_want.txt" | cut -d' ' -f1)" ] ||
  cli_fail "sort: first or last row wrong"

# ---- hashdata --op=remap: f = 1.25 + 0.5 x - 0.75 y (finest-cell units), exact both ways
random_mesh 5 4 3 0.5 21 >"$t/old.txt"
random_mesh 5 4 3 0.5 22 >"$t/new.txt"
linear() { awk -v want="$2" 'NR == 1 { L = $4; next } { s = 2^(L - $3); x = ($1 + 0.5) * s; y = ($2 + 0.5) * s; f = 1.25 + 0.5 * x - 0.75 * y
  if (want) printf "%.17g\n", f; else printf "%.17g 0.5 -0.75\n", f }' "$1"; }
for dir in "old new" "new old"; do
  set -- $dir
  linear "$t/$1.txt" 0 >"$t/vals_$1.txt"
  expect 0 $hd --op=remap --in="$t/$1.txt" --new="$t/$2.txt" --values="$t/vals_$1.txt" --out="$t/r_$2.txt" >/dev/null
  linear "$t/$2.txt" 1 >"$t/want_$2.txt"
  [ "$(wc -l <"$t/r_$2.txt")" -eq "$(cells "$t/$2.txt")" ] || cli_fail "remap $1 -> $2: $(wc -l <"$t/r_$2.txt") rows for $(cells "$t/$2.txt") cells"
  paste -d' ' "$t/r_$2.txt" "$t/want_$2.txt" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-9) { bad++; if (bad < 4) print "row " NR ": " $0 } }
    END { exit bad > 0 }' >&2 || cli_fail "remap $1 -> $2: a linear field is not transferred exactly"
done

# ---- hashdata --op=lookup: a 7 x 5 table on [-1, 2] x [0.5, 4.5] of f = 3 + 2 x - 5 y
awk 'BEGIN { print "table2d 7 5 -1 2 0.5 4.5"; for (j = 0; j < 5; j++) for (i = 0; i < 7; i++) printf "%.17g\n", 3 + 2 * (-1 + 3 * i / 6) - 5 * (0.5 + j) }' >"$t/tab.txt"
awk 'BEGIN { srand(5); print "-1 0.5"; print "2 4.5"; print "2 0.5"; print "-1 4.5"; print "2 2.25"; print "0.5 4.5"
             for (k = 0; k < 200; k++) printf "%.6f %.6f\n", -1 + 3 * rand(), 0.5 + 4 * rand() }' >"$t/q.txt"
expect 0 $hd --op=lookup --table="$t/tab.txt" --in="$t/q.txt" --out="$t/l.txt" >/dev/null
[ "$(wc -l <"$t/l.txt")" -eq 206 ] || cli_fail "lookup: $(wc -l <"$t/l.txt") rows for 206 queries"
paste -d' ' "$t/q.txt" "$t/l.txt" | awk '{ f = 3 + 2 * $1 - 5 * $2; d = $3 - f; if (d < 0) d = -d; if (d > 1e-9) { bad++; if (bad < 4) print "row " NR ": " $0 " want " f } }
  END { exit bad > 0 }' >&2 || cli_fail "lookup: not exact on a linear function"
printf '2.000001 1\n' >"$t/qx.txt"
cli_refused "lookup past X1" 'qx\.txt:1: query \(2\.?0*1?, 1\) outside the table' "$t/lx.txt" $hd --op=lookup --table="$t/tab.txt" --in="$t/qx.txt" --out="$t/lx.txt"
printf '0 4.500001\n' >"$t/qy.txt"
cli_refused "lookup past Y1" 'qy\.txt:1: query .* outside the table' "$t/ly.txt" $hd --op=lookup --table="$t/tab.txt" --in="$t/qy.txt" --out="$t/ly.txt"
printf -- '-1.000001 1\n' >"$t/qx0.txt"
cli_refused "lookup before X0" 'qx0\.txt:1: query .* outside the table' "$t/lx0.txt" $hd --op=lookup --table="$t/tab.txt" --in="$t/qx0.txt" --out="$t/lx0.txt"

# ---- limits both sides (cheap: the header check is the only thing that differs)
printf 'table2d 4096 4096 0 1 0 1\n0 1 2\n' >"$t/t24.txt"      # 2^24 entries: the header passes
cli_refused "table of 2^24" 't24\.txt:3: 3 table values, NX \* NY = 16777216' "$t/o24.txt" $hd --op=lookup --table="$t/t24.txt" --in="$t/q.txt" --out="$t/o24.txt"
printf 'table2d 4097 4096 0 1 0 1\n0 1 2\n' >"$t/t24b.txt"     # one column more: refused at the header
cli_refused "table past 2^24" 't24b\.txt:1: NX and NY must be integers >= 2 with NX \* NY <= 16777216' "$t/o24b.txt" $hd --op=lookup --table="$t/t24b.txt" --in="$t/q.txt" --out="$t/o24b.txt"
printf 'table2d 2 2 0 1 0 1\n0 1 2 3\n' >"$t/t2.txt"           # the smallest table, 2 x 2
printf '1 1\n' >"$t/q1.txt"
expect 0 $hd --op=lookup --table="$t/t2.txt" --in="$t/q1.txt" --out="$t/l2.txt" >/dev/null
[ "$(cat "$t/l2.txt")" = 3 ] || cli_fail "a 2 x 2 table at its far corner: '$(cat "$t/l2.txt")', want 3"
printf 'table2d 1 2 0 1 0 1\n0 1\n' >"$t/t1.txt"
cli_refused "table of 1 column" 't1\.txt:1: NX and NY must be integers >= 2' "$t/l1.txt" $hd --op=lookup --table="$t/t1.txt" --in="$t/q1.txt" --out="$t/l1.txt"
# mesh headers: 128 << 24 = 2^31 is too fine; 127 << 24 < 2^31 passes to the table-size check
printf 'amr2d 128 1 24\n0 0 0\n' >"$t/f31.txt"
cli_refused "finest 2^31" 'f31\.txt:1: finest level too large' "$t/nf31.txt" $nb --in="$t/f31.txt" --out="$t/nf31.txt"
printf 'amr2d 127 1 24\n0 0 0\n' >"$t/f30.txt"
cli_refused "finest 2^31 - 2^24" 'f30\.txt:1: the perfect hash table needs' "$t/nf30.txt" $nb --in="$t/f30.txt" --out="$t/nf30.txt"
# --max-mb=1: a mesh file of exactly 10^6 bytes is read, one byte more is not
pad_to() { # FILE BYTES: comment lines until FILE has BYTES bytes
  local f=$1 want=$2 have
  have=$(stat -c %s "$f")
  while [ $((want - have)) -gt 4001 ]; do printf '#%3998s\n' '' >>"$f"; have=$((have + 4000)); done
  [ $((want - have)) -ge 2 ] && printf "#%$((want - have - 2))s\n" '' >>"$f"
}
cp "$t/m4.txt" "$t/mb.txt"; pad_to "$t/mb.txt" 1000000
[ "$(stat -c %s "$t/mb.txt")" -eq 1000000 ] || cli_fail "test setup: the padded mesh has $(stat -c %s "$t/mb.txt") bytes"
expect 0 $nb --in="$t/mb.txt" --out="$t/mb_nb.txt" --max-mb=1 >/dev/null
cmp -s "$t/mb_nb.txt" "$t/m4_want.txt" || cli_fail "--max-mb=1: the 10^6-byte mesh's neighbours"
printf '#\n' >>"$t/mb.txt"; head -c 1000001 "$t/mb.txt" >"$t/mb1.txt"; printf '\n' >>"$t/mb1.txt"; truncate -s 1000001 "$t/mb1.txt"
cli_refused "--max-mb=1, 10^6 + 1 bytes" 'more than the limit' "$t/mb1_nb.txt" $nb --in="$t/mb1.txt" --out="$t/mb1_nb.txt" --max-mb=1
cli_refused "hashdata --max-mb=1, 10^6 + 1 bytes" 'more than the limit' "$t/mb1_s.txt" $hd --op=remap --in="$t/m4.txt" --new="$t/mb1.txt" --values="$t/m4.txt" --out="$t/mb1_s.txt" --max-mb=1

# ---- a write error at the commit: exit 1, one 'write error' line, no output, no .tmp
nofile() { # NAME OUT CMD...: run CMD with a file size limit of 0 (SIGXFSZ ignored: EFBIG)
  local name=$1 o=$2 out rc
  shift 2
  out=$( (trap '' XFSZ; ulimit -f 0; "$@") 2>&1 ); rc=$?
  [ $rc -eq 1 ] || cli_fail "$name under ulimit -f 0: exit $rc, want 1 ($out)"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q '^error: .*write error on .*\.tmp' ||
    cli_fail "$name under ulimit -f 0: want one 'write error' line, got '$out'"
  { [ -e "$o" ] || [ -e "$o.tmp" ]; } && cli_fail "$name under ulimit -f 0: output or .tmp left"
}
nofile "neighbors" "$t/wf_nb.txt" $nb --in="$t/hand.txt" --out="$t/wf_nb.txt"
nofile "hashdata sort" "$t/wf_s.txt" $hd --op=sort --in="$t/keys.txt" --out="$t/wf_s.txt"
nofile "hashdata remap" "$t/wf_r.txt" $hd --op=remap --in="$t/old.txt" --new="$t/new.txt" --values="$t/vals_old.txt" --out="$t/wf_r.txt"
nofile "hashdata lookup" "$t/wf_l.txt" $hd --op=lookup --table="$t/t2.txt" --in="$t/q1.txt" --out="$t/wf_l.txt"
if [ -x sparsegrid/hierarchize ]; then
  awk 'BEGIN { for (i = 0; i < 9; i++) printf "%c%c%c%c", 0, 0, 128, 63 }' >"$t/g3.raw"   # nine 1.0f
  [ "$(stat -c %s "$t/g3.raw")" -eq 36 ] || { LC_ALL=C awk 'BEGIN { for (i = 0; i < 9; i++) printf "%c%c%c%c", 0, 0, 128, 63 }' >"$t/g3.raw"; }
  nofile "hierarchize" "$t/wf_h.raw" sparsegrid/hierarchize --dims=3x3 --tiles=1 --in="$t/g3.raw" --out="$t/wf_h.raw" --quiet
  nofile "hierarchize .npy" "$t/wf_h.npy" sparsegrid/hierarchize --dims=3x3 --tiles=1 --in="$t/g3.raw" --out="$t/wf_h.npy" --quiet
fi
cli_done
