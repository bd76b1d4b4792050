# plots/sparsegrid_figx8_pipe.gp -- beyond the thesis (its future work, ch. 6): batched sparse-grid
# hierarchization on the GPU against its ceiling, H200 and H100, every kernel family.
# inputs: h200-pipe/float/d2/sparsegrid_figx4_sparse_float.dat h200-pipe/float/d3/sparsegrid_figx4_sparse_float.dat h200-pipe/float/d4/sparsegrid_figx4_sparse_float.dat h200-pipe/float/d5/sparsegrid_figx4_sparse_float.dat h200-pipe/float/d6/sparsegrid_figx4_sparse_float.dat h200-pipe/double/d2/sparsegrid_figx4_sparse_double.dat h200-pipe/double/d3/sparsegrid_figx4_sparse_double.dat h200-pipe/double/d4/sparsegrid_figx4_sparse_double.dat h200-pipe/double/d5/sparsegrid_figx4_sparse_double.dat h200-pipe/double/d6/sparsegrid_figx4_sparse_double.dat h100-pipe/float/d2/sparsegrid_figx4_sparse_float.dat h100-pipe/float/d3/sparsegrid_figx4_sparse_float.dat h100-pipe/float/d4/sparsegrid_figx4_sparse_float.dat h100-pipe/float/d5/sparsegrid_figx4_sparse_float.dat h100-pipe/float/d6/sparsegrid_figx4_sparse_float.dat h100-pipe/double/d2/sparsegrid_figx4_sparse_double.dat h100-pipe/double/d3/sparsegrid_figx4_sparse_double.dat h100-pipe/double/d4/sparsegrid_figx4_sparse_double.dat h100-pipe/double/d5/sparsegrid_figx4_sparse_double.dat h100-pipe/double/d6/sparsegrid_figx4_sparse_double.dat h200-bank/run1/float/d4/sparsegrid_figx4_sparse_float.dat h200-bank/run1/float/d5/sparsegrid_figx4_sparse_float.dat h200-bank/run1/float/d6/sparsegrid_figx4_sparse_float.dat h200-bank/run1/double/d4/sparsegrid_figx4_sparse_double.dat h200-bank/run1/double/d5/sparsegrid_figx4_sparse_double.dat h200-bank/run1/double/d6/sparsegrid_figx4_sparse_double.dat
# Reads datadir/{h200,h100}-pipe/<precision>/d<d>/sparsegrid_figx4_sparse_<precision>.dat (sparsegrid
# --exp=sparse, one d per file, 256 MiB of input) through sparsegrid/sparse_best.awk (the best row per
# d and family at the largest batch).  Panels (a) float, (b) double: x: d; y: % of the copy kernel of
# the same bytes (forward; the inverse of the same row is within a point or two, see the data);
# per GPU (H200 red, H100 blue) k_sparse_pipe (solid), k_sparse_stream (dashed), k_sparse_multi
# (dotted); k_sparse_fam on the H200, its `_bank` plans included (green, from datadir/h200-bank/run1/<precision>/d<d>/, d = 4..6:
# its plan refuses the longer poles of d = 2, 3); the 60 % goal (grey) and the full-grid fused kernel's level on the H200 (float, 512 MiB
# moved, sparsegrid_figx1_bandwidth.dat: dash-dot).  The CPU (cpu_tuned, 16 cores) is against the
# host's triad, not the copy kernel: it is in the README's table, not here.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx8_pipe.'.term
load styledir.'/style.gp'
best(g, p) = sprintf("< awk -f sparsegrid/sparse_best.awk %s/%s-pipe/%s/d*/sparsegrid_figx4_sparse_%s.dat", datadir, g, p, p)
bestfam(p) = sprintf("< awk -f sparsegrid/sparse_best.awk %s/h200-bank/run1/%s/d*/sparsegrid_figx4_sparse_%s.dat", datadir, p, p)
fam(f, col) = strcol(2) eq f ? column(col) : NaN
# the full-grid fused kernel beyond L2 at ~512 MiB moved (H200, float): its best pct_copy
fb = datadir.'/sparsegrid_figx1_bandwidth.dat'
full = system(sprintf("awk '/^#/ { next } !h { for (k = 1; k <= NF; k++) c[$k] = k; h = 1; next } $c[\"impl\"] ~ /^gpu_fused/ && $c[\"bytes_moved\"] > 5e8 && $c[\"bytes_moved\"] < 6e8 && $c[\"pct_copy\"] > m { m = $c[\"pct_copy\"] } END { print m + 0 }' '%s' 2>/dev/null", fb)) + 0
set multiplot layout 1,2 title "beyond the thesis (its future work, ch. 6): sparse-grid hierarchization, 256 MiB per d, best row per d and kernel family"
set xlabel 'd'
set ylabel '% of the copy kernel'
set xrange [1.7:6.3]
set xtics 1
set yrange [0:100]
set key bottom left font ',8' samplen 2
do for [p in "float double"] {
  set title (p eq 'float' ? '(a) float' : '(b) double')
  plot 60 with lines ls ls_bound title '60 % (goal)', \
       (p eq 'float' && full > 0 ? full : NaN) with lines ls ls_bound dt 4 title (p eq 'float' && full > 0 ? sprintf('full-grid fused kernel, H200 (%.0f %%)', full) : ''), \
       best('h200', p) using "d":(fam('pipe', 3)) with linespoints lc rgb '#d62728' pt 7 dt 1 title 'k\_sparse\_pipe, H200', \
       best('h200', p) using "d":(fam('stream', 3)) with linespoints lc rgb '#d62728' pt 6 dt 2 title 'k\_sparse\_stream, H200', \
       best('h200', p) using "d":(fam('multi', 3)) with linespoints lc rgb '#d62728' pt 4 dt 3 title 'k\_sparse\_multi, H200', \
       bestfam(p) using "d":(fam('fam', 3)) with linespoints lc rgb '#2ca02c' pt 9 dt 1 lw 2 title 'k\_sparse\_fam, H200', \
       best('h100', p) using "d":(fam('pipe', 3)) with linespoints lc rgb '#1f77b4' pt 5 dt 1 title 'k\_sparse\_pipe, H100', \
       best('h100', p) using "d":(fam('stream', 3)) with linespoints lc rgb '#1f77b4' pt 6 dt 2 title 'k\_sparse\_stream, H100', \
       best('h100', p) using "d":(fam('multi', 3)) with linespoints lc rgb '#1f77b4' pt 4 dt 3 title 'k\_sparse\_multi, H100'
}
unset multiplot
