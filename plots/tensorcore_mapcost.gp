# plots/tensorcore_mapcost.gp -- how much of the sw kernel's time the map takes (no paper
# figure; measured next to Fig. 10 of Quezada, tensor-core lambda_tc, in the same sweep).
# inputs: tensorcore_fig10_sw.dat
# Reads datadir/tensorcore_fig10_sw.dat.  One panel per rho (8, 16, 32); x: n = 2^r (log2);
# y: speedup over fractals' lambda (speedup_x).  `table` is the sw kernel with lambda looked up
# in a precomputed table instead of computed: its speedup is what ANY faster map could buy at
# most.  Also lambda-thread (lambda in every thread), mma / mma-warp (ours, tensor cores) and
# redux / redux-warp (the same parallel digits without tensor cores), v2-mma (ours) and
# v2-lambda (v2's sub-block layout with the classic lambda: what the layout alone gives).
# Output: plots/out/tensorcore_mapcost.pdf.
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_mapcost.'.term
if (term eq 'png') { set terminal pngcairo size 1500,500 enhanced font 'Helvetica,12' linewidth 1.5 }
load styledir.'/style.gp'
if (term ne 'png') { set terminal pdfcairo size 11in,3.6in enhanced font 'Helvetica,10' linewidth 1.5; set output outfile }
f = datadir.'/tensorcore_fig10_sw.dat'
rhos = '8 16 32'
sel(m, rho) = (strcol("map") eq m && column("rho") == rho) ? column("speedup_x") : NaN
# local styles (not in style.gp): the table lookup and the two non-tensor-core controls
set style line 41 lc rgb '#000000' pt 2 dt 2   # table: lambda looked up (map-cost bound)
set style line 42 lc rgb '#8c564b' pt 4 dt 1   # redux (warp 0, no tensor core)
set style line 43 lc rgb '#8c564b' pt 6 dt 3   # redux-warp
set style line 44 lc rgb '#9467bd' pt 12 dt 3  # mma-warp
set style line 45 lc rgb '#ff7f0e' pt 13 dt 2  # v2-mma (ours)
set style line 46 lc rgb '#17becf' pt 8 dt 1   # v2-lambda (v2's sub-blocks, classic lambda)
set logscale x 2
set format x '2^{%L}'
set xlabel 'n'
set ylabel 'speedup over {/Symbol l}'
set multiplot layout 1,3 title 'beyond the paper: what the map costs (sw, write every cell), '.gpu_of(f)
do for [q = 1:3] {
  rho = word(rhos, q) + 0
  set title '{/Symbol r} = '.word(rhos, q)
  if (q == 1) { set key top left font ',8' } else { unset key }
  plot f using "n":(sel("table", rho)) with linespoints ls 41 title 'table (no map arithmetic)', \
       f using "n":(sel("lambda-thread", rho)) with linespoints ls ls_lambda title '{/Symbol l} per thread', \
       f using "n":(sel("mma", rho)) with linespoints ls ls_tc_ours title 'mma (ours)', \
       f using "n":(sel("mma-warp", rho)) with linespoints ls 44 title 'mma-warp', \
       f using "n":(sel("v2-mma", rho)) with linespoints ls 45 title 'v2-mma (ours)', \
       f using "n":(sel("v2-lambda", rho)) with linespoints ls 46 title 'v2-lambda (no TC)', \
       f using "n":(sel("redux", rho)) with linespoints ls 42 title 'redux (no TC)', \
       f using "n":(sel("redux-warp", rho)) with linespoints ls 43 title 'redux-warp', \
       1 with lines ls ls_bound notitle
}
unset multiplot
