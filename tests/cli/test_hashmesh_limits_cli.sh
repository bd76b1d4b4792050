#!/usr/bin/env bash
# hashmesh's refusals on both sides and the checks a normal input never reaches (no GPU):
#   hashdata --op=sort: a key sharing a bucket with the FIRST key (input index 0: a table
#     entry of 0 is a full bucket) is refused; DMIN = 0 is refused like DMIN < 0, the smallest
#     positive DMIN is accepted;
#   hashdata --op=lookup: NY = 1 is refused like NX = 1 (NX = NY = 2 passes: test_hashmesh_oracle);
#   hashdata --op=remap: a NEW mesh over the same NX x NY coarse cells with another LEVMAX is
#     refused (each header field alone); --op=remap with --table, --op=lookup with --new or
#     --values are refused (exit 2, one line, no output);
#   hashmesh, refused before the GPU is touched (accepted: exit 77 with CUDA_VISIBLE_DEVICES=-1):
#     --quick --max-log2 = 18 / 19; --exp=levmax with --corner-side << --levmax = 2^29 - 2^24 /
#     2^29 (the compact key's 29 bits); the 2D perfect table at --levmax = 15 / 16 for each
#     experiment that builds one (fig3_5, fig3_7, fig3_10, tab4_1_best).
. "$(dirname "$0")/lib.sh"
hd=hashmesh/hashdata
hm=hashmesh/hashmesh
cli_need "make -C hashmesh" $hd $hm
t=$cli_tmp

# ---- hashdata sort
printf 'keys1d 2\n4\n5\n9\n' >"$t/k0.txt"   # 5 falls into the bucket of 4, the key of index 0
cli_refused "sort: collision with key 0" 'k0\.txt:3: key 5 shares a bucket with the key on line 2 \(4\)' "$t/k0.out" \
  $hd --op=sort --in="$t/k0.txt" --out="$t/k0.out"
printf 'keys1d 0\n1\n2\n' >"$t/d0.txt"
cli_refused "sort: DMIN = 0" 'd0\.txt:1: DMIN must be positive' "$t/d0.out" $hd --op=sort --in="$t/d0.txt" --out="$t/d0.out"
printf 'keys1d 0.25\n1\n0.5\n0.75\n' >"$t/dq.txt"
expect 0 $hd --op=sort --in="$t/dq.txt" --out="$t/dq.out" >/dev/null
printf '1 0.5\n2 0.75\n0 1\n' | cmp -s - "$t/dq.out" || cli_fail "sort with DMIN = 0.25: $(cat "$t/dq.out" 2>/dev/null)"

# ---- hashdata lookup: NY = 1
printf '0 0\n' >"$t/q.txt"
printf 'table2d 2 1 0 1 0 1\n0 1\n' >"$t/ny1.txt"
cli_refused "lookup: NY = 1" 'ny1\.txt:1: NX and NY must be integers >= 2' "$t/ny1.out" \
  $hd --op=lookup --table="$t/ny1.txt" --in="$t/q.txt" --out="$t/ny1.out"
printf 'table2d 2 2.5 0 1 0 1\n0 1 2 3 4\n' >"$t/nyf.txt"
cli_refused "lookup: NY = 2.5" 'nyf\.txt:1: NX and NY must be integers >= 2' "$t/nyf.out" \
  $hd --op=lookup --table="$t/nyf.txt" --in="$t/q.txt" --out="$t/nyf.out"

# ---- hashdata remap: headers differing in one field only
hm_hand_mesh "$t/old.txt"                    # amr2d 2 1 1, five cells
printf '1\n2\n3\n4\n5\n' >"$t/v.txt"
printf 'amr2d 2 1 2\n0 0 0\n1 0 0\n' >"$t/lev2.txt"
cli_refused "remap: another LEVMAX" "lev2\\.txt:1: header 'amr2d 2 1 2' differs from .*old\\.txt's 'amr2d 2 1 1'" "$t/lev2.out" \
  $hd --op=remap --in="$t/old.txt" --new="$t/lev2.txt" --values="$t/v.txt" --out="$t/lev2.out"
