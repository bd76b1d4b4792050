# plots/sparsegrid_figx1_bandwidth.gp -- beyond the thesis "Multi-level splitting of full grids
# on the GPU": hierarchization throughput for large tile counts, up to >= 1 GiB of tiles.
# inputs: sparsegrid_figx1_bandwidth.dat
# Reads datadir/sparsegrid_figx1_bandwidth.dat (sparsegrid --exp=bandwidth).  One panel per tile
# shape (33x33, 9x9x9, 9x9x5x5); x: bytes moved (read + write, MB, log); y: GB/s.  Lines: a copy
# kernel of the same bytes in the same run (the measured ceiling), GPU fused (lines in registers:
# hierarchization and dehierarchization; the point-code variant, our first try; the pipelined
# variant, persistent grid with cp.async stages, both directions), GPU thesis-style, CPU tuned
# (16 threads); 60% of copy dashed (the goal).
# Local style (style.gp has one line style for "gpu fused / ours"): the pipelined variant in a
# darker red with filled diamonds.
set style line 120 lc rgb '#8b0000' pt 13 dt 1
ls_gpu_fused_pipe = 120
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx1_bandwidth.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx1_bandwidth.dat'
if (term eq 'png') { set terminal pngcairo size 1500,550 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,4in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
sel(s, i) = (strcol("shape") eq s && strcol("impl") eq i) ? column("gbs") : NaN
sel60(s) = (strcol("shape") eq s && strcol("impl") eq "copy") ? 0.6 * column("gbs") : NaN
mb(x) = x / 1e6
set multiplot layout 1,3 title 'beyond the thesis: hierarchization throughput, bytes read + written once, '.gpu_of(f)
set logscale x
set logscale y
set format y '%g'
set xlabel 'bytes moved (MB)'
set ylabel 'GB/s'
# one key for the three panels (the same series in each), drawn with the first panel in a band
# reserved below all three (equal bmargin keeps the panels the same size): nothing covers data
set bmargin 7
set yrange [10:10000]
do for [s in "33x33 9x9x9 9x9x5x5"] {
  set title 'tiles '.s
  if (s eq "33x33") { set key at screen 0.5, screen 0.02 center bottom vertical maxrows 2 font ',9' samplen 2 width 1 } \
  else { unset key }
  plot f using (mb(column("bytes_moved"))):(sel(s, "copy")) with linespoints ls ls_copy title 'copy kernel (ceiling)', \
       f using (mb(column("bytes_moved"))):(sel60(s)) with lines ls ls_bound title '60% of copy', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_fused")) with linespoints ls ls_gpu_fused title 'GPU fused', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_fused_inverse")) with linespoints ls ls_gpu_fused dt 2 title 'GPU fused, inverse', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_fused_points")) with linespoints ls ls_gpu_fused dt 3 pt 6 title 'GPU fused, point codes (first try)', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_fused_pipelined")) with linespoints ls ls_gpu_fused_pipe title 'GPU fused pipelined', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_fused_pipelined_inverse")) with linespoints ls ls_gpu_fused_pipe dt 2 title 'GPU fused pipelined, inverse', \
       f using (mb(column("bytes_moved"))):(sel(s, "gpu_thesis")) with linespoints ls ls_gpu_thesis title 'GPU thesis-style', \
       f using (mb(column("bytes_moved"))):(sel(s, "cpu_tuned")) with linespoints ls ls_cpu title 'CPU tuned'
}
unset multiplot
