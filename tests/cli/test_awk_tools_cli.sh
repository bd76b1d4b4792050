#!/usr/bin/env bash
# The awk tools on synthetic input, every documented syntax form and every refusal, each output
# compared line for line with the one written out here by hand (no GPU, no committed data):
#   common/peers_dat.awk    (one side-by-side run of gpumaps and ours -> one data file)
#   simplex2d/peers_dat.awk (simplex2d's first side-by-side run format)
#   sparsegrid/sparse_best.awk (the best row per d and kernel family of --exp=sparse files)
# A refusal must be exit 2, one 'error: FILE:LINE: ...' line naming the fault, nothing on stdout;
# inputs with one field too many and one too few are among them.
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$cli_tmp
# refused AWK NAME ERE TEXT: exit 2, nothing on stdout, one error line matching ERE
refused() {
  local awkp=$1 name=$2 re=$3 rc
  mkdir -p "$t/x/results-ref/peers"
  printf '%b' "$4" >"$t/x/results-ref/peers/$name.txt"
  awk -f "$top/$awkp" "$t/x/results-ref/peers/$name.txt" >"$t/$name.out" 2>"$t/$name.err"; rc=$?
  [ $rc -eq 2 ] || cli_fail "$awkp, $name: exit $rc, want 2"
  [ -s "$t/$name.out" ] && cli_fail "$awkp, $name: wrote to stdout"
  [ "$(wc -l <"$t/$name.err")" -eq 1 ] && grep -Eq "^error: .*$re" "$t/$name.err" ||
    cli_fail "$awkp, $name: want one line 'error: ...$re', got '$(cat "$t/$name.err")'"
}
# same AWK INPUT WANT: exit 0 and stdout equal to WANT
same() {
  local out rc
  out=$(awk -f "$top/$1" "$2" 2>"$t/same.err"); rc=$?
  [ $rc -eq 0 ] || cli_fail "$1 on $(basename "$2"): exit $rc ($(cat "$t/same.err"))"
  [ "$out" = "$3" ] || { cli_fail "$1 on $(basename "$2"): output differs"; diff <(printf '%s\n' "$3") <(printf '%s\n' "$out") | head -n 10 >&2; }
}
mkdir -p "$t/x/results-ref/peers"

# ---- common/peers_dat.awk: every form (gpumaps timing with multi-word test and map, skipped,
# the three check results, ours cmd:, # git:, # metadata, columns: redefined, extra columns,
# eval=, a summary block equal to its full rows, skipped runs of ours; the title's n = size)
cat >"$t/x/results-ref/peers/good1.txt" <<'EOF'
# ours vs gpumaps, Sierpinski n = 4096 (one run)
# gpu: NVIDIA H200, 143771 MiB
# date: 2026-01-02
# cmd: ./run.sh