printf 'amr2d 1 1 1\n0 0 0\n' >"$t/nx1.txt"
cli_refused "remap: another NX" "nx1\\.txt:1: header 'amr2d 1 1 1' differs" "$t/nx1.out" \
  $hd --op=remap --in="$t/old.txt" --new="$t/nx1.txt" --values="$t/v.txt" --out="$t/nx1.out"
printf 'amr2d 2 2 1\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n' >"$t/ny2.txt"
cli_refused "remap: another NY" "ny2\\.txt:1: header 'amr2d 2 2 1' differs" "$t/ny2.out" \
  $hd --op=remap --in="$t/old.txt" --new="$t/ny2.txt" --values="$t/v.txt" --out="$t/ny2.out"

# ---- hashdata: options of another operation
printf 'table2d 2 2 0 1 0 1\n0 1 2 3\n' >"$t/tab.txt"
cli_refused "remap with --table" 'op=remap does not take --table' "$t/rt.out" \
  $hd --op=remap --in="$t/old.txt" --new="$t/old.txt" --values="$t/v.txt" --table="$t/tab.txt" --out="$t/rt.out"
cli_refused "lookup with --new" 'op=lookup does not take --new or --values' "$t/ln.out" \
  $hd --op=lookup --table="$t/tab.txt" --in="$t/q.txt" --new="$t/old.txt" --out="$t/ln.out"
cli_refused "lookup with --values" 'op=lookup does not take --new or --values' "$t/lv.out" \
  $hd --op=lookup --table="$t/tab.txt" --in="$t/q.txt" --values="$t/v.txt" --out="$t/lv.out"
cli_refused "sort with --values" 'op=sort does not take --new, --values or --table' "$t/sv.out" \
  $hd --op=sort --in="$t/dq.txt" --values="$t/v.txt" --out="$t/sv.out"

# ---- hashmesh: accepted = 77 (no visible device), refused = 2 with its message, no data
acc() { # acc NAME ARGS...: accepted (it reaches device_require)
  local name=$1 out rc; shift
  out=$(CUDA_VISIBLE_DEVICES=-1 timeout 60 $hm "$@" --out="$t/dat" 2>&1); rc=$?
  [ $rc -eq 77 ] || cli_fail "hashmesh $name ($*): exit $rc, want 77 (accepted, no device): $(printf '%s\n' "$out" | head -n 2)"
}
ref() { # ref NAME REGEX ARGS...: exit 2, one line matching REGEX, no data directory
  local name=$1 re=$2 out rc; shift 2
  out=$(CUDA_VISIBLE_DEVICES=-1 timeout 60 $hm "$@" --out="$t/dat" 2>&1); rc=$?
  [ $rc -eq 2 ] || cli_fail "hashmesh $name ($*): exit $rc, want 2"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -Eq -- "$re" ||
    cli_fail "hashmesh $name: want one line matching '$re', got '$out'"
}
acc "--quick, max 18" --exp=fig3_3 --quick --max-log2=18
ref "--quick, max 19" 'max-log2=19: --quick allows at most 18' --exp=fig3_3 --quick --max-log2=19
acc "levmax key, 31 << 24" --exp=levmax --corner-side=31 --levmax=24
ref "levmax key, 32 << 24" 'corner-side=32 << --levmax=24 does not fit the compact key' --exp=levmax --corner-side=32 --levmax=24
for e in fig3_5 fig3_7 fig3_10 tab4_1_best; do
  acc "$e at --levmax=15" --exp=$e --levmax=15
  ref "$e at --levmax=16" 'the 2D perfect hash table, \(1 \* 2\^16\)\^2 = 4\.29e\+09 buckets .* does not fit' --exp=$e --levmax=16
done
[ -e "$t/dat" ] && [ -n "$(ls -A "$t/dat")" ] && cli_fail "hashmesh wrote data in a refused or skipped run: $(ls "$t/dat")"
cli_done
