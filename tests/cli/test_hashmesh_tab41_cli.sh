#!/usr/bin/env bash
# hashmesh --exp=tab4_1 (host only, no device: CUDA_VISIBLE_DEVICES=-1) on figure data written
# here, with times chosen so that every number of the table is known:
#   - the row: of the sizes where the paper's reference method, hash_cpu and hash_gpu were all
#     measured, the one nearest 2^--tab-log2 in log distance.  A size exactly at 2^21 that lacks
#     its hash_gpu row (or holds a time of 0) is passed over; 3000000 (log distance 0.36) wins
#     over 2^20 (0.69); --tab-log2=20 takes 2^20;
#   - each row's reference is the paper's (Sort, Sort2D: qsort; Neighbor, Remap: kdtree; Table:
#     bisection) although every file holds all three names, each with other times;
#   - the three speed-ups are ref/cpu, cpu/gpu and ref/gpu of the row's times (12, 3, 0.25 ms
#     -> 4.00, 12.00, 48.0), and the paper's three columns are Table 4.1's (NVIDIA) in order;
#   - the `# gpu:` line is the Fig. 3.3 file's, or "none (host only ...)" when it has none;
#   - refused (exit 1, one line naming the file, no table written): a missing figure file, a
#     file with no complete size (hash_gpu never measured), a file of comments only.
. "$(dirname "$0")/lib.sh"
hm=hashmesh/hashmesh
cli_need "make -C hashmesh" $hm
tmp=$cli_tmp
srcs="sort1d:hashmesh_fig3_3_sort1d.dat sort2d:hashmesh_fig3_5_sort2d.dat neigh1d:hashmesh_fig3_6_neigh1d.dat
neigh2d:hashmesh_fig3_7_neigh2d.dat remap1d:hashmesh_fig3_9_remap1d.dat remap2d:hashmesh_fig3_10_remap2d.dat
table:hashmesh_fig3_11_table.dat"

# figures DIR [GPU-LINE]: the seven files; at every size each method's time, the reference
# method's 12 ms at the sizes that count (the other two names 1 ms, 7 ms: a wrong reference
# shows); at 2^21 no hash_gpu row, at 2^22 a hash_gpu time of 0
figures() {
  local dir=$1 gpu=${2:-} s f ref
  mkdir -p "$dir"
  for s in $srcs; do
    f=$dir/${s#*:}
    case ${s%%:*} in sort1d|sort2d) ref=qsort ;; table) ref=bisection ;; *) ref=kdtree ;; esac
    {
      echo "# program: hashmesh/hashmesh"
      [ -n "$gpu" ] && echo "# gpu: $gpu"
      echo "# cpu: serial C, test data"
      echo "n param method median_ms min_ms max_ms reps batch mitems_s"
      for n in 1048576 2097152 3000000 4194304; do
        for m in qsort kdtree bisection; do
          t=1; [ $m = kdtree ] && t=7; [ $m = $ref ] && t=12
          [ $n = 1048576 ] && [ $m = $ref ] && t=20
          echo "$n 2 $m $t $t $t 10 1 1.0"
        done
        c=3; [ $n = 1048576 ] && c=5
        echo "$n 2 hash_cpu $c $c $c 10 1 1.0"
        [ $n = 2097152 ] || { g=0.25; [ $n = 4194304 ] && g=0; [ $n = 1048576 ] && g=0.5
                              echo "$n 2 hash_gpu $g $g $g 10 1 1.0"; }
      done
    } >"$f"
  done
}
# the data rows of the table: algorithm and all columns
rows() { awk '!/^#/ && h++' "$1"; }

figures $tmp/a "Test GPU (sm_90)"
expect 0 env CUDA_VISIBLE_DEVICES=-1 $hm --exp=tab4_1 --out=$tmp/a >/dev/null
t=$tmp/a/hashmesh_tab4_1_speedups.dat
[ "$(awk '!/^#/ { print; exit }' $t 2>/dev/null)" = "algorithm n ref_method ref_ms cpu_hash_ms gpu_hash_ms cpu_hash_vs_ref_x gpu_vs_cpu_hash_x gpu_vs_ref_x paper_cpu_hash_vs_ref_x paper_gpu_vs_cpu_hash_x paper_gpu_vs_ref_x" ] ||
  cli_fail "tab4_1: header row changed"
