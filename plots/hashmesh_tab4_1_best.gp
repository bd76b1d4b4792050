# plots/hashmesh_tab4_1_best.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for
# discretized data", Table 4.1 against the best baselines (beyond the paper) as a bar chart.
# inputs: hashmesh_tab4_1_best.dat
# Reads datadir/hashmesh_tab4_1_best.dat (hashmesh/hashmesh --exp=tab4_1_best, n about 2^21).
# Output: outfile (plots/out/hashmesh_tab4_1_best.pdf|png).
# x: algorithm (Table 4.1's rows); y: speed-up (log) of the hash over the best baseline the data
# names (best_serial, best_omp columns): CPU hash on one core over the best one-core code, CPU
# hash on all cores over the best all-core code, GPU hash (device work only, and with transfers)
# over the best all-core code; the paper-style ratio (CPU hash over qsort / k-D tree /
# bisection) hatched for comparison.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_tab4_1_best.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_tab4_1_best.dat'
set title "beyond the paper: Table 4.1 against the best baselines (about 2 million elements)\n".gpu_of(f)
set ylabel 'speed-up over the best baseline (x)'
set logscale y
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set xtics rotate by 30 right nomirror
set bmargin 8
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 3
set grid ytics
set arrow from graph 0, first 1 to graph 1, first 1 nohead ls ls_bound
plot f using (column("cpu_hash_vs_paper_ref_x")):xticlabels(strcol("algorithm")) ls ls_hash_cpu fill pattern 4 border -1 title 'CPU hash / paper reference (paper-style)', \
     f using (column("cpu_hash_vs_best_serial_x")) ls ls_hash_cpu fill solid 0.8 border -1 title 'CPU hash / best one-core baseline', \
     f using (column("hash_omp_vs_best_omp_x")) ls ls_hash_cpu_omp fill solid 0.4 border -1 title 'CPU hash, all cores / best all-core baseline', \
     f using (column("gpu_vs_best_omp_x")) ls ls_hash_gpu fill solid 0.8 border -1 title 'GPU hash / best all-core baseline', \
     f using (column("gpu_job_vs_best_omp_x")) ls ls_hash_gpu_job fill solid 0.4 border -1 title 'GPU hash with transfers / best all-core baseline'