gpumaps regular store rho=8 tensor-core method=3: ms=1.5 min=1.25 max=2e-1 n=3 values=1,2,3 cmd: ./x a b
gpumaps char rho=16 bbox: skipped (time budget) cmd: ./y
check gpumaps ijk lambda (method 2) now rho=4 N=512: passed
check gpumaps ijk hadouken (method 4) rho=8 N=512: verification successful.
check gpumaps char bbox (method 1) rho=2 N=64: FAILED wrong cells inside=3 outside=4
ours sw rho=8 cmd: ./fractals --exp=x
ours sw rho=8 # git: 0123abc
ours sw rho=8 # hostname: box1
ours sw rho=8 columns: map n median_ms
ours sw rho=8 columns: kernel map n rho median_ms min_ms max_ms extra
ours sw rho=8 sw lambda 4096 8 0.5 0.25 0.75 x
ours sw rho=8 sw bb 4096 8 1.5 1.25 1.75 y
ours sw rho=16 eval=exact: # git: 0123abc
ours sw rho=16 eval=exact: columns: n map median_ms min_ms max_ms
ours sw rho=16 eval=exact: 4096 lambda 0.5 0.4 0.6
ours sw rho=8 columns: map median_ms
ours sw rho=8 bb 1.50
ours write rho=32: skipped (time budget) cmd: ./z
EOF
same common/peers_dat.awk "$t/x/results-ref/peers/good1.txt" "$(cat <<'EOF'
# program: common/peers_dat.awk (one side-by-side run of the authors' gpumaps and ours, copied from its raw output)
# derived: by common/peers_dat.awk from the raw output of the run: peers/good1.txt
# gpu: NVIDIA H200, 143771 MiB
# date: 2026-01-02
# raw: ours vs gpumaps, Sierpinski n = 4096 (one run)
# raw: cmd: ./run.sh
# ours: rows built at git 0123abc (the source's 'ours ... # git:' lines)
# note: ours sw rho=8: hostname: box1
# note: ours write rho=32: skipped
# columns: code: gpumaps or ours; test: gpumaps' test binary and kernel (check-*: gpumaps' own check of a
#   map), ours the experiment (write, dummy, map, empty, sw); eval: ours' --eval (- if none); map: the method;
#   rho: block side; n: the domain side (gpumaps rows: the run's N); status: ok (timed), skipped (not run),
#   passed / failed (a check); median_ms, min_ms, max_ms: ms per launch (gpumaps: the median, smallest and
#   largest of the processes' averages; ours: over its timed samples); processes: gpumaps processes run
#   (ours: 1); wrong_cells: cells a failed check reported (nan: none given)
code test eval map rho n status median_ms min_ms max_ms processes wrong_cells
gpumaps regular-store - tensor-core-method-3 8 4096 ok 1.5 1.25 2e-1 3 nan
gpumaps char - bbox 16 4096 skipped nan nan nan nan nan
gpumaps check-ijk - lambda 4 512 passed nan nan nan nan nan
gpumaps check-ijk - hadouken 8 512 passed nan nan nan nan nan
gpumaps check-char - bbox 2 64 failed nan nan nan nan 7
ours sw - lambda 8 4096 ok 0.5 0.25 0.75 1 nan
ours sw - bb 8 4096 ok 1.5 1.25 1.75 1 nan
ours sw exact lambda 16 4096 ok 0.5 0.4 0.6 1 nan
EOF
)"
# the same file with '# N = 64' in the title: the upper-case size form
sed 's/Sierpinski n = 4096/N = 64, store/' "$t/x/results-ref/peers/good1.txt" >"$t/x/results-ref/peers/good1N.txt"
out=$(awk -f "$top/common/peers_dat.awk" "$t/x/results-ref/peers/good1N.txt")
printf '%s\n' "$out" | grep -qx 'gpumaps char - bbox 16 64 skipped nan nan nan nan nan' || cli_fail "common/peers_dat.awk: the title's 'N = 64' is not the gpumaps rows' size"

