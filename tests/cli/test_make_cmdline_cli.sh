#!/usr/bin/env bash
# What `make run` runs, read with `make -n -B` (nothing is built or measured; no GPU needed):
#  - FULL=1: every data file of a directory's run that has a committed copy in results-ref/ is
#    made with the command line recorded in that copy's '# cmdline:' line (the same options,
#    in any order, --out= aside; the option names of earlier versions these runs used are
#    mapped to today's: fractals --test=W, tensorcore --test=W, simplex3d --kernel=K,
#    sparsegrid --fig=X, ...); tensorcore's v2readings files are re-paired from the fig10 data
#    of the same work;
#  - the default run's documented trims: hashmesh's figures one sample a row and the CPU rows
#    to 2^21 (Table 4.1's size), fractals' paper maps with 1 + 3 samples and the carpet's compact
#    storage to r = 11, sparsegrid's figx4 with the figure's rows only; FULL=1 and QUICK=1 have
#    none of them;
#  - QUICK=1: every program run gets --quick and writes under results-quick/;
#  - every committed file computed without a GPU ('# gpu: none') is in its directory's host:
#    list, and the files a README's first screen reads are in the default run;
#  - hashmesh's Table 4.1 is made after the seven figures it reads (not Fig. 3.4).
. "$(dirname "$0")/lib.sh"
unset MAKEFLAGS MFLAGS MAKELEVEL   # the make of make test must not pass its variables or -w on
shopt -s extglob
dirs="common simplex2d simplex3d fractals tensorcore sparsegrid hashmesh"
# the recipe that makes FILE in DIR (the last line of make -n -B naming the directory's own
# program or script), ARGS: make variables
recipe() {
  local d=$1 f=$2
  shift 2
  make -n -B --no-print-directory -C "$d" "$@" "$f" 2>/dev/null | grep -E '^\./[a-z0-9_.-]+ ' | tail -n 1
}
# a command line as a sorted list of options: the program (basename) first, --out= and a
# '> FILE' redirection left out, earlier option names mapped to today's
norm() {
  printf '%s\n' "$1" | sed 's/ >.*//' | awk '{
    prog = $1; sub(/.*\//, "", prog); n = 0; hasexp = 0
    for (i = 2; i <= NF; i++) {
      o = $i
      if (o ~ /^--out=/) continue
      if (prog == "fractals" && o ~ /^--test=/) { opt[++n] = "--exp=speedup"; sub(/^--test=/, "--work=", o) }
      else if (prog == "tensorcore" && o ~ /^--test=/) { opt[++n] = "--exp=fig10"; sub(/^--test=/, "--work=", o) }
      else if (prog == "fractals" && o == "--ratios") o = "--exp=ratio"
      else if (prog == "fractals" && o == "--shapes") o = "--exp=shapes"
      else if (prog == "fractals" && o == "--layouts") o = "--exp=layout"
      else if (prog ~ /^simplex[23]d$/ && o == "--layout") o = "--exp=layout"
      else if (prog == "simplex3d" && o ~ /^--kernel=/) sub(/^--kernel=/, "--exp=", o)
      else if (prog == "sparsegrid" && o ~ /^--fig=/) {
        sub(/^--fig=/, "", o)
        if (o ~ /^5\.[0-9]$/) { sub(/\./, "_", o); o = "fig" o }
        else if (o == "error") o = "truncation"
        o = "--exp=" o
      }
      if (o ~ /^--exp=/) hasexp = 1
      opt[++n] = o
    }
    if (prog == "compact" && !hasexp) opt[++n] = "--exp=storage"
    printf "%s ", prog
    for (i = 1; i <= n; i++) print opt[i] | "sort"
    close("sort")
  }' | tr '\n' ' '
}
[ "$(norm './fractals --test=sw --out=x')" = "fractals --exp=speedup --work=sw " ] || cli_fail "norm: '$(norm './fractals --test=sw --out=x')'"

# ---- FULL=1: the results-ref/ command lines
# recorded with --reps=5 --warmup=1 by hand on an H100 (make runs the programs' defaults, 10 and 3;
# simplex3d/README.md says so, and results-ref/88244dd-h200/ holds make's commands run on an H200)
handreps=" simplex3d_speedup_write_rho2.dat simplex3d_speedup_dummy-coarse.dat simplex3d_speedup_triplet-coarse.dat"
handreps+=" simplex3d_speedup_write_nlist.dat simplex3d_speedup_write-coarse_rho4.dat "
checked=0
for d in $dirs; do
  full=$(make -s --no-print-directory -C $d run-list FULL=1) || { cli_fail "$d: run-list FULL=1 failed"; continue; }
  for f in $(printf '%s\n' "$full" | sed -n 's/^\(host\|gpu\): *//p'); do
    ref=$d/results-ref/${f#results/}
    [ -f "$ref" ] || continue
    m=$(recipe $d "$f" FULL=1)
    [ -n "$m" ] || { cli_fail "$d: make -n FULL=1 $f runs no program"; continue; }
    case $f in
      */tensorcore_v2readings_*)
        w=${f##*_}; w=${w%.dat}
        [ "$m" = "./v2_readings.sh results/tensorcore_fig10_$w.dat $f" ] || cli_fail "$d: $f made by '$m'"
        continue ;;
    esac
    c=$(sed -n 's/^# cmdline: //p' "$ref" | head -n 1)
    [ -n "$c" ] || { cli_fail "$ref has no '# cmdline:' line"; continue; }
    case $handreps in *" ${f#results/} "*) c=$(printf '%s' "$c" | sed 's/ --reps=5//; s/ --warmup=1//') ;; esac
    [ "$(norm "$m")" = "$(norm "$c")" ] || cli_fail "$d: make run FULL=1 makes $f with '$m', results-ref/ records '$c'"
    checked=$((checked + 1))
  done
