#!/usr/bin/env bash
# Command-line contract of sparsegrid/hierarchize (the users' tool) and sparsegrid/sparsegrid:
# --help; bad input (bad dims, wrong file size, missing file, bad options) -> one error line,
# exit 2, no output file; --backend=cpu works without a GPU: constant tiles give surpluses
# 1 at the corners and 0 elsewhere, hierarchize + --inverse returns the input (fp32
# tolerance 1e-5 on values in [1, 2)); --backend=gpu equals --backend=cpu bitwise, or exits
# 77 (SKIP) when there is no GPU.
. "$(dirname "$0")/lib.sh"
prog=sparsegrid/hierarchize
exp=sparsegrid/sparsegrid
cli_need "make -C sparsegrid" $prog $exp
tmp=$cli_tmp
lines() { printf '%s\n' "$1" | grep -c .; }
# N floats in [1, 2): bytes (x, y, 0x80|z, 0x3f) little-endian, deterministic
mkfloats() {
  local n=$1 f=$2 i fmt=""
  for ((i = 0; i < n; i++)); do
    fmt+=$(printf '\\%03o\\%03o\\%03o\\077' $(( (i * 37) % 256 )) $(( (i * 11 + 5) % 256 )) $(( 128 + (i * 7) % 128 )))
    if (( i % 512 == 511 || i == n - 1 )); then printf "$fmt" >> "$f"; fmt=""; fi
  done
}
floats() { od -An -v -f "$1" | tr -s ' \t' '\n\n' | grep -v '^$'; }

# --help, option errors
expect 0 "$prog" --help | grep -q -- '--dims=V' || { echo "FAILED: --help lacks --dims"; fail=1; }
expect 2 "$prog" >/dev/null
expect 2 "$prog" --bogus >/dev/null
expect 2 "$prog" --dims=33x33 --tiles=0 --in=x --out=y >/dev/null
expect 2 "$prog" --dims=33x33 --tiles=1 --in=x --out=y --backend=tpu >/dev/null
# a size too large says so (it used to say "malformed"); a wrong size says which
expect 2 "$prog" --dims=1099511627777 --tiles=1 --in=x --out=y | grep -q "too large" || cli_fail "--dims=2^40+1: too large"
expect 2 "$prog" --dims=33x34 --tiles=1 --in=x --out=y | grep -q "34 of dimension 1 is not 2^l + 1" || cli_fail "--dims=33x34"

# bad input: one line, exit 2, output not created
mkfloats 1089 "$tmp/one33.raw"       # one 33x33 tile
mkfloats 49 "$tmp/one49.raw"         # one sparse grid 2:3 (49 points)
for args in "--dims=10x10 --tiles=1 --in=$tmp/one33.raw" \
            "--dims=33x32 --tiles=1 --in=$tmp/one33.raw" \
            "--dims=9x9x5x5x3 --tiles=1 --in=$tmp/one33.raw" \
            "--dims=33x33x --tiles=1 --in=$tmp/one33.raw" \
            "--dims=33x33 --tiles=2 --in=$tmp/one33.raw" \
            "--dims=17x17 --tiles=1 --in=$tmp/one33.raw" \
            "--dims=33x33 --tiles=1 --in=$tmp/missing.raw" \
            "--dims=33x33 --tiles=1 --in=$tmp" \
            "--dims=33x33 --tiles=1 --in=$tmp/one33.raw --backend=gpu --device=99 --out=$tmp/one33.raw"; do
  rm -f "$tmp/out.raw"
  msg=$(expect 2 "$prog" $args --out=$tmp/out.raw)
  [ "$(lines "$msg")" -le 2 ] || { echo "FAILED: more than one line for: $args"; echo "$msg"; fail=1; }
  printf '%s\n' "$msg" | grep -q '^error: ' || { echo "FAILED: no 'error:' line for: $args"; fail=1; }
  [ -e "$tmp/out.raw" ] && { echo "FAILED: output created for: $args"; fail=1; }
  ls "$tmp"/out.raw.tmp >/dev/null 2>&1 && { echo "FAILED: temporary output left for: $args"; fail=1; }
done

