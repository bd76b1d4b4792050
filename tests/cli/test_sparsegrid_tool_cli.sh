#!/usr/bin/env bash
# sparsegrid/hierarchize at the edges test_sparsegrid_cli.sh leaves open (no GPU):
#  - the .npy it writes for anisotropic tiles is C order with the slowest dimension first:
#    --dims=9x5 (N0 = 9 fastest) -> shape (T, 5, 9); sparse grids -> (T, points); the data
#    after the header equal the raw output;
#  - the non-finite refusal names the grid and the point of the first bad value (value 1094
#    of two 33 x 33 tiles: grid 1, point 5), and +Inf / -Inf alone are refused as NaN is;
#  - --sparse's dimension both sides: 6:1 of ones gives its 64 corner values, 7:1 is refused;
#  - a .npy whose value count is not T grids' (fewer or more) or whose dtype is float64 under
#    --precision=float: refused by its header, exit 2 (not a short read, not a silent misread);
#  - --sparse's level limit both sides: 1:24 passes its parse (refused only for the file's
#    size), 1:25 is refused by it, and so is 2:3x (a level with a tail);
#  - --tiles' data limit both sides, in bytes of the precision: the largest T with T * points *
#    4 <= 9e18 passes (refused for the file's size), one more is "too much data"; in double
#    the limit halves;
#  - --in, --out and --tiles each missing alone: refused with its message.
. "$(dirname "$0")/lib.sh"
prog=sparsegrid/hierarchize
cli_need "make -C sparsegrid" $prog
tmp=$cli_tmp
ones() { local i; for ((i = 0; i < $1; i++)); do printf '\000\000\200\077'; done; }

# .npy shapes
ones 90 >"$tmp/a.raw"    # 2 tiles of 9 x 5
expect 0 $prog --dims=9x5 --tiles=2 --in="$tmp/a.raw" --out="$tmp/a.npy" --quiet >/dev/null
expect 0 $prog --dims=9x5 --tiles=2 --in="$tmp/a.raw" --out="$tmp/a.h" --quiet >/dev/null
head -c 128 "$tmp/a.npy" | grep -q "'shape': (2, 5, 9), }" || cli_fail ".npy of 9x5 tiles: shape not (2, 5, 9): $(head -c 128 "$tmp/a.npy" | tr -d '\000')"
[ $(($(stat -c %s "$tmp/a.npy") - 360)) -eq 128 ] && tail -c 360 "$tmp/a.npy" | cmp -s - "$tmp/a.h" || cli_fail ".npy of 9x5 tiles: not a 128-byte header and the raw data"
ones 98 >"$tmp/s.raw"    # 2 sparse grids 2:3 (49 points)
expect 0 $prog --sparse=2:3 --tiles=2 --in="$tmp/s.raw" --out="$tmp/s.npy" --quiet >/dev/null
head -c 128 "$tmp/s.npy" | grep -q "'shape': (2, 49), }" || cli_fail ".npy of sparse grids: shape not (2, 49)"
expect 0 $prog --sparse=2:3 --tiles=2 --in="$tmp/s.npy" --out="$tmp/s2.raw" --inverse --quiet >/dev/null
cmp -s "$tmp/s2.raw" "$tmp/s.raw" || cli_fail ".npy of sparse grids: the round trip"

# the first non-finite value: grid and point
{ ones 1094; printf '\000\000\300\177'; ones 1083; } >"$tmp/nan.raw"
expect 2 $prog --dims=33x33 --tiles=2 --in="$tmp/nan.raw" --out="$tmp/nan.out" | grep -q '1 non-finite values (NaN/Inf), the first at value 1094 (grid 1, point 5)' ||
  cli_fail "non-finite: grid 1, point 5 not named"
# an infinity alone (no NaN) is refused the same way: +Inf at value 7, -Inf at value 20
{ ones 7; printf '\000\000\200\177'; ones 12; printf '\000\000\200\377'; ones 1068; } >"$tmp/inf.raw"
expect 2 $prog --dims=33x33 --tiles=1 --in="$tmp/inf.raw" --out="$tmp/inf.out" | grep -q '2 non-finite values (NaN/Inf), the first at value 7 (grid 0, point 7)' ||
  cli_fail "non-finite: +Inf and -Inf not refused"
[ -e "$tmp/inf.out" ] && cli_fail "a refused non-finite input wrote its output"

