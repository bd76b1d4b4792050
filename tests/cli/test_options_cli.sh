#!/usr/bin/env bash
# One rule for options and outputs (common/args.h, common/device.h,
# Makefile, plots/render.sh), checked on the built programs; none of these needs a GPU:
#   - every bad option: ONE line (no second usage line), exit 2; integer bounds printed as
#     integers; documented constraints checked (simplex2d --n >= 1, simplex3d --nmin a power
#     of two, hashmesh --quick --max-log2 <= 18, --reps >= 1, an unknown --exp);
#   - volume lists only the options it uses;
#   - an --out that cannot be written is exit 2 in every program (volume, simplex2d,
#     hierarchize, neighbors), found before any work;
#   - without a GPU: "SKIP: no NVIDIA GPU/driver found" on stderr (stdout empty), and
#     `make run` (only host-only data; none in common/) succeeds and ends with one line
#     pointing to `make plots DATA=ref` (more in test_make_nogpu_cli.sh);
#   - make plots: DIRS=nonexistent, TERM=svg, DATA=bogus are exit-2 errors (no .svg file);
#     no data at all with DATA=results (no fallback to results-ref/) is one line pointing to
#     DATA=ref and a failure.
. "$(dirname "$0")/lib.sh"
tmp=$cli_tmp
cli_need "make all" common/bandwidth simplex2d/simplex2d simplex3d/simplex3d simplex3d/volume hashmesh/hashmesh \
  hashmesh/neighbors fractals/fractals sparsegrid/hierarchize

one_line() { # one_line NAME REGEX OUTPUT: exactly one line, matching
  [ "$(printf '%s\n' "$3" | wc -l)" -eq 1 ] || cli_fail "$1: not one line: $(printf '%s' "$3" | tr '\n' '|')"
  printf '%s\n' "$3" | grep -Eq -- "$2" || cli_fail "$1: '$3' does not match '$2'"
}

# ---- every program: a bad option is one line naming --help, exit 2
for p in common/bandwidth simplex2d/simplex2d simplex3d/simplex3d simplex3d/volume hashmesh/hashmesh \
         hashmesh/neighbors fractals/fractals sparsegrid/hierarchize; do
  out=$(expect 2 $p --bogus); one_line "$p --bogus" "^error: unknown option '--bogus' \(see '[a-z0-9]+ --help'\)$" "$out"
done

# ---- integer bounds as integers, documented constraints checked
out=$(expect 2 simplex2d/simplex2d --n=-5); one_line "simplex2d --n=-5" 'out of range \[1, 1048576\]' "$out"
out=$(expect 2 simplex2d/simplex2d --n=0); one_line "simplex2d --n=0" 'out of range \[1, 1048576\]' "$out"
out=$(expect 2 simplex3d/simplex3d --nmin=300); one_line "simplex3d --nmin=300" 'not a power of two' "$out"
expect 0 simplex3d/simplex3d --help | grep -q -- '--nmin=V.*power' || cli_fail "simplex3d --help: --nmin not said to be a power of two"
out=$(expect 2 hashmesh/hashmesh --quick --max-log2=24); one_line "hashmesh --quick --max-log2=24" 'at most 18' "$out"
out=$(expect 2 common/bandwidth --reps=0); one_line "bandwidth --reps=0" 'reps=0' "$out"
out=$(expect 2 simplex2d/simplex2d --reps=0); one_line "simplex2d --reps=0" 'reps=0' "$out"
out=$(expect 2 fractals/fractals --exp=nosuch); one_line "fractals --exp=nosuch" 'no such experiment' "$out"
out=$(expect 2 simplex3d/volume --quick --nmax=4096); one_line "volume --quick --nmax=4096" 'at most 1024' "$out"
out=$(expect 2 common/bandwidth --max-mib=0); one_line "bandwidth --max-mib=0" 'out of range \[1, 65536\]' "$out"

# ---- volume: only the options it uses
help=$(expect 0 simplex3d/volume --help)
for o in device reps warmup batch seed; do
  printf '%s\n' "$help" | grep -q -- "--$o=" && cli_fail "volume --help lists --$o, which it ignores"
  out=$(expect 2 simplex3d/volume --$o=1); one_line "volume --$o=1" "unknown option '--$o=1'" "$out"