# --out naming --in through another path, or an existing non-file: exit 2, input untouched
cp "$tmp/one33.raw" "$tmp/keep.raw"
mkdir -p "$tmp/outdir"
for o in "$tmp/./one33.raw" "$tmp/outdir"; do
  msg=$(expect 2 "$prog" --dims=33x33 --tiles=1 --in="$tmp/one33.raw" --out="$o")
  printf '%s\n' "$msg" | grep -q '^error: ' || { echo "FAILED: no 'error:' line for --out=$o"; fail=1; }
  cmp -s "$tmp/one33.raw" "$tmp/keep.raw" || { echo "FAILED: --out=$o changed the input"; fail=1; }
  ls "$o".tmp >/dev/null 2>&1 && { echo "FAILED: temporary output left for --out=$o"; fail=1; }
done

# non-finite input: refused with the count and the first position (exit 2, no
# output), accepted only with --allow-nonfinite; an all-NaN file too
{ head -c 400 "$tmp/one33.raw"; printf '\000\000\300\177'; head -c 2000 "$tmp/one33.raw" | tail -c 1596;
  printf '\000\000\200\177'; head -c 4356 "$tmp/one33.raw" | tail -c 2352; } > "$tmp/nan.raw"   # NaN at 100, +Inf at 500
[ "$(stat -c %s "$tmp/nan.raw")" = 4356 ] || { echo "FAILED: test input nan.raw has the wrong size"; fail=1; }
rm -f "$tmp/nan.out"
msg=$(expect 2 "$prog" --dims=33x33 --tiles=1 --in="$tmp/nan.raw" --out="$tmp/nan.out")
printf '%s\n' "$msg" | grep -q '^error: .*2 non-finite.*value 100 ' || { echo "FAILED: non-finite input not reported (count 2, first 100): $msg"; fail=1; }
[ "$(lines "$msg")" -eq 1 ] || { echo "FAILED: more than one line for non-finite input"; fail=1; }
[ -e "$tmp/nan.out" ] && { echo "FAILED: output written for non-finite input"; fail=1; }
for ((i = 0; i < 1089; i++)); do printf '\000\000\300\177'; done > "$tmp/allnan.raw"
msg=$(expect 2 "$prog" --dims=33x33 --tiles=1 --in="$tmp/allnan.raw" --out="$tmp/nan.out")
printf '%s\n' "$msg" | grep -q '^error: .*1089 non-finite.*value 0 ' || { echo "FAILED: all-NaN input not reported: $msg"; fail=1; }
expect 0 "$prog" --dims=33x33 --tiles=1 --in="$tmp/nan.raw" --out="$tmp/nan.out" --allow-nonfinite --quiet >/dev/null
[ -f "$tmp/nan.out" ] || { echo "FAILED: --allow-nonfinite wrote no output"; fail=1; }

# constant tiles: d-linear, so only the corners keep a (unit) surplus
: > "$tmp/ones.raw"
for ((i = 0; i < 2 * 1089; i++)); do printf '\000\000\200\077'; done > "$tmp/ones.raw"
expect 0 "$prog" --dims=33x33 --tiles=2 --in="$tmp/ones.raw" --out="$tmp/ones.h" --backend=cpu --quiet >/dev/null
if [ -f "$tmp/ones.h" ]; then
  read -r nz sum <<<"$(floats "$tmp/ones.h" | awk '$1 != 0 { nz++; s += $1 } END { print nz + 0, s + 0 }')"
  [ "$nz" = 8 ] && [ "$sum" = 8 ] || { echo "FAILED: constant tiles: $nz nonzero surpluses summing to $sum (want 8, 8)"; fail=1; }
else echo "FAILED: no output for constant tiles"; fail=1; fi

