# plots/hashmesh_clustered.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data": clustered keys (beyond the paper).
# inputs: hashmesh_clustered_sort.dat
# Reads datadir/hashmesh_clustered_sort.dat (hashmesh/hashmesh --exp=clustered). Output: outfile (plots/out/hashmesh_clustered.pdf|png).
# 1D sort of n = 2^20 keys with Pareto gaps of tail index alpha (x, decreasing: heavier tails to the right).
# Left: time (ms, log), median with [min, max]; right: the perfect hash table's memory (bytes, log).
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_clustered.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_clustered_sort.dat'
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
set multiplot layout 1,2 title "beyond the paper: clustered keys (Pareto gaps), n = 2^{20}\n".gpu_of(f)
set xlabel 'tail index alpha'
set xrange [*:*] reverse
set logscale y
set format y '10^{%L}'
set ylabel 'time per sort (ms)'
set key below horizontal maxcols 2 maxrows 4 font ',9' samplen 1.5 width -3
set bmargin 9   # room for the xlabel above the key (gnuplot puts the key over it otherwise)
plot f using "alpha":(sel('introsort','median_ms')):(sel('introsort','min_ms')):(sel('introsort','max_ms')) with yerrorlines ls ls_introsort title 'introsort (1 core)', \
     f using "alpha":(sel('radix32_cpu','median_ms')):(sel('radix32_cpu','min_ms')):(sel('radix32_cpu','max_ms')) with yerrorlines ls ls_radix32_cpu title 'LSD radix (1 core)', \
     f using "alpha":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash sort (1 core)', \
     f using "alpha":(sel('radix32_cpu_omp','median_ms')):(sel('radix32_cpu_omp','min_ms')):(sel('radix32_cpu_omp','max_ms')) with yerrorlines ls ls_radix32_cpu_omp title 'LSD radix (all cores)', \
     f using "alpha":(sel('hash_cpu_omp','median_ms')):(sel('hash_cpu_omp','min_ms')):(sel('hash_cpu_omp','max_ms')) with yerrorlines ls ls_hash_cpu_omp title 'hash sort (all cores)', \
     f using "alpha":(sel('radix_gpu','median_ms')):(sel('radix_gpu','min_ms')):(sel('radix_gpu','max_ms')) with yerrorlines ls ls_radix title 'CUB radix, 64-bit (GPU)', \
     f using "alpha":(sel('radix32_gpu','median_ms')):(sel('radix32_gpu','min_ms')):(sel('radix32_gpu','max_ms')) with yerrorlines ls ls_radix32_gpu title 'CUB radix, bucket index (GPU)', \
     f using "alpha":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash sort (GPU)'
set ylabel 'perfect table (bytes)'
set key inside top left
plot f using "alpha":(sel('introsort','table_bytes')) with linespoints ls ls_hash_cpu title 'perfect table (4 m bytes)'
unset multiplot
