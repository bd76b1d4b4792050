# plots/sparsegrid_figx6_progressive.gp -- thesis "Multi-level splitting of full grids on the
# GPU", Fig. 2.5: a full grid sent subspace by subspace (coarse to fine) and rebuilt by the
# receiver from what has arrived (missing surpluses = 0, then dehierarchization).
# inputs: sparsegrid_figx6_progressive.dat sparsegrid_figx6_progressive_pictures.dat
# Reads datadir/sparsegrid_figx6_progressive*.dat (sparsegrid --exp=progressive, host only).
# (a) RMS and (b) max error at the grid points vs bytes received (float32 stream, log-log),
# smooth exp(-|x-0.3|^2) and a sharp field (bump, plateau with a sharp rim, a step, a wave),
# 2D 257^2 (solid) and 3D 33^3 (dashed); (f) the 2D sharp field complete and (c)-(e) as
# received after about 1/64, 1/16, 1/4 of the bytes (every 4th point).  Legends below.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx6_progressive.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx6_progressive.dat'
fp = datadir.'/sparsegrid_figx6_progressive_pictures.dat'
if (term eq 'png') { set terminal pngcairo size 1500,950 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,7in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
set style line 101 lc rgb '#1f77b4' pt 7 ps 0.4
set style line 102 lc rgb '#d62728' pt 5 ps 0.4
sel(fn, d, col) = (strcol("function") eq fn && column("d") == d) ? column(col) : NaN
set multiplot layout 2,3 title 'Fig. 2.5 of the thesis: progressive reconstruction from a subspace-ordered stream'
set logscale xy
set format x '10^{%T}'
set format y '10^{%T}'
set xlabel 'bytes received' offset 0,0.5
set key below font ',9' samplen 2 maxrows 2 height 1
set bmargin 6
do for [c in "err_rms err_max"] {
  set title (c eq "err_rms" ? '(a) RMS error at the grid points' : '(b) max error at the grid points')
  set ylabel (c eq "err_rms" ? 'RMS |u - reconstruction|' : 'max |u - reconstruction|')
  plot f using "bytes_received":(sel("smooth", 2, c)) with lines ls 101 dt 1 title 'smooth, 2D', \
       f using "bytes_received":(sel("smooth", 3, c)) with lines ls 101 dt 2 title 'smooth, 3D', \
       f using "bytes_received":(sel("sharp", 2, c)) with lines ls 102 dt 1 title 'sharp, 2D', \
       f using "bytes_received":(sel("sharp", 3, c)) with lines ls 102 dt 2 title 'sharp, 3D'
}
# the pictures: the complete field top right, the three stages in the second row
unset logscale
unset key
unset grid
set bmargin 2
set format x '%g'
set format y '%g'
set border 3
set tics
set size ratio -1
set xrange [0:1]
set yrange [0:1]
set cbrange [-0.3:1.6]
set palette defined (0 '#313695', 1 '#74add1', 2 '#ffffbf', 3 '#f46d43', 4 '#a50026')
unset colorbox
set xtics 0.5
set ytics 0.5
unset xlabel
unset ylabel
pic(st) = (column("stage") == st) ? column("value") : NaN
set title '(f) complete (the original field)'
plot fp using "x":"y":(pic(3)) with points pt 5 ps 0.8 lc palette notitle
do for [st=0:2] {
  stats fp using (column("stage") == st ? column("fraction") : NaN) nooutput
  set title sprintf('(%s) after %.1f%% of the bytes', st == 0 ? 'c' : st == 1 ? 'd' : 'e', 100 * STATS_max)
  plot fp using "x":"y":(pic(st)) with points pt 5 ps 0.8 lc palette notitle
}