# ---- common/peers_dat.awk: every refusal (one field too many or too few among them)
P=common/peers_dat.awk
hd='# x vs gpumaps (N = 64)\n# gpu: X\n'
cols='ours write rho=8 columns: kernel n rho map median_ms min_ms max_ms\n'
row='ours write rho=8 write 64 8 bb 1.0 0.9 1.1\n'
g='gpumaps st rho=8 bbox: ms=1.0 min=0.9 max=1.1 n=3 values=1 cmd: x\n'
refused $P form     ":3: a line of no known form"            "${hd}gpumap st rho=8 bbox: ms=1\n"
refused $P notnum   ":3: ms is 'fast', not a number"          "${hd}${g/ms=1.0/ms=fast}"
refused $P notnum2  ":3: min is '1\.', not a number"          "${hd}${g/min=0.9/min=1.}"
refused $P notnum3  ":3: max is '\.5', not a number"          "${hd}${g/max=1.1/max=.5}"
refused $P notnum4  ":3: n is '-3', not a number"             "${hd}${g/n=3/n=-3}"
refused $P nokey    ":3: expected ms=VALUE, got 't=1.0'"      "${hd}${g/ms=1.0/t=1.0}"
refused $P emptyms  ":3: empty ms="                           "${hd}${g/ms=1.0/ms=}"
refused $P notest   ":3: a gpumaps line is"                   "${hd}gpumaps rho=8 bbox: ms=1.0 min=0.9 max=1.1 n=3 values=1\n"
refused $P norho    ":3: a gpumaps line is"                   "${hd}gpumaps st bbox: ms=1.0 min=0.9 max=1.1 n=3 values=1\n"
refused $P nocolon  ":3: no 'MAP:' after rho="                "${hd}gpumaps st rho=8 bbox ms=1.0 min=0.9 max=1.1 n=3\n"
refused $P shortg   ":3: a gpumaps timing has ms= min= max= n="  "${hd}gpumaps st rho=8 bbox: ms=1.0 min=0.9 max=1.1\n"
refused $P nosize   ":2: no size for the gpumaps rows"        "# x vs gpumaps\n${g}# gpu: X\n"
refused $P nosize2  ":4: no size for the gpumaps rows"        "# x vs gpumaps\n# gpu: X\n# later: N = 64\n${g}"
refused $P checknf  ":3: a check line is"                     "${hd}check gpumaps ijk lambda N=64:\n"
refused $P checkmap ":3: no map named on a check line"        "${hd}check gpumaps ijk (method 1) rho=4 N=64: passed\n"
refused $P checkn   ":3: a check line names rho=R and N=N:"  "${hd}check gpumaps ijk lambda (method 1) rho=4 N=64 passed\n"
refused $P checkr   ":3: a check line names rho=R and N=N:"  "${hd}check gpumaps ijk lambda (method 1) N=64: passed\n"
refused $P checkres ":3: a check line's result is FAILED"     "${hd}check gpumaps ijk lambda (method 1) rho=4 N=64: maybe\n"
refused $P oursnf   ":3: an ours line is"                     "${hd}ours write rho=8\n"
refused $P oursrho  ":3: expected rho=VALUE, got 'r=8'"       "${hd}ours write r=8 columns: map median_ms\n"
refused $P oursrho2 ":3: rho is 'x', not a number"            "${hd}ours write rho=x columns: map median_ms\n"
refused $P nothing  ":3: an ours line with nothing after its tag"  "${hd}ours write rho=8 eval=block\n"
refused $P gitnf    ":3: expected 'ours \.\.\. # git: REV'"   "${hd}ours write rho=8 # git: abc1234 extra\n"
refused $P twogit   ":4: our rows come from two revisions"    "${hd}ours write rho=8 # git: abc1234\nours sw rho=4 # git: abc1235\n${cols}${row}"
refused $P colsmap  ":3: our columns lack map or median_ms"   "${hd}ours write rho=8 columns: n median_ms min_ms max_ms\n"
refused $P colsmed  ":3: our columns lack map or median_ms"   "${hd}ours write rho=8 columns: n map min_ms max_ms\n"
refused $P nocols   ":3: an ours row before its block's columns"  "${hd}${row}"
refused $P nocols2  ":4: an ours row before its block's columns"  "${hd}${cols}ours write rho=16 write 64 16 bb 1.0 0.9 1.1\n"
refused $P short    ":4: an ours row has 6 values for 7 columns"  "${hd}${cols}ours write rho=8 write 64 8 bb 1.0 0.9\n"
refused $P long     ":4: an ours row has 8 values for 7 columns"  "${hd}${cols}ours write rho=8 write 64 8 bb 1.0 0.9 1.1 7\n"
refused $P kernel   ":4: kernel 'dummy' and the block's test 'write' differ"  "${hd}${cols}ours write rho=8 dummy 64 8 bb 1.0 0.9 1.1\n"
refused $P rho      ":4: the rho column \(4\) and rho=8 differ"  "${hd}${cols}ours write rho=8 write 64 4 bb 1.0 0.9 1.1\n"
refused $P median   ":4: median_ms is 'nan', not a number"    "${hd}${cols}ours write rho=8 write 64 8 bb nan 0.9 1.1\n"
refused $P twofull  ":5: two full rows for write rho=8 map bb"  "${hd}${cols}${row}${row}"
refused $P nogpu    ":0: no '# gpu:' line"                    "# x vs gpumaps (N = 64)\n${g}"
refused $P norows   ":0: no data rows"                        "${hd}ours write rho=8 cmd: x\n${cols}"
refused $P sumnone  ":6: a summary row \(write 8 - rb\) with no full row"  "${hd}${cols}${row}ours write rho=8 columns: map median_ms\nours write rho=8 rb 1.0\n"
refused $P sumdiff  ":6: a summary row \(write 8 - bb\) repeats 1.5, its full row holds 1.0"  "${hd}${cols}${row}ours write rho=8 columns: map median_ms\nours write rho=8 bb 1.5\n"

