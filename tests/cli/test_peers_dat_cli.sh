#!/usr/bin/env bash
# common/peers_dat.awk and the committed side-by-side run with the authors' gpumaps
# (simplex3d, fractals and simplex2d results-ref/peers/, cited by their READMEs), no GPU needed:
#   1. each committed .dat is exactly what the script makes of its committed raw text (so no
#      value of it was typed by hand), with one row per gpumaps timing or check line and per
#      full row of ours (fractals' best-rho summary rows add none);
#   2. the SASS excerpts say what the READMEs say: every static count of sass/counts.txt is the
#      excerpt's number of instructions (NOP padding left out); gpumaps' 3D zero-work hadouken
#      and our empty kernel do no work (no load, store or branch but the exits and the final
#      self-branch); on a block above the diagonal gpumaps' fractal bbox exits after 5
#      instructions and our bb-skip after 8; in 2D gpumaps' hadouken store kernel and our
#      recursive map at m = 2^k are branch-free (no BRA but the final self-branch); the H100 run's
#      sass-h100/ copies are byte for byte those of the H200 run, and its paths.txt gives the two
#      path lengths walked here;
#   3. bad input (a line of no known form, a gpumaps line without rho= or ms=, no '# gpu:' line,
#      no size for the gpumaps rows, an ours row before its columns or short of values, our rows
#      from two revisions, a kernel or rho column that disagrees with its block, a summary row
#      no full row confirms): one error line, exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
awkp=common/peers_dat.awk

