# plots/hashmesh_fig3_7_neigh2d.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.7.
# inputs: hashmesh_fig3_7_neigh2d.dat
# Reads datadir/hashmesh_fig3_7_neigh2d.dat (hashmesh/hashmesh --exp=fig3_7). Output: outfile (plots/out/hashmesh_fig3_7_neigh2d.pdf|png).
# x: AMR cells n (levmax 1) (log); y: time for all neighbours (ms) (log), median with [min, max] error bars; one line per method.
# CPU methods are serial C on the GPU host; the GPU is named from the data's '# gpu:' line.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_fig3_7_neigh2d.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_fig3_7_neigh2d.dat'
set title "Fig. 3.7 of [Robey et al.]: 2D neighbours (Listing 2)\n".gpu_of(f)
set xlabel 'AMR cells n (levmax 1)'
set ylabel 'time for all neighbours (ms)'
set logscale xy
set format y '10^{%L}'
set format x '2^{%L}'; set logscale x 2
# a series keeps only its method's rows (NaN elsewhere: skipped, see style.gp)
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
plot f using "n":(sel('brute','median_ms')):(sel('brute','min_ms')):(sel('brute','max_ms')) with yerrorlines ls ls_brute title 'brute force (CPU)', \
     f using "n":(sel('kdtree','median_ms')):(sel('kdtree','min_ms')):(sel('kdtree','max_ms')) with yerrorlines ls ls_kdtree title 'k-D tree (CPU)', \
     f using "n":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash (CPU)', \
     f using "n":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash (GPU)'