done

# ---- an --out that cannot be written: exit 2 everywhere, one line, before any work
echo x > $tmp/file
out=$(expect 2 simplex3d/volume --quick --out=$tmp/file/sub); one_line "volume unwritable --out" 'cannot write' "$out"
out=$(expect 2 simplex2d/simplex2d --out=$tmp/file/sub); one_line "simplex2d unwritable --out" 'cannot write' "$out"
out=$(expect 2 common/bandwidth --out=$tmp/file); one_line "bandwidth --out=a file" 'cannot write.*not a directory' "$out"
head -c $((33 * 33 * 4)) /dev/zero > $tmp/t.raw
out=$(expect 2 sparsegrid/hierarchize --dims=33x33 --tiles=1 --in=$tmp/t.raw --out=$tmp/file/o.raw)
one_line "hierarchize unwritable --out" 'cannot write' "$out"
printf 'amr2d 1 1 0\n0 0 0\n' > $tmp/m.txt
out=$(expect 2 hashmesh/neighbors --in=$tmp/m.txt --out=$tmp/file/o.txt); one_line "neighbors unwritable --out" 'cannot write' "$out"

# ---- no GPU: the SKIP line on stderr says so, and make run (nothing host-only in common/)
# succeeds and ends pointing to DATA=ref
common/bandwidth --check-device >$tmp/so 2>$tmp/se; rc=$?
if [ $rc -eq 77 ]; then
  [ -s $tmp/so ] && cli_fail "SKIP written to stdout: $(cat $tmp/so)"
  grep -q '^SKIP: no NVIDIA GPU/driver found' $tmp/se || cli_fail "SKIP line: $(cat $tmp/se)"
  make -s --no-print-directory run DIRS=common >$tmp/run.out 2>&1 || cli_fail "make run DIRS=common without a GPU exited $?: $(tail -n 3 $tmp/run.out)"
  last=$(grep -Ev '^make(\[[0-9]+\])?: \*\*\*' $tmp/run.out | tail -n 1)  # make's own trailer (make[N] when nested)
  printf '%s\n' "$last" | grep -q 'make plots DATA=ref' || cli_fail "make run without a GPU ends with: $last"
elif [ $rc -ne 0 ]; then cli_fail "bandwidth --check-device -> exit $rc"; fi

# ---- make plots: bad settings are errors; no data (DATA=results: no fallback) points to DATA=ref
out=$(expect 2 make -s --no-print-directory plots DIRS=nonexistent); printf '%s\n' "$out" | grep -q "no directory 'nonexistent'" || cli_fail "DIRS=nonexistent: $out"
rm -f plots/out/common_bandwidth.svg
out=$(PLOT_TERM=svg DATA=ref ./plots/render.sh 2>&1); rc=$?
[ $rc -eq 2 ] || cli_fail "TERM=svg -> exit $rc"; one_line "TERM=svg" 'TERM=svg' "$out"
[ -e plots/out/common_bandwidth.svg ] && cli_fail "TERM=svg wrote a .svg file"
out=$(DATA=bogus ./plots/render.sh 2>&1); rc=$?
[ $rc -eq 2 ] || cli_fail "DATA=bogus -> exit $rc"; one_line "DATA=bogus" 'DATA=bogus' "$out"
out=$(DIRS=nonexistent ./plots/render.sh 2>&1); rc=$?
[ $rc -eq 2 ] || cli_fail "render.sh DIRS=nonexistent -> exit $rc"; one_line "render DIRS=nonexistent" 'DIRS=nonexistent' "$out"
# a directory with plot scripts and no results/ data (skipped where every one has data)
nodata=""
for gp in plots/*_*.gp; do d=$(basename $gp); d=${d%%_*}; ls $d/results/*.dat >/dev/null 2>&1 || { nodata=$d; break; }; done
if [ -n "$nodata" ]; then
  out=$(DATA=results DIRS=$nodata ./plots/render.sh 2>&1); rc=$?
  [ $rc -ne 0 ] || cli_fail "plots with no data for $nodata exited 0"
  one_line "plots with no data ($nodata)" 'make plots DATA=ref' "$out"
fi
cli_done
