# plots/hashmesh_sort_best.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.3 against the strongest sorts (beyond the paper).
# inputs: hashmesh_sort_best.dat
# Reads datadir/hashmesh_sort_best.dat (hashmesh/hashmesh --exp=sort_best). Output: outfile (plots/out/hashmesh_sort_best.pdf|png).
# x: keys n (log); y: time per sort (ms) (log), median with [min, max] error bars; one line per method.
# CPU: one core (solid) and all OpenMP threads (dashed, the file's '# cpu:' line); GPU named from '# gpu:'.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_sort_best.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_sort_best.dat'
set title "beyond the paper: 1D sort against the strongest sorts (dmin 2, dmax 4)\n".gpu_of(f)
set xlabel 'keys n'
set ylabel 'time per sort (ms)'
set logscale xy
set format y '10^{%L}'
set format x '2^{%L}'; set logscale x 2
set key top left
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
plot f using "n":(sel('introsort','median_ms')):(sel('introsort','min_ms')):(sel('introsort','max_ms')) with yerrorlines ls ls_introsort title 'introsort (1 core)', \
     f using "n":(sel('radix32_cpu','median_ms')):(sel('radix32_cpu','min_ms')):(sel('radix32_cpu','max_ms')) with yerrorlines ls ls_radix32_cpu title 'LSD radix, bucket index (1 core)', \
     f using "n":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash sort (1 core)', \
     f using "n":(sel('radix32_cpu_omp','median_ms')):(sel('radix32_cpu_omp','min_ms')):(sel('radix32_cpu_omp','max_ms')) with yerrorlines ls ls_radix32_cpu_omp title 'LSD radix (all cores)', \
     f using "n":(sel('hash_cpu_omp','median_ms')):(sel('hash_cpu_omp','min_ms')):(sel('hash_cpu_omp','max_ms')) with yerrorlines ls ls_hash_cpu_omp title 'hash sort (all cores)', \
     f using "n":(sel('radix_gpu','median_ms')):(sel('radix_gpu','min_ms')):(sel('radix_gpu','max_ms')) with yerrorlines ls ls_radix title 'CUB radix, 64-bit keys (GPU)', \
     f using "n":(sel('radix32_gpu','median_ms')):(sel('radix32_gpu','min_ms')):(sel('radix32_gpu','max_ms')) with yerrorlines ls ls_radix32_gpu title 'CUB radix, bucket index (GPU)', \
     f using "n":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash sort (GPU)', \
     f using "n":(sel('hash_gpu_job','median_ms')):(sel('hash_gpu_job','min_ms')):(sel('hash_gpu_job','max_ms')) with yerrorlines ls ls_hash_gpu_job title 'hash sort (GPU, with transfers)'