# round trip on the CPU, 3 tiles of 9x9x5x5 (anisotropic 4D)
mkfloats 6075 "$tmp/u.raw"
expect 0 "$prog" --dims=9x9x5x5 --tiles=3 --in="$tmp/u.raw" --out="$tmp/c.raw" --quiet >/dev/null
expect 0 "$prog" --dims=9x9x5x5 --tiles=3 --in="$tmp/c.raw" --out="$tmp/u2.raw" --inverse --quiet >/dev/null
if [ -f "$tmp/u2.raw" ]; then
  cmp -s "$tmp/u.raw" "$tmp/c.raw" && { echo "FAILED: hierarchization changed nothing"; fail=1; }
  bad=$(paste <(floats "$tmp/u.raw") <(floats "$tmp/u2.raw") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) b++ } END { print b + 0 }')
  [ "$bad" = 0 ] || { echo "FAILED: round trip: $bad values off by more than 1e-5"; fail=1; }
else echo "FAILED: round trip produced no file"; fail=1; fi

# the GPU backend equals the CPU backend bitwise (or SKIP without a GPU)
"$prog" --dims=9x9x5x5 --tiles=3 --in="$tmp/u.raw" --out="$tmp/cg.raw" --backend=gpu --quiet > "$tmp/gpu.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  grep -q '^SKIP' "$tmp/gpu.log" || { echo "FAILED: exit 77 without a SKIP line"; fail=1; }
  [ -e "$tmp/cg.raw" ] && { echo "FAILED: output created without a GPU"; fail=1; }
  echo "note: no GPU, --backend=gpu skipped (exit 77)"
elif [ $rc -eq 0 ]; then
  cmp "$tmp/c.raw" "$tmp/cg.raw" || { echo "FAILED: gpu hierarchization != cpu"; fail=1; }
  "$prog" --dims=9x9x5x5 --tiles=3 --in="$tmp/c.raw" --out="$tmp/ug.raw" --backend=gpu --inverse --quiet
  cmp "$tmp/u2.raw" "$tmp/ug.raw" || { echo "FAILED: gpu dehierarchization != cpu"; fail=1; }
  "$prog" --dims=33x33 --tiles=1 --in="$tmp/one33.raw" --out="$tmp/g33.raw" --backend=gpu --quiet
  "$prog" --dims=33x33 --tiles=1 --in="$tmp/one33.raw" --out="$tmp/c33.raw" --backend=cpu --quiet
  cmp "$tmp/g33.raw" "$tmp/c33.raw" || { echo "FAILED: gpu != cpu for 33x33"; fail=1; }
else
  echo "FAILED: --backend=gpu exit $rc"; cat "$tmp/gpu.log"; fail=1
fi

# sparse grids (--sparse=D:N, subspace order) and double precision
# N doubles in [1, 2): six low bytes, then 0xF0 | 4 mantissa bits, then 0x3f (little-endian)
mkdoubles() {
  local n=$1 f=$2 i fmt=""
  for ((i = 0; i < n; i++)); do
    fmt+=$(printf '\\%03o\\%03o\\%03o\\%03o\\%03o\\%03o\\%03o\\077' $(( (i * 37) % 256 )) $(( (i * 11 + 5) % 256 )) \
      $(( (i * 7) % 256 )) $(( (i * 13 + 1) % 256 )) $(( (i * 29 + 3) % 256 )) $(( (i * 3) % 256 )) $(( 240 + (i * 5) % 16 )))
    if (( i % 256 == 255 || i == n - 1 )); then printf "$fmt" >> "$f"; fmt=""; fi
  done
}
doubles() { od -An -v -t f8 "$1" | tr -s ' \t' '\n\n' | grep -v '^$'; }
for args in "--sparse=7:2" "--sparse=2:0" "--sparse=2x3" "--sparse=2:3 --dims=9x9" "--sparse=2:4" \
            "--sparse=2:3 --precision=double" "--sparse=2:3 --precision=half"; do
  rm -f "$tmp/out.raw"
  msg=$(expect 2 "$prog" $args --tiles=1 --in="$tmp/one49.raw" --out="$tmp/out.raw" 2>&1)
  printf '%s\n' "$msg" | grep -q '^error: ' || { echo "FAILED: no 'error:' line for: $args"; fail=1; }
  [ -e "$tmp/out.raw" ] && { echo "FAILED: output created for: $args"; fail=1; }
