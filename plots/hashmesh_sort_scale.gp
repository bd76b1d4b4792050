# plots/hashmesh_sort_scale.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data": Table 4.2 extended to 2^27 keys (beyond the paper).
# inputs: hashmesh_sort_scale_uniform.dat hashmesh_sort_scale_clustered.dat
# Reads datadir/hashmesh_sort_scale_{uniform,clustered}.dat (hashmesh/hashmesh --exp=sort_scale). Output: outfile
# (plots/out/hashmesh_sort_scale.pdf|png).  Left: the uniform keys of sec. 3.1; right: clustered keys (Pareto gaps).
# Top: G keys/s (n / median time, log) vs keys n for CUB radix32 (the 32-bit bucket index, least end bit), the paper's
# GPU hash sort, the partitioned hash sort (automatic plan) and its direct scheme at every n (its first version);
# lines: the copy ceiling at minbytes bytes a key (the file's '# copy_gbs:' / minbytes: read a key, write its index)
# and the one-sweep radix sort's A100 figure (the file's '# reference:' line).
# Bottom: radix32 time / time (log): > 1 = faster than CUB radix32; the dotted line is the target (target_x).
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_sort_scale.'.term
if (!exists("minbytes")) minbytes = 12   # the least bytes a key of any sort: read the 8-byte key, write a 4-byte index
if (!exists("target_x")) target_x = 1.2  # the speedup over radix32 the partitioned sort aims at, at every n
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1400,1000 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 9in,6.6in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
fu = datadir.'/hashmesh_sort_scale_uniform.dat'
fc = datadir.'/hashmesh_sort_scale_clustered.dat'
# a number from a metadata line: the first number after 'key: ' (copy_gbs) or after 'A100'-style text (reference)
meta_num(f, key, pat) = system(sprintf("sed -n 's/^# %s: %s.*/\\1/p' '%s' | head -n 1", key, pat, f))
num_or_nan(s) = (s eq '') ? NaN : real(s)
copy_gbs = num_or_nan(meta_num(fu, 'copy_gbs', '\([0-9.]*\)'))
onesweep = num_or_nan(meta_num(fu, 'reference', '.*: \([0-9.]*\) G.*'))
ceiling = copy_gbs / minbytes
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
set multiplot layout 2,2 title "beyond the paper: Table 4.2 extended, GPU sorts to 2^{27} keys\n".gpu_of(fu)
set logscale x 2
set format x '2^{%L}'
set xrange [2**15.6:2**27.4]
set xlabel 'keys n'
# ---- top: G keys/s
set logscale y
set format y '10^{%L}'
set yrange [0.5:1000]
set ylabel 'G keys/s (n / time)'
set key bottom right font ',9' spacing 1.0
do for [panel = 1:2] {
    f = panel == 1 ? fu : fc
    set title (panel == 1 ? 'uniform keys (sec. 3.1)' : 'clustered keys (alpha 1.2)')
    plot f using "n":(sel('radix32_gpu','gkeys_s')) with linespoints ls ls_radix32_gpu title 'CUB radix32 (bucket index)', \
         f using "n":(sel('hash_gpu','gkeys_s')) with linespoints ls ls_hash_gpu title 'hash sort (paper, GPU)', \
         f using "n":(sel('hash_part_direct_gpu','gkeys_s')) with linespoints ls ls_hash_part_direct_gpu title 'partitioned hash, direct scheme', \
         f using "n":(sel('hash_part_gpu','gkeys_s')) with linespoints ls ls_hash_part_gpu title 'partitioned hash, automatic plan', \
         ceiling with lines ls ls_bound title sprintf('copy ceiling at %d B/key (%.0f GB/s)', minbytes, copy_gbs), \
         onesweep with lines ls ls_bound dt 3 title sprintf('one-sweep radix sort, A100: %.1f G keys/s', onesweep)
}
# ---- bottom: speedup over radix32
set yrange [0.25:8]
set logscale y 2
set format y '%g'
set ylabel 'radix32 time / time'
set key bottom left font ',9'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead ls ls_bound
set arrow 2 from graph 0, first target_x to graph 1, first target_x nohead ls ls_bound dt 3
do for [panel = 1:2] {
    f = panel == 1 ? fu : fc
    set title (panel == 1 ? 'uniform keys: speedup over CUB radix32' : 'clustered keys: speedup over CUB radix32')
    plot f using "n":(sel('hash_gpu','speedup_vs_radix32_x')) with linespoints ls ls_hash_gpu title 'hash sort (paper, GPU)', \
         f using "n":(sel('hash_part_direct_gpu','speedup_vs_radix32_x')) with linespoints ls ls_hash_part_direct_gpu title 'partitioned hash, direct scheme', \
         f using "n":(sel('hash_part_gpu','speedup_vs_radix32_x')) with linespoints ls ls_hash_part_gpu title 'partitioned hash, automatic plan', \
         NaN with lines ls ls_bound dt 3 title sprintf('target %.1fx', target_x)
}
unset multiplot
