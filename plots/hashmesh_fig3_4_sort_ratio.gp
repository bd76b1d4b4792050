# plots/hashmesh_fig3_4_sort_ratio.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.4.
# inputs: hashmesh_fig3_4_sort_ratio.dat
# Reads datadir/hashmesh_fig3_4_sort_ratio.dat (hashmesh/hashmesh --exp=fig3_4). Output: outfile (plots/out/hashmesh_fig3_4_sort_ratio.pdf|png).
# x: dmax / dmin (hash table grows with it) (log); y: time per sort (ms) (log), median with [min, max] error bars; one line per method.
# CPU methods are serial C on the GPU host; the GPU is named from the data's '# gpu:' line.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_fig3_4_sort_ratio.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_fig3_4_sort_ratio.dat'
set title "Fig. 3.4 of [Robey et al.]: 1D sort of 2^{20} keys vs dmax/dmin\n".gpu_of(f)
set xlabel 'dmax / dmin (hash table grows with it)'
set ylabel 'time per sort (ms)'
set logscale xy
set format y '10^{%L}'
set logscale x 2; set xrange [0.8:40]; set key top left
# a series keeps only its method's rows (NaN elsewhere: skipped, see style.gp)
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
plot f using "param":(sel('qsort','median_ms')):(sel('qsort','min_ms')):(sel('qsort','max_ms')) with yerrorlines ls ls_qsort title 'qsort (CPU)', \
     f using "param":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash sort (CPU)', \
     f using "param":(sel('radix_gpu','median_ms')):(sel('radix_gpu','min_ms')):(sel('radix_gpu','max_ms')) with yerrorlines ls ls_radix title 'CUB radix sort (GPU)', \
     f using "param":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash sort (GPU)'