done < /dev/null
# constant sparse grids (d = 2, n = 3: 49 points; d = 6, n = 2: 3645): only the 2^d corner
# surpluses are nonzero, each exactly 1 (float and double)
for ((i = 0; i < 2 * 49; i++)); do printf '\000\000\200\077'; done > "$tmp/ones49.raw"
expect 0 "$prog" --sparse=2:3 --tiles=2 --in="$tmp/ones49.raw" --out="$tmp/ones49.h" --quiet >/dev/null
read -r nz sum <<<"$(floats "$tmp/ones49.h" | awk '$1 != 0 { nz++; s += $1 } END { print nz + 0, s + 0 }')"
[ "$nz" = 8 ] && [ "$sum" = 8 ] || { echo "FAILED: constant sparse grids 2:3: $nz nonzero surpluses summing to $sum (want 8, 8)"; fail=1; }
for ((i = 0; i < 3645; i++)); do printf '\000\000\000\000\000\000\360\077'; done > "$tmp/ones6.raw"
expect 0 "$prog" --sparse=6:2 --tiles=1 --precision=double --in="$tmp/ones6.raw" --out="$tmp/ones6.h" --quiet >/dev/null
read -r nz sum <<<"$(doubles "$tmp/ones6.h" | awk '$1 != 0 { nz++; s += $1 } END { print nz + 0, s + 0 }')"
[ "$nz" = 64 ] && [ "$sum" = 64 ] || { echo "FAILED: constant sparse grid 6:2 double: $nz nonzero surpluses summing to $sum (want 64, 64)"; fail=1; }
# round trips: sparse 6:2 in double (1e-13), full 9x9 in double (1e-13), sparse 3:4 in float (1e-5)
mkdoubles 7290 "$tmp/sd.raw"
expect 0 "$prog" --sparse=6:2 --tiles=2 --precision=double --in="$tmp/sd.raw" --out="$tmp/sd.h" --quiet >/dev/null
expect 0 "$prog" --sparse=6:2 --tiles=2 --precision=double --in="$tmp/sd.h" --out="$tmp/sd.u" --inverse --quiet >/dev/null
cmp -s "$tmp/sd.raw" "$tmp/sd.h" && { echo "FAILED: sparse hierarchization changed nothing"; fail=1; }
bad=$(paste <(doubles "$tmp/sd.raw") <(doubles "$tmp/sd.u") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-13) b++ } END { print b + 0 }')
[ "$bad" = 0 ] || { echo "FAILED: sparse double round trip: $bad values off by more than 1e-13"; fail=1; }
mkdoubles 162 "$tmp/fd.raw"
expect 0 "$prog" --dims=9x9 --tiles=2 --precision=double --in="$tmp/fd.raw" --out="$tmp/fd.h" --quiet >/dev/null
expect 0 "$prog" --dims=9x9 --tiles=2 --precision=double --in="$tmp/fd.h" --out="$tmp/fd.u" --inverse --quiet >/dev/null
bad=$(paste <(doubles "$tmp/fd.raw") <(doubles "$tmp/fd.u") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-13) b++ } END { print b + 0 }')
[ "$bad" = 0 ] || { echo "FAILED: full-grid double round trip: $bad values off by more than 1e-13"; fail=1; }
mkfloats 1779 "$tmp/sf.raw"   # 3 grids of 3:4 (593 points)
expect 0 "$prog" --sparse=3:4 --tiles=3 --in="$tmp/sf.raw" --out="$tmp/sf.h" --quiet >/dev/null
expect 0 "$prog" --sparse=3:4 --tiles=3 --in="$tmp/sf.h" --out="$tmp/sf.u" --inverse --quiet >/dev/null
bad=$(paste <(floats "$tmp/sf.raw") <(floats "$tmp/sf.u") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-5) b++ } END { print b + 0 }')
[ "$bad" = 0 ] || { echo "FAILED: sparse float round trip: $bad values off by more than 1e-5"; fail=1; }
# sparse grids on the GPU == CPU bitwise (float and double), or SKIP
"$prog" --sparse=3:4 --tiles=3 --in="$tmp/sf.raw" --out="$tmp/sfg.h" --backend=gpu --quiet > "$tmp/gpu2.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  cmp "$tmp/sf.h" "$tmp/sfg.h" || { echo "FAILED: sparse gpu != cpu (float)"; fail=1; }
  "$prog" --sparse=6:2 --tiles=2 --precision=double --in="$tmp/sd.raw" --out="$tmp/sdg.h" --backend=gpu --quiet
  cmp "$tmp/sd.h" "$tmp/sdg.h" || { echo "FAILED: sparse gpu != cpu (double)"; fail=1; }
  "$prog" --sparse=6:2 --tiles=2 --precision=double --in="$tmp/sd.h" --out="$tmp/sdg.u" --backend=gpu --inverse --quiet
  cmp "$tmp/sd.u" "$tmp/sdg.u" || { echo "FAILED: sparse gpu dehierarchization != cpu (double)"; fail=1; }