# ---- simplex2d/peers_dat.awk: every form (the three gpumaps methods, both kernels; columns in
# any order with one extra; a second block of columns; map and empty rows add their columns
# line; the peer comment, not '# N=')
cat >"$t/x/results-ref/peers/good2.txt" <<'EOF'
# N=32768 sweep
# gpu: NVIDIA H200
# gpumaps at abc (peer)
# date: 2026-01-03
# a later comment

gpumaps st32 rho=16 N=64 method=1 ms=1.0
gpumaps st32 rho=16 N=64 method=2 ms=0.9
gpumaps zw32 rho=32 N=64 method=4 ms=0.5
ours-columns blocks_launched max_ms min_ms median_ms map kernel rho n extra
ours write rho=16 10 1.2 1.0 1.1 bb write 16 64 q
ours write rho=16 6 0.9 0.7 0.8 lambda-exact write 16 64 q
ours # git: abc1234
ours-columns n rho kernel map median_ms min_ms max_ms blocks_launched
ours map rho=32 64 32 map recursive 0.3 0.2 0.4 3
ours empty rho=32 64 32 empty rb 0.1 0.1 0.2 3
ours dummy rho=32 64 32 dummy utm 0.2 0.1 0.3 3
ours # git: abc1234
EOF
same simplex2d/peers_dat.awk "$t/x/results-ref/peers/good2.txt" "$(cat <<'EOF'
# program: simplex2d/peers_dat.awk (one side-by-side run of the authors' gpumaps and simplex2d, copied from its raw output)
# derived: by simplex2d/peers_dat.awk from the raw output of the run: peers/good2.txt
# gpu: NVIDIA H200
# date: 2026-01-03
# peer: gpumaps at abc (peer)
# ours: simplex2d rows built at git abc1234 (the source's 'ours # git:' lines)
# columns: code: gpumaps or ours; kernel: gpumaps st32 (store) / zw32 (zero work), ours write / dummy
#   work: store (gpumaps st32, ours write) or zero (gpumaps zw32; ours dummy: the map and a store that never happens)
#   family: the maps compared side by side: box (gpumaps bbox, ours bb), lambda (gpumaps lambda, fp32; ours
#   lambda-exact), recursive (gpumaps hadouken, ours recursive); none: ours only
#   work map: ours map (the map kept by a never-taken trap, no store); empty: ours empty (an empty kernel on the map's grid)
#   rho: block side; n: matrix side N; method: gpumaps' method number (- for ours)
#   median_ms, min_ms, max_ms: ms per launch (gpumaps: the median of 5 processes of 20 launches, no min/max: nan;
#   ours: over its timed samples); blocks_launched: ours only (nan for gpumaps)
code kernel work family rho n method map median_ms min_ms max_ms blocks_launched
gpumaps st32 store box 16 64 1 bbox 1.0 nan nan nan
gpumaps st32 store lambda 16 64 2 lambda 0.9 nan nan nan
gpumaps zw32 zero recursive 32 64 4 hadouken 0.5 nan nan nan
ours write store box 16 64 - bb 1.1 1.0 1.2 10
ours write store lambda 16 64 - lambda-exact 0.8 0.7 0.9 6
ours map map recursive 32 64 - recursive 0.3 0.2 0.4 3
ours empty empty none 32 64 - rb 0.1 0.1 0.2 3
ours dummy zero none 32 64 - utm 0.2 0.1 0.3 3
EOF
)"
# write and dummy rows only: no 'work map' line
printf '# gpu: X\ngpumaps st32 rho=16 N=64 method=1 ms=1.0\n' >"$t/x/results-ref/peers/good2b.txt"
out=$(awk -f "$top/simplex2d/peers_dat.awk" "$t/x/results-ref/peers/good2b.txt")
printf '%s\n' "$out" | grep -q 'work map' && cli_fail "simplex2d/peers_dat.awk: a 'work map' columns line without map or empty rows"
printf '%s\n' "$out" | grep -q '^# peer:' && cli_fail "simplex2d/peers_dat.awk: a '# peer:' line without a peer comment"

