# plots/hashmesh_fig3_5_sort2d.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.5.
# inputs: hashmesh_fig3_5_sort2d.dat
# Reads datadir/hashmesh_fig3_5_sort2d.dat (hashmesh/hashmesh --exp=fig3_5). Output: outfile (plots/out/hashmesh_fig3_5_sort2d.pdf|png).
# x: AMR cells n (levmax 1) (log); y: time per sort (ms) (log), median with [min, max] error bars; one line per method.
# CPU methods are serial C on the GPU host; the GPU is named from the data's '# gpu:' line.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_fig3_5_sort2d.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_fig3_5_sort2d.dat'
set title "Fig. 3.5 of [Robey et al.]: 2D sort of AMR cells, (j, i) order\n".gpu_of(f)
set xlabel 'AMR cells n (levmax 1)'
set ylabel 'time per sort (ms)'
set logscale xy
set format y '10^{%L}'
set format x '2^{%L}'; set logscale x 2
# a series keeps only its method's rows (NaN elsewhere: skipped, see style.gp)
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
plot f using "n":(sel('qsort','median_ms')):(sel('qsort','min_ms')):(sel('qsort','max_ms')) with yerrorlines ls ls_qsort title 'qsort (CPU)', \
     f using "n":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash sort (CPU)', \
     f using "n":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash sort (GPU)'
