# plots/sparsegrid_figx7_layout.gp -- thesis "Multi-level splitting of full grids on the GPU",
# Fig. 2.9 (subspace order, dimensional shift) measured beside the in-place full-grid layout.
# inputs: sparsegrid_figx7_layout.dat
# Reads datadir/sparsegrid_figx7_layout.dat (sparsegrid --exp=layout).  One panel per tile
# shape (33x33, 9x9x9, 9x9x5x5); x: bytes moved (read + write, MB, log; 8 MB fits in the L2,
# 537 MB does not); y: GB/s (log).  Lines: copy kernel (the ceiling); in place (plain layout):
# GPU fused pipelined, CPU tuned; subspace order: GPU k_sparse from the plain layout into
# subspace order, within subspace order, and back to the plain layout (inverse), each with
# computed offsets (solid) and the offset table (dashed); CPU with the dimensional shift
# (dashed).  The copy kernel is drawn thicker (style.gp gives it the CPU's colour).
# One legend, in a band below the panels.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx7_layout.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx7_layout.dat'
if (term eq 'png') { set terminal pngcairo size 1500,620 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,4.6in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
set style line 120 lc rgb '#8b0000' pt 13 dt 1
set style line 121 lc rgb '#2ca02c' pt 7
set style line 122 lc rgb '#9467bd' pt 9
set style line 123 lc rgb '#ff7f0e' pt 11
sel(s, i) = (strcol("shape") eq s && strcol("impl") eq i) ? column("gbs") : NaN
mb(x) = x / 1e6
title(i) = (i == 1) ? 'copy kernel' : (i == 2) ? 'GPU in place (fused pipelined)' : (i == 3) ? 'GPU plain -> subspace' : \
           (i == 4) ? 'GPU plain -> subspace, table' : (i == 5) ? 'GPU subspace -> subspace' : \
           (i == 6) ? 'GPU subspace -> subspace, table' : (i == 7) ? 'GPU subspace -> plain (inverse)' : \
           (i == 8) ? 'CPU in place (tuned)' : (i == 9) ? 'CPU subspace order (dimensional shift)' : \
           'GPU subspace -> plain (inverse), table'
impls = "copy gpu_fused_pipelined gpu_subspace_from_plain gpu_subspace_from_plain_table gpu_subspace gpu_subspace_table gpu_subspace_to_plain_inverse cpu_tuned cpu_shift gpu_subspace_to_plain_inverse_table"
# line style and dash per series (same order as impls)
lsof(i) = (i == 1) ? ls_copy : (i == 2) ? 120 : (i <= 4) ? 121 : (i <= 6) ? 122 : (i == 7 || i == 10) ? 123 : ls_cpu
dtof(i) = (i == 4 || i == 6 || i == 9 || i == 10) ? 2 : 1
# the copy kernel (the ceiling) thicker: it shares its colour with the CPU lines in style.gp
lwof(i) = (i == 1) ? 3 : 1
set multiplot title 'Fig. 2.9 of the thesis (its layout), timed: full grids in place vs in subspace order, '.gpu_of(f)
set logscale xy
set format y '%g'
set xlabel 'bytes moved (MB)'
set ylabel 'GB/s'
set yrange [1:10000]
set xrange [3:2000]
unset key
set size 0.333, 0.75
do for [p=1:3] {
  s = word("33x33 9x9x9 9x9x5x5", p)
  set origin (p - 1) * 0.333, 0.2
  set title 'tiles '.s
  plot for [i=1:10] f using (mb(column("bytes_moved"))):(sel(s, word(impls, i))) with linespoints ls lsof(i) dt dtof(i) lw lwof(i) notitle
}
# the legend alone, in a band below the panels
set origin 0, 0
set size 1, 0.2
unset title
unset xlabel
unset ylabel
unset logscale
unset border
unset tics
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 3 font ',10' samplen 2
plot for [i=1:10] NaN with linespoints ls lsof(i) dt dtof(i) lw lwof(i) title title(i)
unset multiplot