# ---- simplex2d/peers_dat.awk: every refusal
S=simplex2d/peers_dat.awk
c2='ours-columns n rho kernel map median_ms min_ms max_ms blocks_launched\n'
r2='ours write rho=16 64 16 write bb 1.0 1.0 1.0 5\n'
refused $S nf5      ":2: a gpumaps line has 6 words"         '# gpu: X\ngpumaps st32 rho=16 N=64 method=1\n'
refused $S nf7      ":2: a gpumaps line has 6 words"         '# gpu: X\ngpumaps st32 rho=16 N=64 method=1 ms=1.0 extra\n'
refused $S method   ":2: unknown gpumaps method '3'"         '# gpu: X\ngpumaps st32 rho=16 N=64 method=3 ms=1.0\n'
refused $S kernel   ":2: unknown gpumaps kernel 'st64'"      '# gpu: X\ngpumaps st64 rho=16 N=64 method=1 ms=1.0\n'
refused $S key      ":2: expected N=VALUE, got 'n=64'"       '# gpu: X\ngpumaps st32 rho=16 n=64 method=1 ms=1.0\n'
refused $S empty    ":2: empty method="                      '# gpu: X\ngpumaps st32 rho=16 N=64 method= ms=1.0\n'
refused $S notnum   ":2: ms is '1e-3', not a number"         '# gpu: X\ngpumaps st32 rho=16 N=64 method=1 ms=1e-3\n'
refused $S form     ":2: a line of no known form"            '# gpu: X\nsomething else\n'
for c in n rho kernel map median_ms min_ms max_ms blocks_launched; do
  cc=$(printf '%s' "$c2" | sed "s/ $c / /; s/ $c\\\\n/\\\\n/")
  refused $S "lack_$c" ":2: ours-columns lacks the column '$c'" "# gpu: X\n$cc"
done
refused $S lack2    ":4: ours-columns lacks the column 'blocks_launched'" "# gpu: X\n${c2}${r2}ours-columns n rho kernel map median_ms min_ms max_ms\n"
refused $S gitnf    ":3: expected 'ours # git: REV'"         "# gpu: X\n${c2}ours # git: abc1234 x\n${r2}"
refused $S twogit   ":5: our rows come from two revisions"   "# gpu: X\n${c2}${r2}ours # git: abc1234\nours # git: abc1235\n"
refused $S nocols   ":2: an ours row before any ours-columns line"  "# gpu: X\n${r2}"
refused $S short    ":3: an ours row has 7 values for 8 columns"  "# gpu: X\n${c2}ours write rho=16 64 16 write bb 1.0 1.0 1.0\n"
refused $S long     ":3: an ours row has 9 values for 8 columns"  "# gpu: X\n${c2}ours write rho=16 64 16 write bb 1.0 1.0 1.0 5 6\n"
refused $S okernel  ":3: kernel 'dummy' and column kernel 'write' differ"  "# gpu: X\n${c2}ours dummy rho=16 64 16 write bb 1.0 1.0 1.0 5\n"
refused $S orho     ":3: rho= and the rho column differ"     "# gpu: X\n${c2}ours write rho=32 64 16 write bb 1.0 1.0 1.0 5\n"
refused $S ounknown ":3: unknown kernel of ours 'copy'"      "# gpu: X\n${c2}ours copy rho=16 64 16 copy bb 1.0 1.0 1.0 5\n"
refused $S onum     ":3: blocks_launched is 'many'"          "# gpu: X\n${c2}ours write rho=16 64 16 write bb 1.0 1.0 1.0 many\n"
refused $S nogpu    ":0: no '# gpu:' line"                   "${c2}${r2}"
refused $S norows   ":0: no data rows"                       "# gpu: X\n${c2}ours # git: abc1234\n"