elif [ $rc -ne 77 ]; then echo "FAILED: sparse --backend=gpu exit $rc"; cat "$tmp/gpu2.log"; fail=1; fi

# full grids of 5 and 6 dimensions (computed in subspace order): constant tiles keep only the
# 2^d corner surpluses; a double round trip; 7 dimensions refused; the GPU (5-6 dimensions,
# and double in 4) equals the CPU bitwise, or SKIP
for ((i = 0; i < 2 * 243; i++)); do printf '\000\000\200\077'; done > "$tmp/ones5.raw"
expect 0 "$prog" --dims=3x3x3x3x3 --tiles=2 --in="$tmp/ones5.raw" --out="$tmp/ones5.h" --quiet >/dev/null
read -r nz sum <<<"$(floats "$tmp/ones5.h" | awk '$1 != 0 { nz++; s += $1 } END { print nz + 0, s + 0 }')"
[ "$nz" = 64 ] && [ "$sum" = 64 ] || { echo "FAILED: constant 3^5 tiles: $nz nonzero surpluses summing to $sum (want 64, 64)"; fail=1; }
expect 2 "$prog" --dims=3x3x3x3x3x3x3 --tiles=1 --in="$tmp/ones5.raw" --out="$tmp/x7.raw" >/dev/null
mkdoubles 1458 "$tmp/f6.raw"   # 2 tiles of 3x3x3x3x3x3 (729 points)
expect 0 "$prog" --dims=3x3x3x3x3x3 --tiles=2 --precision=double --in="$tmp/f6.raw" --out="$tmp/f6.h" --quiet >/dev/null
expect 0 "$prog" --dims=3x3x3x3x3x3 --tiles=2 --precision=double --in="$tmp/f6.h" --out="$tmp/f6.u" --inverse --quiet >/dev/null
bad=$(paste <(doubles "$tmp/f6.raw") <(doubles "$tmp/f6.u") | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 1e-13) b++ } END { print b + 0 }')
[ "$bad" = 0 ] || { echo "FAILED: 6D double round trip: $bad values off by more than 1e-13"; fail=1; }
mkdoubles 405 "$tmp/f4.raw"    # one 9x5x9 tile (405 points)
expect 0 "$prog" --dims=9x5x9 --tiles=1 --precision=double --in="$tmp/f4.raw" --out="$tmp/f4.h" --quiet >/dev/null
"$prog" --dims=3x3x3x3x3x3 --tiles=2 --precision=double --in="$tmp/f6.raw" --out="$tmp/f6g.h" --backend=gpu --quiet > "$tmp/gpu3.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
  cmp "$tmp/f6.h" "$tmp/f6g.h" || { echo "FAILED: 6D double gpu != cpu"; fail=1; }
  "$prog" --dims=3x3x3x3x3x3 --tiles=2 --precision=double --in="$tmp/f6.h" --out="$tmp/f6g.u" --backend=gpu --inverse --quiet
  cmp "$tmp/f6.u" "$tmp/f6g.u" || { echo "FAILED: 6D double gpu dehierarchization != cpu"; fail=1; }
  "$prog" --dims=9x5x9 --tiles=1 --precision=double --in="$tmp/f4.raw" --out="$tmp/f4g.h" --backend=gpu --quiet
  cmp "$tmp/f4.h" "$tmp/f4g.h" || { echo "FAILED: 3D double gpu != cpu"; fail=1; }
  "$prog" --dims=3x3x3x3x3 --tiles=2 --in="$tmp/ones5.raw" --out="$tmp/ones5g.h" --backend=gpu --quiet
  cmp "$tmp/ones5.h" "$tmp/ones5g.h" || { echo "FAILED: 5D float gpu != cpu"; fail=1; }