# --sparse's dimension, both sides: 6:1 (729 points, all levels 0 or 1) hierarchizes a
# constant to its 64 corner values 1 and zero surpluses elsewhere; 7:1 is refused
ones 729 >"$tmp/s6.raw"
expect 0 $prog --sparse=6:1 --tiles=1 --in="$tmp/s6.raw" --out="$tmp/s6.h" --quiet >/dev/null
nz=$(od -An -v -tf4 "$tmp/s6.h" 2>/dev/null | tr -s ' ' '\n' | grep -c '^[1-9]')
[ "$nz" = 64 ] || cli_fail "--sparse=6:1 of ones: $nz nonzero surpluses (want the 64 corners)"
expect 2 $prog --sparse=7:1 --tiles=1 --in="$tmp/s6.raw" --out="$tmp/x.raw" | grep -q 'D from 1 to 6' || cli_fail "--sparse=7:1 not refused"

# a .npy holding fewer (or more) values than --tiles grids need: refused by its header, exit 2
ones 98 >"$tmp/s98.raw"
expect 0 $prog --sparse=2:3 --tiles=2 --in="$tmp/s98.raw" --out="$tmp/two.npy" --quiet >/dev/null
expect 2 $prog --sparse=2:3 --tiles=3 --in="$tmp/two.npy" --out="$tmp/x.raw" | grep -q 'holds 98 values; 3 sparse grids of 2:3 (49 points each) need 147' ||
  cli_fail ".npy of 2 grids read as 3 not refused by its count"
expect 2 $prog --sparse=2:3 --tiles=1 --in="$tmp/two.npy" --out="$tmp/x.raw" | grep -q 'holds 98 values' ||
  cli_fail ".npy of 2 grids read as 1 not refused by its count"
# a float64 .npy read as float32 (the same count, twice the bytes): refused, names the precision
expect 0 $prog --sparse=2:3 --tiles=1 --precision=double --in="$tmp/s98.raw" --out="$tmp/d.npy" --quiet >/dev/null
expect 2 $prog --sparse=2:3 --tiles=1 --in="$tmp/d.npy" --out="$tmp/x.raw" | grep -q 'holds float64 values; use --precision=double' ||
  cli_fail "a float64 .npy read with --precision=float not refused"

# --sparse's level, both sides
expect 2 $prog --sparse=1:24 --tiles=1 --in="$tmp/s.raw" --out="$tmp/x.raw" | grep -q '16777217 points each) in float need 67108868' ||
  cli_fail "--sparse=1:24 refused before the file's size"
expect 2 $prog --sparse=1:25 --tiles=1 --in="$tmp/s.raw" --out="$tmp/x.raw" | grep -q 'N from 1 to 24' || cli_fail "--sparse=1:25 not refused"
expect 2 $prog --sparse=2:3x --tiles=2 --in="$tmp/s.raw" --out="$tmp/x.raw" | grep -q "malformed --sparse '2:3x'" || cli_fail "--sparse=2:3x not refused"

# --tiles: T * 1089 points * 4 bytes <= 9e18 (floor(2.25e18 / 1089) = 2066115702479338); double: half
ones 1089 >"$tmp/one.raw"
expect 2 $prog --dims=33x33 --tiles=2066115702479338 --in="$tmp/one.raw" --out="$tmp/x.raw" | grep -q 'has 4356 bytes' ||
  cli_fail "--tiles at the float limit refused before the file's size"
expect 2 $prog --dims=33x33 --tiles=2066115702479339 --in="$tmp/one.raw" --out="$tmp/x.raw" | grep -q 'too much data' ||
  cli_fail "--tiles one past the float limit not refused"
expect 2 $prog --dims=33x33 --tiles=1033057851239669 --precision=double --in="$tmp/one.raw" --out="$tmp/x.raw" | grep -q 'has 4356 bytes' ||
  cli_fail "--tiles at the double limit refused before the file's size"
expect 2 $prog --dims=33x33 --tiles=1033057851239670 --precision=double --in="$tmp/one.raw" --out="$tmp/x.raw" | grep -q 'too much data' ||
  cli_fail "--tiles one past the double limit not refused"
[ -e "$tmp/x.raw" ] && cli_fail "a refused run wrote its output"

# the required options, each missing alone: one line naming it, exit 2
expect 2 $prog --dims=33x33 --tiles=1 --in="$tmp/one.raw" | grep -q '^error: --in and --out are required' || cli_fail "no --out not refused"
expect 2 $prog --dims=33x33 --tiles=1 --out="$tmp/x.raw" | grep -q '^error: --in and --out are required' || cli_fail "no --in not refused"
expect 2 $prog --dims=33x33 --in="$tmp/one.raw" --out="$tmp/x.raw" | grep -q '^error: --tiles is required' || cli_fail "no --tiles not refused"
[ -e "$tmp/x.raw" ] && cli_fail "a run missing an option wrote its output"
cli_done
