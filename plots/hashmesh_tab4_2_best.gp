# plots/hashmesh_tab4_2_best.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Table 4.2 against the strongest GPU radix sort (beyond the paper).
# inputs: hashmesh_tab4_2_best.dat hashmesh_tab4_2_best_run2.dat
# Reads datadir/hashmesh_tab4_2_best.dat (hashmesh/hashmesh --exp=tab4_2_best; the reference run) and
# hashmesh_tab4_2_best_run2.dat (a second run of the same command in the same session: the run-to-run
# spread); if datadir/hashmesh_tab4_2_best_cold.dat (the same with --flush-l2) exists, its two series too.
# Output: outfile (plots/out/hashmesh_tab4_2_best.pdf|png).
# x: keys n (log); y: radix time / hash time (log): > 1 = the hash sort is faster.  Series: CUB radix on the
# 64-bit double keys (the paper-style Table 4.2) and on the 32-bit bucket index (end_bit bits); run 1 solid
# with filled points, run 2 open points; cold L2 dotted.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_tab4_2_best.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_tab4_2_best.dat'
f2 = datadir.'/hashmesh_tab4_2_best_run2.dat'
fc = datadir.'/hashmesh_tab4_2_best_cold.dat'
has_cold = file_exists(fc)
set title "beyond the paper: Table 4.2 against the strongest radix sort\n".gpu_of(f)
set xlabel 'keys n'
set ylabel 'radix sort time / hash sort time'
set logscale xy 2
set format x '2^{%L}'
set yrange [0.25:8]
set xrange [2**15.6:2**24.4]
set key bottom left
set arrow from graph 0, first 1 to graph 1, first 1 nohead ls ls_bound
set label 1 'hash faster' at graph 0.02, first 1.12 left font ',9'
set label 2 'radix faster' at graph 0.02, first 0.89 left font ',9'
if (has_cold) {
plot f using "n":"hash_vs_radix64_x" with linespoints ls ls_radix title 'vs CUB radix, 64-bit keys (paper-style), run 1', \
     f2 using "n":"hash_vs_radix64_x" with points ls ls_radix pt 8 title 'the same, run 2', \
     f using "n":"hash_vs_radix32_x" with linespoints ls ls_radix32_gpu title 'vs CUB radix, 32-bit bucket index, run 1', \
     f2 using "n":"hash_vs_radix32_x" with points ls ls_radix32_gpu pt 10 title 'the same, run 2', \
     fc using "n":"hash_vs_radix64_x" with linespoints ls ls_radix dt 3 title '64-bit keys, cold L2', \
     fc using "n":"hash_vs_radix32_x" with linespoints ls ls_radix32_gpu dt 3 title 'bucket index, cold L2'
} else {
plot f using "n":"hash_vs_radix64_x" with linespoints ls ls_radix title 'vs CUB radix, 64-bit keys (paper-style), run 1', \
     f2 using "n":"hash_vs_radix64_x" with points ls ls_radix pt 8 title 'the same, run 2', \
     f using "n":"hash_vs_radix32_x" with linespoints ls ls_radix32_gpu title 'vs CUB radix, 32-bit bucket index, run 1', \
     f2 using "n":"hash_vs_radix32_x" with points ls ls_radix32_gpu pt 10 title 'the same, run 2'
}