elif [ $rc -ne 77 ]; then echo "FAILED: 6D --backend=gpu exit $rc"; cat "$tmp/gpu3.log"; fail=1; fi

# .npy input/output (numpy's format, sparsegrid/npy.h)
# mknpy DESCR FORTRAN SHAPE DATA OUT [MAJOR]: a version MAJOR (default 1) header + DATA
mknpy() {
  local dict="{'descr': '$1', 'fortran_order': $2, 'shape': $3, }" major=${6:-1}
  local n=${#dict} total hlen pre=10
  [ "$major" = 1 ] || pre=12    # versions 2.0 and 3.0: a 4-byte header length
  total=$(( (pre + n + 1 + 63) / 64 * 64 )); hlen=$((total - pre))
  { printf "\\223NUMPY\\$(printf %03o "$major")\\000"
    printf "\\$(printf %03o $((hlen & 255)))\\$(printf %03o $((hlen >> 8)))"
    [ "$pre" = 12 ] && printf '\000\000' 
    printf '%s' "$dict"; printf "%*s" $((hlen - 1 - n)) ""; printf '\n'; cat "$4"; } > "$5"
}
mknpy '<f4' False '(2, 33, 33)' "$tmp/ones.raw" "$tmp/ones.npy"
expect 0 "$prog" --dims=33x33 --tiles=2 --in="$tmp/ones.npy" --out="$tmp/onesn.raw" --quiet >/dev/null
cmp -s "$tmp/onesn.raw" "$tmp/ones.h" || { echo "FAILED: .npy input != raw input"; fail=1; }
expect 0 "$prog" --dims=33x33 --tiles=2 --in="$tmp/ones.raw" --out="$tmp/onesn.npy" --quiet >/dev/null
[ "$(head -c 6 "$tmp/onesn.npy" | od -An -c | tr -d ' ')" = '223NUMPY' ] || { echo "FAILED: no .npy magic in the output"; fail=1; }
head -c 128 "$tmp/onesn.npy" | grep -q "'shape': (2, 33, 33)" || { echo "FAILED: .npy output shape"; fail=1; }
tail -c 8712 "$tmp/onesn.npy" | cmp -s - "$tmp/ones.h" || { echo "FAILED: .npy output data != raw output"; fail=1; }
[ $(( $(stat -c %s "$tmp/onesn.npy") % 64 )) = $(( 8712 % 64 )) ] || { echo "FAILED: .npy header not padded to 64 bytes"; fail=1; }
# .npy round trip (our own output read back), 1-tuple shape, version 2.0 header, double
expect 0 "$prog" --dims=33x33 --tiles=2 --in="$tmp/onesn.npy" --out="$tmp/onesu.npy" --inverse --quiet >/dev/null
tail -c 8712 "$tmp/onesu.npy" | cmp -s - "$tmp/ones.raw" || { echo "FAILED: .npy round trip of constant tiles"; fail=1; }
mknpy '<f8' False '(7290,)' "$tmp/sd.raw" "$tmp/sd2.npy" 2
expect 0 "$prog" --sparse=6:2 --tiles=2 --precision=double --in="$tmp/sd2.npy" --out="$tmp/sd2h.raw" --quiet >/dev/null
cmp -s "$tmp/sd2h.raw" "$tmp/sd.h" || { echo "FAILED: .npy v2 double input != raw"; fail=1; }
# bad .npy input: one error line, exit 2, no output
cp "$tmp/ones.raw" "$tmp/bad_magic.npy"
mknpy '<f4' False '(2, 33, 33)' "$tmp/ones.raw" "$tmp/bad_version.npy" 9
mknpy '<i4' False '(2, 33, 33)' "$tmp/ones.raw" "$tmp/bad_int.npy"
mknpy '>f4' False '(2, 33, 33)' "$tmp/ones.raw" "$tmp/bad_endian.npy"
mknpy '<f4' True '(2, 33, 33)' "$tmp/ones.raw" "$tmp/bad_fortran.npy"
mknpy '<f4' False '(2, 33, 32)' "$tmp/ones.raw" "$tmp/bad_shape.npy"
mknpy '<f4' False '(3, 33, 33)' "$tmp/ones.raw" "$tmp/bad_short.npy"
mknpy '<f4' False '(2, 33, 33' "$tmp/ones.raw" "$tmp/bad_tuple.npy"
mknpy '<f4' False '2178' "$tmp/ones.raw" "$tmp/bad_notuple.npy"
mknpy '<f8' False '(1089,)' "$tmp/ones.raw" "$tmp/bad_precision.npy"
head -c 40 "$tmp/ones.npy" > "$tmp/bad_truncated.npy"
printf '\223NUMPY\001\000' > "$tmp/bad_nolen.npy"
{ printf "\\223NUMPY\\001\\000\\100\\000{'descr': '<f4', 'shape': (2, 33, 33), }"; printf '%*s\n' 14 ""; cat "$tmp/ones.raw"; } > "$tmp/bad_nokey.npy"
for b in magic version int endian fortran shape short tuple notuple precision truncated nolen nokey; do
  rm -f "$tmp/out.raw"
  msg=$(expect 2 "$prog" --dims=33x33 --tiles=2 --in="$tmp/bad_$b.npy" --out="$tmp/out.raw")
  [ "$(lines "$msg")" -eq 1 ] || { echo "FAILED: bad .npy ($b): not one line: $msg"; fail=1; }
  printf '%s\n' "$msg" | grep -q '^error: ' || { echo "FAILED: bad .npy ($b): no 'error:' line"; fail=1; }
  [ -e "$tmp/out.raw" ] && { echo "FAILED: output created for bad .npy ($b)"; fail=1; }
done

# the experiment program: options
out=$("$exp" --help 2>&1) || { echo "FAILED: $exp --help"; fail=1; }
printf '%s\n' "$out" | grep -q -- '--exp=V' || { echo "FAILED: $exp --help lacks --exp"; fail=1; }
"$exp" --exp=fig5_4 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAILED: $exp --exp=fig5_4 not exit 2"; fail=1; }
"$exp" --threads=-1 >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAILED: $exp --threads=-1 not exit 2"; fail=1; }
"$exp" --exp=truncation --quick --out="$tmp/res" >/dev/null 2>&1 || { echo "FAILED: $exp --exp=truncation (host only)"; fail=1; }
[ -f "$tmp/res/sparsegrid_figx2_error.dat" ] || { echo "FAILED: no error data file"; fail=1; }


# sparsegrid/sparse_best.awk (the figure's best row per d and family) on the committed H200 run:
# header + 5 d x 4 families, the d = 4 pipe row the README cites, the inverse of the same row;
# a file of another experiment: one error line, exit 2
best=$(awk -f sparsegrid/sparse_best.awk sparsegrid/results-ref/h200-pipe/float/d*/sparsegrid_figx4_sparse_float.dat 2>&1) ||
  cli_fail "sparse_best.awk on the committed H200 float run failed"
[ "$(lines "$best")" -eq 21 ] || cli_fail "sparse_best.awk: $(lines "$best") lines, want 21"
printf '%s\n' "$best" | grep -qx '4 pipe 53.4 53.4 gpu_sparse_pipe_m3_g1_b1_r6 256' || cli_fail "sparse_best.awk: no d = 4 pipe row 53.4 (r6, 256 threads)"
printf '%s\n' "$best" | grep -qx '2 multi 32.8 33.5 gpu_sparse_multi_g1_u4 256' || cli_fail "sparse_best.awk: d = 2 multi row or its inverse wrong"
out=$(awk -f sparsegrid/sparse_best.awk sparsegrid/results-ref/sparsegrid_figx1_bandwidth.dat 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(lines "$out")" -eq 1 ] && printf '%s\n' "$out" | grep -q '^error: .*not a --exp=sparse data file' ||
  cli_fail "sparse_best.awk on a bandwidth file: exit $rc, '$out'"
cli_done
