# plots/hashmesh_tab4_1_speedups.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for
# discretized data", Table 4.1 (algorithm speed-ups at about 2 million elements) as a bar chart.
# inputs: hashmesh_tab4_1_speedups.dat
# Reads datadir/hashmesh_tab4_1_speedups.dat (hashmesh/hashmesh --exp=tab4_1, which takes the
# figures' rows nearest 2^21). Output: outfile (plots/out/hashmesh_tab4_1_speedups.pdf|png).
# x: algorithm (Table 4.1's rows); y: speed-up (log): CPU hash over the serial reference
# (qsort / k-D tree / bisection) and GPU hash over the same reference; ours solid, the
# paper's NVIDIA column hatched next to each.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_tab4_1_speedups.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_tab4_1_speedups.dat'
set title "Table 4.1 of [Robey et al.]: speed-ups at about 2 million elements (ours solid, paper hatched)\n".gpu_of(f)
set ylabel 'speed-up over the serial CPU reference (x)'
set logscale y
set yrange [1:*]
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9
set xtics rotate by 30 right nomirror   # each label ends at its tick, above the key below
# the key in a band reserved below the rotated tick labels (below, it ran into 'Neighbor2D')
set bmargin 8
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 2
set grid ytics
plot f using (column("cpu_hash_vs_ref_x")):xticlabels(strcol("algorithm")) ls ls_hash_cpu fill solid 0.8 border -1 title 'CPU hash / reference (ours)', \
     f using (column("paper_cpu_hash_vs_ref_x")) ls ls_hash_cpu fill pattern 4 border -1 title 'CPU hash / reference (paper)', \
     f using (column("gpu_vs_ref_x")) ls ls_hash_gpu fill solid 0.8 border -1 title 'GPU hash / reference (ours)', \
     f using (column("paper_gpu_vs_ref_x")) ls ls_hash_gpu fill pattern 5 border -1 title 'GPU hash / reference (paper, C2050)'