# ---- sparsegrid/sparse_best.awk: two files with their own column orders and extra columns; per d
# the largest batch only, the best forward row (a tie keeps the first), its _inverse of the same
# name and threads (nan when there is none), copy and other cpu_ rows ignored, d up to 12
cat >"$t/s1.dat" <<'EOF'
# gpu: X
d impl threads bytes_moved pct_ceiling
2 gpu_sparse_multi_g1_u4 256 100 30.0
2 gpu_sparse_multi_g1_u4_inverse 256 100 31.0
2 gpu_sparse_multi_g2_u4 512 100 32.0
2 gpu_sparse_multi_g2_u4_inverse 256 100 99.0
2 gpu_sparse_multi_g2_u4 512 50 90.0
2 gpu_sparse_multi_g4_u1 256 100 32.0
2 gpu_sparse_stream_m3_g1 256 100 40.0
2 gpu_sparse_stream_m3_g1 512 100 41.5
2 gpu_sparse_stream_m3_g1_inverse 512 100 39.25
2 gpu_sparse_stream_m3_g1_inverse 256 100 12.0
2 copy 256 100 100.0
2 cpu_tuned 1 100 20.0
2 cpu_tuned_inverse 1 100 21.0
2 cpu_other 1 100 80.0
EOF
cat >"$t/s2.dat" <<'EOF'
# another file, other column order
pct_ceiling bytes_moved impl threads d note
55.56 200 gpu_sparse_pipe_m3_g1_b1_r6 256 12 a
56.0 200 gpu_sparse_pipe_m3_g1_b1_r6_inverse 256 12 b
50.0 200 cpu_shift 8 3 c
60.0 100 gpu_sparse_pipe_m3_g1 256 3 e
57.0 200 gpu_sparse_fam_r4_l8 128 12 f
54.5 200 gpu_sparse_fam_r4_l8_inverse 128 12 g
EOF
B=sparsegrid/sparse_best.awk
out=$(awk -f "$top/$B" "$t/s1.dat" "$t/s2.dat"); rc=$?
[ $rc -eq 0 ] || cli_fail "$B on two files: exit $rc"
want='d family pct_forward pct_inverse impl threads
2 multi 32.0 nan gpu_sparse_multi_g2_u4 512
2 stream 41.5 39.25 gpu_sparse_stream_m3_g1 512
2 cpu 20.0 21 cpu_tuned 1
3 cpu 50.0 nan cpu_shift 8
12 pipe 55.6 56 gpu_sparse_pipe_m3_g1_b1_r6 256
12 fam 57.0 54.5 gpu_sparse_fam_r4_l8 128'
[ "$out" = "$want" ] || { cli_fail "$B: output differs"; diff <(printf '%s\n' "$want") <(printf '%s\n' "$out") >&2; }
# the files in the other order: the same lines (the header is read again for every file)
out=$(awk -f "$top/$B" "$t/s2.dat" "$t/s1.dat")
[ "$out" = "$want" ] || cli_fail "$B: the files in the other order give other lines"
# a file lacking any one of the five columns, alone or after a good file: exit 2, one line
# naming it, nothing on stdout
for c in d impl threads bytes_moved pct_ceiling; do
  sed "2s/\b$c\b/other/" "$t/s1.dat" >"$t/no_$c.dat"
  for files in "$t/no_$c.dat" "$t/s1.dat $t/no_$c.dat"; do
    awk -f "$top/$B" $files >"$t/b.out" 2>"$t/b.err"; rc=$?
    [ $rc -eq 2 ] && [ ! -s "$t/b.out" ] && [ "$(wc -l <"$t/b.err")" -eq 1 ] &&
      grep -q "^error: $t/no_$c.dat: not a --exp=sparse data file" "$t/b.err" ||
      cli_fail "$B: a file without the column $c ($files): exit $rc, '$(cat "$t/b.err")'"
  done
done
cli_done
