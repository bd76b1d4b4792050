# plots/hashmesh_fig3_3_sort1d.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data", Fig. 3.3.
# inputs: hashmesh_fig3_3_sort1d.dat
# Reads datadir/hashmesh_fig3_3_sort1d.dat (hashmesh/hashmesh --exp=fig3_3). Output: outfile (plots/out/hashmesh_fig3_3_sort1d.pdf|png).
# x: keys n (log); y: time per sort (ms) (log), median with [min, max] error bars; one line per method.
# CPU methods are serial C on the GPU host; the GPU is named from the data's '# gpu:' line.
# The paper's numbers (Tesla C2050 GPU, one Opteron 6168 core): the CPU hash sort "about a factor
# of four" faster than qsort (4.16x, Table 4.1) and the GPU hash sort 2-3x faster than the CUDPP
# radix sort (2.68x at about 2 million keys, Table 4.2); dashed: our qsort / 4.16 and our radix /
# 2.68, where the hash sorts would lie at the paper's speed-ups.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_fig3_3_sort1d.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_fig3_3_sort1d.dat'
set title "Fig. 3.3 of [Robey et al.]: 1D sort (dmin 2, dmax 4)\n".gpu_of(f)
set xlabel 'keys n'
set ylabel 'time per sort (ms)'
set logscale xy
set format y '10^{%L}'
set format x '2^{%L}'; set logscale x 2
# a series keeps only its method's rows (NaN elsewhere: skipped, see style.gp)
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
paper_cpu_x = 4.16 # Table 4.1, Sort: CPU hash / qsort ("about a factor of four", sec. 3.1)
paper_gpu_x = 2.68 # Table 4.2, NVIDIA: GPU hash / CUDPP radix ("a factor of two to three", sec. 3.1)
set label 1 sprintf("paper (C2050, one Opteron core): CPU hash %.2fx qsort,\nGPU hash %.2fx CUDPP radix (2-3x in Fig. 3.3)", \
    paper_cpu_x, paper_gpu_x) at graph 0.98, graph 0.05 right font ',9'
plot f using "n":(sel('qsort','median_ms')):(sel('qsort','min_ms')):(sel('qsort','max_ms')) with yerrorlines ls ls_qsort title 'qsort (CPU)', \
     f using "n":(sel('hash_cpu','median_ms')):(sel('hash_cpu','min_ms')):(sel('hash_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'hash sort (CPU)', \
     f using "n":(sel('radix_gpu','median_ms')):(sel('radix_gpu','min_ms')):(sel('radix_gpu','max_ms')) with yerrorlines ls ls_radix title 'CUB radix sort (GPU)', \
     f using "n":(sel('hash_gpu','median_ms')):(sel('hash_gpu','min_ms')):(sel('hash_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'hash sort (GPU)', \
     f using "n":(sel('qsort','median_ms') / paper_cpu_x) with lines ls ls_bound title sprintf('qsort / %.2f (paper: CPU hash)', paper_cpu_x), \
     f using "n":(sel('radix_gpu','median_ms') / paper_gpu_x) with lines ls ls_bound dt 3 title sprintf('CUB radix / %.2f (paper: GPU hash)', paper_gpu_x)