done
[ $checked -ge 80 ] || cli_fail "only $checked results-ref/ command lines compared"

# ---- the default run's trims, and none with FULL=1 or QUICK=1
has() { # WANT(yes|no) LABEL LINE OPTION...
  local want=$1 label=$2 line=$3 o
  shift 3
  for o in "$@"; do
    case " $line " in *" $o "*) [ $want = yes ] || cli_fail "$label: '$o' in '$line'" ;;
                      *) [ $want = no ] || cli_fail "$label: no '$o' in '$line'" ;; esac
  done
}
for fig in fig3_3_sort1d fig3_7_neigh2d fig3_11_table; do
  has yes "hashmesh default $fig" "$(recipe hashmesh results/hashmesh_$fig.dat)" --reps=1 --cpu-max-log2=21
  has no "hashmesh FULL=1 $fig" "$(recipe hashmesh results/hashmesh_$fig.dat FULL=1)" --reps=1 --cpu-max-log2=21
  has no "hashmesh QUICK=1 $fig" "$(recipe hashmesh results-quick/hashmesh_$fig.dat QUICK=1)" --reps=1 --cpu-max-log2=21
done
for w in sw rd ca; do
  has yes "fractals default speedup $w" "$(recipe fractals results/fractals_speedup_$w.dat)" --map=paper --warmup=1 --reps=3
  has no "fractals FULL=1 speedup $w" "$(recipe fractals results/fractals_speedup_$w.dat FULL=1)" --map=paper --warmup=1 --reps=3
done
has yes "compact default carpet" "$(recipe fractals results/fractals_compact_sierpinski-carpet.dat)" --rmax=11 --reps=1
has no "compact default triangle (every level: the README's r = 22)" \
  "$(recipe fractals results/fractals_compact_sierpinski-triangle.dat)" --rmax=11
has no "compact FULL=1 carpet" "$(recipe fractals results/fractals_compact_sierpinski-carpet.dat FULL=1)" --rmax=11
impls=--sparse-impls=cpu_shift,gpu_sparse_table,gpu_sparse_multi_g1_u4,gpu_sparse_pipe
for p in float double; do
  has yes "sparsegrid default figx4 $p" "$(recipe sparsegrid results/sparsegrid_figx4_sparse_$p.dat)" $impls --warmup=1 --reps=3
  has no "sparsegrid FULL=1 figx4 $p" "$(recipe sparsegrid results/sparsegrid_figx4_sparse_$p.dat FULL=1)" $impls --reps=3
  has no "sparsegrid QUICK=1 figx4 $p" "$(recipe sparsegrid results-quick/sparsegrid_figx4_sparse_$p.dat QUICK=1)" $impls --reps=3
done

# ---- QUICK=1: --quick and results-quick/ on every program run (the layout pictures and
# fractals' host files, fixed small computations, take no --quick)
for d in $dirs; do
  for f in $(make -s --no-print-directory -C $d run-list QUICK=1 | sed -n 's/^\(host\|gpu\): *//p'); do
    case $f in results-quick/*) ;; *) cli_fail "$d: QUICK=1 lists $f"; continue ;; esac
    m=$(recipe $d "$f" QUICK=1)
    case $m in
      "./fractals --exp="@(ratio|shapes|layout)" --out=results-quick"|*"> results-quick/"*|./v2_readings.sh\ results-quick/*) ;;
      *"--out=results-quick"*) case " $m " in *" --quick "*) ;; *) cli_fail "$d: QUICK=1 makes $f without --quick: $m" ;; esac ;;
      *) cli_fail "$d: QUICK=1 makes $f outside results-quick/: $m" ;;
    esac
  done
done

# ---- host files: every committed file computed without a GPU is made without one
for d in $dirs; do
  host=" $(make -s --no-print-directory -C $d run-list | sed -n 's/^host: *//p') "
  for ref in $(grep -l '^# gpu: none' $d/results-ref/*.dat 2>/dev/null); do
    b=${ref##*/}
    case $b in *_pictures.dat) continue ;; esac   # written by the run that writes the figure's file
    case $host in *" results/$b "*) ;; *) cli_fail "$d: $b ('# gpu: none' in results-ref/) is not in the host: list" ;; esac
  done
done
# sparsegrid's CPU roofline (no copy in results-ref/) is host-only too, common's bandwidth is not
make -s --no-print-directory -C sparsegrid run-list | grep -q '^host:.* results/sparsegrid_figx9_cpu_roofline.dat' ||
  cli_fail "sparsegrid: figx9_cpu_roofline not in the host: list"
make -s --no-print-directory -C common run-list | grep -qx 'gpu: results/common_bandwidth.dat' ||
  cli_fail "common: the bandwidth file is not its one GPU file"
# the default run makes the files hashmesh's first screen reads (GPU sorts to 2^27, Table 4.2 vs CUB)
for b in hashmesh_sort_scale_uniform.dat hashmesh_tab4_2_best.dat; do
  make -s --no-print-directory -C hashmesh run-list | grep -q "^gpu:.* results/$b\( \|$\)" ||
    cli_fail "hashmesh: $b not in the default run"
done

# ---- Table 4.1 reads the figures' data: made after them (every one but Fig. 3.4)
runs=$(make -n -B --no-print-directory -C hashmesh results/hashmesh_tab4_1_speedups.dat 2>/dev/null | sed -n 's/^\.\/hashmesh .*--exp=\([a-z0-9_]*\).*/\1/p' | tr '\n' ' ')
[ "$runs" = "fig3_3 fig3_5 fig3_6 fig3_7 fig3_9 fig3_10 fig3_11 tab4_1 " ] || cli_fail "hashmesh: Table 4.1's make -n -B runs '$runs'"
cli_done
