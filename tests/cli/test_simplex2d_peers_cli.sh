#!/usr/bin/env bash
# simplex2d/peers_dat.awk and the committed run beside the authors' gpumaps
# (simplex2d/results-ref/peers/, cited by simplex2d/README.md), no GPU needed:
#   1. each committed .dat is exactly what the script makes of its committed raw text (so no
#      value of it was typed by hand), and it holds one row per timing line of the raw text; the
#      second run's rows of ours are those of the program's own data files committed beside it;
#   2. the SASS says what the README says: every one of gpumaps' test kernels
#      (kernel_test<...>) is 'LDC R1; EXIT', i.e. empty (NOP padding and the self-branch aside);
#   3. bad input (an unknown method or kernel, a line of no known form, no '# gpu:' line, a row
#      short of values, our rows from two revisions): one error line, exit 2, nothing on stdout.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
awkp=simplex2d/peers_dat.awk
p=simplex2d/results-ref/peers

# ---- 1. the committed data files are the script's output (the first run, and the run with our
# map and empty kernels at git c51b60d)
for raw in $p/gpumaps_peer2d_h200.txt $p/gpumaps_peer2d_empty_h200_c51b60d.txt; do
  dat=${raw%.txt}.dat
  expect 0 awk -f "$awkp" "$raw" >"$cli_tmp/out.dat"
  cmp -s "$cli_tmp/out.dat" "$dat" || { cli_fail "$dat differs from 'awk -f $awkp $raw'"; diff "$cli_tmp/out.dat" "$dat" | head -n 6; }
  nraw=$(grep -cE '^(gpumaps |ours [a-z])' "$raw")
  nrows=$(grep -cE '^(gpumaps|ours) ' "$dat")
  [ "$nraw" -gt 0 ] && [ "$nraw" -eq "$nrows" ] || cli_fail "$dat has $nrows rows for $nraw timing lines of $raw"
  grep -q '^# gpu: NVIDIA H200' "$dat" || cli_fail "$dat lacks the source's gpu line"
  grep -q "^# derived: by simplex2d/peers_dat.awk .*: peers/$(basename "$raw")\$" "$dat" || cli_fail "$dat lacks its '# derived:' line"
done
# the second run's rows of ours are those of the program's own data files (ours_h200_c51b60d/)
e=$p/gpumaps_peer2d_empty_h200_c51b60d.txt
nd=0
for d in $p/ours_h200_c51b60d/ours-*-*; do
  k=${d##*/ours-}; r=${k##*-}; k=${k%-*}
  f=$d/simplex2d_fig5_$k.dat
  grep -q '^# git: c51b60d$' "$f" && grep -q '^# gpu: NVIDIA H200' "$f" || cli_fail "$f: not from the H200 at git c51b60d"
  diff <(awk '!/^#/ && $1 ~ /^[0-9]+$/' "$f") <(awk -v k="$k" -v r="rho=$r" '$1 == "ours" && $2 == k && $3 == r { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$e") >/dev/null ||
    cli_fail "$e: the rows of ours $k rho=$r differ from $f"
  nd=$((nd + 1))
done
[ "$nd" -eq 8 ] || cli_fail "$p/ours_h200_c51b60d: $nd data files, want 8 (write, map, empty, dummy at rho = 16, 32)"

# ---- 2. gpumaps' zero-work test kernels are empty: the first run's excerpt (NOP padding and the
# trailing self-branch removed) and the second run's whole cuobjdump output, read without them
for sass in $p/gpumaps_zw32_sass_h200.txt $p/gpumaps_zw32_sass_h200_c51b60d.txt; do
  awk '/Function :/ { f = ($0 ~ /kernel_test/); if (f) { n++; body[n] = "" }; next }
       f && /\/\*[0-9a-f]+\*\// { s = $0; sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", s); sub(/[ \t]*;.*$/, "", s)
                               a = $0; sub(/^[ \t]*\/\*/, "", a); sub(/\*\/.*$/, "", a)
                               if (s == "NOP") next
                               if (s ~ /^BRA 0x/) { t = s; sub(/^BRA 0x/, "", t); while (length(t) < length(a)) t = "0" t; if (t == a) next }
                               body[n] = body[n] s "|" }
       END { if (n == 0) { print "no kernel_test function"; exit 1 }
             for (i = 1; i <= n; i++) if (body[i] != "LDC R1, c[0x0][0x28]|EXIT|") { print "kernel " i ": " body[i]; exit 1 }
             print n " kernel_test functions, each LDC; EXIT" }' "$sass" || cli_fail "$sass: a test kernel is not empty"
done

# ---- 3. bad input
bad() { cli_awk_refused "$awkp" "$@"; } # NAME TEXT: exit 2, one error line, nothing on stdout
cols='ours-columns n rho kernel map median_ms min_ms max_ms blocks_launched\n'
bad method  '# gpu: X\ngpumaps st32 rho=16 N=32768 method=3 ms=1.0\n'
bad kernel  '# gpu: X\ngpumaps st64 rho=16 N=32768 method=1 ms=1.0\n'
bad notnum  '# gpu: X\ngpumaps st32 rho=16 N=32768 method=1 ms=fast\n'
bad form    '# gpu: X\nsomething else\n'
bad nogpu   'gpumaps st32 rho=16 N=32768 method=1 ms=1.0\n'
bad short   "# gpu: X\n${cols}ours write rho=16 32768 16 write bb 1.0 1.0 1.0\n"
bad rho     "# gpu: X\n${cols}ours write rho=32 32768 16 write bb 1.0 1.0 1.0 5\n"
bad twogit  "# gpu: X\n${cols}ours write rho=16 32768 16 write bb 1.0 1.0 1.0 5\nours # git: abc1234\nours write rho=16 32768 16 write rb 1.0 1.0 1.0 5\nours # git: abc1235\n"
bad nocols  '# gpu: X\nours write rho=16 32768 16 write bb 1.0 1.0 1.0 5\n'
# and a good one of each form passes
printf '# gpu: X\ngpumaps zw32 rho=32 N=64 method=4 ms=0.5\n%bours dummy rho=32 64 32 dummy recursive 0.7 0.6 0.8 3\nours # git: abc1234\n' "$cols" >"$cli_tmp/good.txt"
out=$(expect 0 awk -f "$awkp" "$cli_tmp/good.txt")
printf '%s\n' "$out" | grep -qx 'gpumaps zw32 zero recursive 32 64 4 hadouken 0.5 nan nan nan' || cli_fail "good input: no gpumaps row"
printf '%s\n' "$out" | grep -qx 'ours dummy zero recursive 32 64 - recursive 0.7 0.6 0.8 3' || cli_fail "good input: no ours row"
cli_done