# ---- 1. the committed data files are the script's output
for raw in simplex3d/results-ref/peers/gpumaps_peer3d_h200.txt \
           simplex3d/results-ref/peers/gpumaps_peer3d_h100.txt \
           fractals/results-ref/peers/gpumaps_peer_fractals_h200.txt \
           fractals/results-ref/peers/gpumaps_peer_fractals_h100.txt \
           simplex2d/results-ref/peers/gpumaps_peer2d_rho32_h200_afacf29.txt \
           simplex2d/results-ref/peers/gpumaps_peer2d_rho32_h100_2144e97.txt \
           simplex3d/results-ref/peers/gpumaps_peer3d_h100_791b176.txt \
           simplex3d/results-ref/peers/gpumaps_peer3d_rho2_h100_791b176.txt \
           fractals/results-ref/peers/gpumaps_peer_fractals_h100_791b176.txt \
           simplex2d/results-ref/peers/gpumaps_peer2d_rho32_h100_791b176.txt; do
  dat=${raw%.txt}.dat
  expect 0 awk -f "$awkp" "$raw" >"$cli_tmp/out.dat"
  cmp -s "$cli_tmp/out.dat" "$dat" || { cli_fail "$dat differs from 'awk -f $awkp $raw'"; diff "$cli_tmp/out.dat" "$dat" | head -n 6; }
  # rows: gpumaps timing and check lines, and ours' data lines of blocks with min_ms
  want=$(awk '/^(gpumaps|check gpumaps) / { n++; next }
              /^ours [^ ]+ rho=[0-9]+(:| eval=[a-z]+:) skipped / { next }   # left out by the time guard: no row
              $1 == "ours" { s = $0; sub(/^ours [^ ]+ rho=[0-9]+ (eval=[a-z]+ )?/, "", s)
                             if (s ~ /^columns: /) { full = (s ~ / min_ms /) ; next }
                             if (s ~ /^(cmd:|#)/) next
                             if (full) n++ }
              END { print n + 0 }' "$raw")
  got=$(grep -cE '^(gpumaps|ours) ' "$dat")
  [ "$want" -gt 0 ] && [ "$want" -eq "$got" ] || cli_fail "$dat has $got rows for $want timing/check lines of $raw"
  case $raw in *_h100*) card='H100 80GB HBM3';; *) card=H200;; esac   # the GPU the file name says
  grep -q "^# gpu: NVIDIA $card" "$dat" || cli_fail "$dat lacks the source's gpu line (NVIDIA $card)"
  grep -q "^# derived: by $awkp .*: peers/$(basename "$raw")\$" "$dat" || cli_fail "$dat lacks its '# derived:' line"
done
# the rows the READMEs lean on, as the raw text has them
d3=simplex3d/results-ref/peers/gpumaps_peer3d_h200.dat
grep -qx 'gpumaps regular-store - hadouken 8 1024 ok 0.37757 0.374398 0.377782 3 nan' "$d3" || cli_fail "$d3: their hadouken store row"
grep -qx 'gpumaps check-ijk - lambda 4 1024 failed nan nan nan nan 186' "$d3" || cli_fail "$d3: their ijk check at rho = 4"
df=fractals/results-ref/peers/gpumaps_peer_fractals_h200.dat
[ "$(grep -c '^gpumaps char - .* 32 65536 skipped ' "$df")" -eq 4 ] || cli_fail "$df: their rho = 32 lambda and three tensor-core rows are skipped"
dh=fractals/results-ref/peers/gpumaps_peer_fractals_h100.dat
[ "$(grep -c '^gpumaps char - \(lambda\|tensor-core-method-[346]\) 32 65536 ok ' "$dh")" -eq 4 ] || cli_fail "$dh: their rho = 32 lambda and three tensor-core rows are timed"
grep -q '^gpumaps .* skipped ' "$dh" && cli_fail "$dh: a skipped row"
grep -qx 'ours sw - bb-skip 32 65536 ok 5.596032 5.594048 5.607520 1 nan' "$dh" || cli_fail "$dh: our bb-skip row at rho = 32"
# the H100 run at git 791b176: their bbox and our shortened bb-skip in one session; the 3D run's
# rho = 2 part left out by its time guard (notes, no rows), measured by a second run
d7=fractals/results-ref/peers/gpumaps_peer_fractals_h100_791b176.dat
grep -qx 'gpumaps char - bbox 32 65536 ok 5.0310 5.0310 5.0310 1 nan' "$d7" || cli_fail "$d7: their bbox row at rho = 32"
grep -qx 'ours sw - bb-skip 32 65536 ok 5.037184 5.033568 5.080384 1 nan' "$d7" || cli_fail "$d7: our bb-skip row at rho = 32"
d8=simplex3d/results-ref/peers/gpumaps_peer3d_h100_791b176.dat
[ "$(grep -c '^# note: ours .* rho=2 .*: skipped$' "$d8")" -eq 7 ] || cli_fail "$d8: the seven skipped runs of ours at rho = 2 as notes"
grep -q '^ours .* 2 1024 ok ' "$d8" && cli_fail "$d8: a row of ours at rho = 2"

# ---- 2. the SASS excerpts
sass_of() {   # NAME -> the excerpt's path in one of the three peers folders
  local p
  for p in simplex3d/results-ref/peers/sass fractals/results-ref/peers/sass simplex2d/results-ref/peers; do
    [ -f "$p/$1.txt" ] && { echo "$p/$1.txt"; return; }
  done
}
instr() { grep -E '^[[:space:]]*/\*[0-9a-f]+\*/' "$1" | grep -v 'NOP' | sed -E 's|^[[:space:]]*/\*([0-9a-f]+)\*/[[:space:]]*|\1 |; s|[[:space:]]*;.*$||'; }
counts=simplex3d/results-ref/peers/sass/counts.txt
nc=0
while IFS= read -r line; do
  name=${line%%:*}; claimed=$(printf '%s\n' "$line" | sed -nE 's/^[^:]+: ([0-9]+) instructions .*/\1/p')
  f=$(sass_of "$name")
  [ -n "$f" ] || { cli_fail "$counts names $name, which has no excerpt"; continue; }
  [ "$(instr "$f" | wc -l)" -eq "$claimed" ] || cli_fail "$f: $(instr "$f" | wc -l) instructions, $counts says $claimed"
  nc=$((nc + 1))
done <"$counts"
[ "$nc" -ge 20 ] || cli_fail "$counts: only $nc counts read"
# no work: only LDC R1, special-register reads, uniform constants/shifts, compares, exits, and the
# final self-branch
for f in $(sass_of gpumaps3d_hadouken_zerowork_rho8) $(sass_of gpumaps3d_hadouken_zerowork_rho4) \
         $(sass_of ours3d_empty_rho8) $(sass_of ours3d_empty_rho4); do
  instr "$f" | awk '{ a = $1; $1 = ""; s = substr($0, 2) }
    s ~ /^(LDC R1, |S2R |S2UR |ULDC |USHF|ISETP|(@!?P[0-6] )?EXIT$)/ { next }
    s ~ /^BRA 0x/ { t = s; sub(/^BRA 0x/, "", t); while (length(t) < length(a)) t = "0" t; if (t == a) next }
    { print "does work: " s; bad = 1 } END { exit bad }' || cli_fail "$f: not an empty kernel"
done
# the path of a block above the diagonal: from the first instruction, every predicated branch
# or exit met is taken (bx > by is the first predicate of both kernels; ours then meets its
# coverage flag, still 0, at the exit)
path_len() {
  instr "$1" | awk '{ a[NR] = $1; $1 = ""; s[NR] = substr($0, 2); idx[a[NR]] = NR }
    END { i = 1; n = 0
          while (i <= NR && n < 1000) {
            n++
            if (s[i] ~ /EXIT$/ && (s[i] ~ /^@/ || s[i] == "EXIT")) { print n; exit }
            if (s[i] ~ /^@!?P[0-6] BRA 0x/) { t = s[i]; sub(/^.*BRA 0x/, "", t); while (length(t) < 4) t = "0" t
                                               if (!(t in idx)) { print "no target " t; exit 1 }; i = idx[t]; continue }
            i++
          }
          print "no exit"; exit 1 }'
}
[ "$(path_len "$(sass_of gpumaps_fractals_bbox_rho32)")" = 5 ] || cli_fail "gpumaps' bbox: $(path_len "$(sass_of gpumaps_fractals_bbox_rho32)") instructions to its exit, want 5"
[ "$(path_len "$(sass_of ours_fractals_sw_bb_skip_map)")" = 8 ] || cli_fail "our bb-skip: $(path_len "$(sass_of ours_fractals_sw_bb_skip_map)") instructions to its exit, want 8"
# branch-free: no BRA but the final self-branch
for n in gpumaps2d_hadouken_store_rho32 ours2d_recursive-pow2_write; do
  f=$(sass_of "$n")
  [ "$(instr "$f" | grep -c 'BRA')" -eq 1 ] &&
    instr "$f" | tail -n 1 | awk '{ t = $3; sub(/^0x/, "", t); while (length(t) < length($1)) t = "0" t; exit !($2 == "BRA" && t == $1) }' ||
    cli_fail "$f: a branch besides the final self-branch"
done

# the H100 run's excerpts (sass-h100/ beside each sass/) are byte for byte those of the H200 run:
# the same nvcc and sm_90, so the SASS does not depend on the card
nh=0
for d in simplex3d/results-ref/peers/sass-h100 fractals/results-ref/peers/sass-h100 simplex2d/results-ref/peers/sass-h100; do
  for f in "$d"/*.txt; do
    b=$(basename "$f"); [ "$b" = paths.txt ] && continue
    h=$(sass_of "${b%.txt}"); [ "$b" = counts.txt ] && h=$counts
    [ -n "$h" ] && cmp -s "$f" "$h" || cli_fail "$f differs from the H200 run's ${h:-(none)}"
    nh=$((nh + 1))
  done
done
[ "$nh" -eq 29 ] || cli_fail "sass-h100/: $nh excerpts and counts, want 29"
# the path lengths the H100 run's paths.txt gives for a block above the diagonal are the walk above
paths=simplex3d/results-ref/peers/sass-h100/paths.txt
grep -q '^gpumaps_fractals_bbox_rho32 | skipped-block(bx>by) | 5 instructions;' "$paths" || cli_fail "$paths: their bbox's skipped block is not 5 instructions"
grep -q '^ours_fractals_sw_bb_skip_map | skipped-block(bx>by) | 8 instructions;' "$paths" || cli_fail "$paths: our bb-skip's skipped block is not 8 instructions"

# ---- 3. bad input
bad() { cli_awk_refused "$awkp" "$@"; } # NAME TEXT: exit 2, one error line, nothing on stdout
hd='# x vs gpumaps (N = 64)\n# gpu: X\n'
cols='ours write rho=8 columns: kernel n rho map median_ms min_ms max_ms\n'
good_g='gpumaps st rho=8 bbox: ms=1.0 min=0.9 max=1.1 n=3 values=0.9,1.0,1.1 cmd: x\n'
bad form    "${hd}something else\n"
bad norho   "${hd}gpumaps st bbox: ms=1.0 min=0.9 max=1.1 n=3 values=1 cmd: x\n"
bad noms    "${hd}gpumaps st rho=8 bbox: t=1.0 min=0.9 max=1.1 n=3 values=1 cmd: x\n"
bad notnum  "${hd}gpumaps st rho=8 bbox: ms=fast min=0.9 max=1.1 n=3 values=1 cmd: x\n"
bad nogpu   "# x vs gpumaps (N = 64)\n${good_g}"
bad nosize  "# x vs gpumaps\n# gpu: X\n${good_g}"
bad check   "${hd}check gpumaps ijk lambda (method 1) rho=4 N=64: maybe\n"
bad nocols  "${hd}ours write rho=8 64 8 write bb 1.0 0.9 1.1\n"
bad short   "${hd}${cols}ours write rho=8 64 8 bb 1.0 0.9 1.1\n"
bad kernel  "${hd}${cols}ours write rho=8 dummy 64 8 bb 1.0 0.9 1.1\n"
bad rho     "${hd}${cols}ours write rho=8 write 64 4 bb 1.0 0.9 1.1\n"
bad twogit  "${hd}ours write rho=8 # git: abc1234\nours write rho=8 # git: abc1235\n${cols}ours write rho=8 write 64 8 bb 1.0 0.9 1.1\n"
bad summary "${hd}${cols}ours write rho=8 write 64 8 bb 1.0 0.9 1.1\nours write rho=8 columns: n map median_ms\nours write rho=8 64 bb 1.5\n"
# and a good one of each form passes
printf '%b' "${hd}${good_g}gpumaps st rho=16 tensor-core method=3: skipped (time budget) cmd: x\n" \
  "check gpumaps ijk lambda (method 1) rho=4 N=64: FAILED rc=134, wrong cells inside=5 outside=2 [x]\n" \
  "ours write rho=8 eval=block # git: abc1234\n${cols/rho=8/rho=8 eval=block}ours write rho=8 eval=block write 64 8 bb 1.0 0.9 1.1\n" \
  "ours write rho=8 eval=block columns: n map median_ms\nours write rho=8 eval=block 64 bb 1.0\n" \
  "ours sw rho=2: skipped (time budget) cmd: x\nours write rho=2 eval=thread: skipped (time budget) cmd: x\n" >"$cli_tmp/good.txt"
out=$(expect 0 awk -f "$awkp" "$cli_tmp/good.txt")
printf '%s\n' "$out" | grep -qx 'gpumaps st - bbox 8 64 ok 1.0 0.9 1.1 3 nan' || cli_fail "good input: no gpumaps row"
printf '%s\n' "$out" | grep -qx 'gpumaps st - tensor-core-method-3 16 64 skipped nan nan nan nan nan' || cli_fail "good input: no skipped row"
printf '%s\n' "$out" | grep -qx 'gpumaps check-ijk - lambda 4 64 failed nan nan nan nan 7' || cli_fail "good input: no check row"
printf '%s\n' "$out" | grep -qx 'ours write block bb 8 64 ok 1.0 0.9 1.1 1 nan' || cli_fail "good input: no ours row"
[ "$(printf '%s\n' "$out" | grep -c '^ours ')" -eq 1 ] || cli_fail "good input: the summary row added a row"
printf '%s\n' "$out" | grep -q '^# ours: rows built at git abc1234 ' || cli_fail "good input: no '# ours:' line"
printf '%s\n' "$out" | grep -qx '# note: ours sw rho=2: skipped' || cli_fail "good input: a skipped run of ours (no --eval) is not a note"
printf '%s\n' "$out" | grep -qx '# note: ours write rho=2 eval=thread: skipped' || cli_fail "good input: a skipped run of ours is not a note"
cli_done