want="Sort 3000000 qsort 12.000000 3.000000 0.250000 4.00 12.00 48.0 4.16 21.5 89.3
Sort2D 3000000 qsort 12.000000 3.000000 0.250000 4.00 12.00 48.0 16.20 26.2 424.1
Neighbor 3000000 kdtree 12.000000 3.000000 0.250000 4.00 12.00 48.0 54.40 16.6 903.5
Neighbor2D 3000000 kdtree 12.000000 3.000000 0.250000 4.00 12.00 48.0 75.50 19.1 1444.0
Remap 3000000 kdtree 12.000000 3.000000 0.250000 4.00 12.00 48.0 18.40 26.9 495.2
Remap2D 3000000 kdtree 12.000000 3.000000 0.250000 4.00 12.00 48.0 13.60 42.2 574.0
Table 3000000 bisection 12.000000 3.000000 0.250000 4.00 12.00 48.0 2.44 55.7 136.2"
got=$(rows $t 2>/dev/null)
[ "$got" = "$want" ] || { cli_fail "tab4_1 at 2^21: rows differ"; diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2; }
grep -qx '# gpu: Test GPU (sm_90)' $t || cli_fail "tab4_1: # gpu: is not the Fig. 3.3 file's"
grep -qx '# cpu: serial C, test data' $t || cli_fail "tab4_1: # cpu: is not the Fig. 3.3 file's"

expect 0 env CUDA_VISIBLE_DEVICES=-1 $hm --exp=tab4_1 --tab-log2=20 --out=$tmp/a >/dev/null
[ "$(rows $t | awk '{ print $2, $4, $5, $6, $7, $8, $9 }' | sort | uniq -c | awk '{ $1 = $1; print }')" = "7 1048576 20.000000 5.000000 0.500000 4.00 10.00 40.0" ] ||
  cli_fail "tab4_1 --tab-log2=20: not the 2^20 rows: $(rows $t | head -2)"

figures $tmp/b # no gpu line
expect 0 env CUDA_VISIBLE_DEVICES=-1 $hm --exp=tab4_1 --out=$tmp/b >/dev/null
grep -q '^# gpu: none (host only' $tmp/b/hashmesh_tab4_1_speedups.dat || cli_fail "tab4_1: no gpu line in the figures, not 'none'"

# refused: exit 1, one line naming the file, no table
refused() {
  local name=$1 dir=$2 file=$3 out rc
  out=$(CUDA_VISIBLE_DEVICES=-1 $hm --exp=tab4_1 --out=$dir 2>&1); rc=$?
  [ $rc -eq 1 ] || cli_fail "tab4_1, $name: exit $rc, want 1"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "^error: .*$file" ||
    cli_fail "tab4_1, $name: want one error line naming $file, got: $out"
  ls $dir/hashmesh_tab4_1_speedups.dat* >/dev/null 2>&1 && cli_fail "tab4_1, $name: a table was written"
  return 0
}
figures $tmp/c; rm $tmp/c/hashmesh_fig3_7_neigh2d.dat
refused "a missing figure" $tmp/c hashmesh_fig3_7_neigh2d.dat
figures $tmp/d; sed -i '/hash_gpu/d' $tmp/d/hashmesh_fig3_9_remap1d.dat
refused "no hash_gpu row" $tmp/d hashmesh_fig3_9_remap1d.dat
figures $tmp/e; sed -i '/hash_gpu/s/ 0.25 0.25 0.25 / 0 0 0 /; /hash_gpu/s/ 0.5 0.5 0.5 / 0 0 0 /' $tmp/e/hashmesh_fig3_11_table.dat
refused "hash_gpu times of 0" $tmp/e hashmesh_fig3_11_table.dat
figures $tmp/f; sed -i '/^[^#]/d' $tmp/f/hashmesh_fig3_5_sort2d.dat
refused "comments only" $tmp/f hashmesh_fig3_5_sort2d.dat
cli_done
