# plots/hashmesh_fig3_11_table.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.11.
# inputs: hashmesh_fig3_11_table.dat
# Reads datadir/hashmesh_fig3_11_table.dat (hashmesh/hashmesh --exp=fig3_11). Output: outfile (plots/out/hashmesh_fig3_11_table.pdf|png).
# x: look-ups (log); y: time for all look-ups (ms) (log), median with [min, max] error bars; one line per method.
# CPU methods are serial C on the GPU host; the GPU is named from the data's '# gpu:' line.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_fig3_11_table.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_fig3_11_table.dat'
set title "Fig. 3.11 of [Robey et al.]: table look-up, 51 x 23 EOS-like table, bilinear\n".gpu_of(f)
set xlabel 'look-ups'
set ylabel 'time for all look-ups (ms)'
set logscale xy
set format y '10^{%L}'
set format x '2^{%L}'; set logscale x 2
# a series keeps only its method's rows (NaN elsewhere: skipped, see style.gp)
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
plot f using "n":(sel('linear','median_ms')):(sel('linear','min_ms')):(sel('linear','max_ms')) with yerrorlines ls ls_linear title 'linear search (CPU)', \
     f using "n":(sel('bisection','median_ms')):(sel('bisection','min_ms')):(sel('bisection','max_ms')) with yerrorlines ls ls_bisection title 'bisection (CPU)', \
     f using "n":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash, Listing 5 (CPU)', \
     f using "n":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash, shared memory (GPU)'
