# plots/tensorcore_v2readings.gp -- the two readings of variant 2 (Quezada, section 5.2 and
# Fig. 8; Fig. 10's v2 series), embedded Sierpinski triangle.
# inputs: tensorcore_v2readings_sw.dat tensorcore_v2readings_rd.dat tensorcore_v2readings_ca.dat
# Reads datadir/tensorcore_v2readings_{sw,rd,ca}.dat (tensorcore/v2_readings.sh, re-paired
# from tensorcore_fig10_<test>.dat).  Panels: one per test.  x: n = 2^r (log2); y: speedup
# over fractals' lambda at rho (column speedup_x).  Reading 1 (implemented; Fig. 10):
# rho = v2's real block, sub-blocks rho/2.  Reading 2: rho = the sub-block, real block 2 rho.
# Solid: v2 (WMMA, paper); dashed: v2-lambda (same layout, no tensor core).
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_v2readings.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1800,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 13in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
sel(m, rho, rd) = (strcol("map") eq m && column("rho") == rho && column("reading") == rd) ? column("speedup_x") : NaN
set style line 51 lc rgb '#2ca02c' pt 7 dt 1        # reading 1, rho = 8
set style line 52 lc rgb '#2ca02c' pt 5 dt 1 lw 0.6 # reading 1, rho = 16
set style line 53 lc rgb '#d62728' pt 9 dt 1        # reading 2, rho = 8
set style line 54 lc rgb '#d62728' pt 11 dt 1 lw 0.6 # reading 2, rho = 16
set logscale x 2
set logscale y 2
set format x '2^{%L}'
set xlabel 'n'
set ylabel 'speedup over {/Symbol l} at {/Symbol r}'
set yrange [0.25:4]
set key top left
set multiplot layout 1,3 title 'Fig. 8 of Quezada (variant 2), both readings (green: {/Symbol r} = real block; red: {/Symbol r} = sub-block, block 2{/Symbol r}), '.gpu_of(datadir.'/tensorcore_v2readings_sw.dat')
do for [t in "sw rd ca"] {
  f = datadir.'/tensorcore_v2readings_'.t.'.dat'
  set title 'test '.t
  if (t eq 'sw') { set key } else { unset key }
  plot f using "n":(sel("v2", 8, 1)) with linespoints ls 51 title 'v2, reading 1, {/Symbol r}=8', \
       f using "n":(sel("v2", 16, 1)) with linespoints ls 52 title 'v2, reading 1, {/Symbol r}=16', \
       f using "n":(sel("v2", 8, 2)) with linespoints ls 53 title 'v2, reading 2, {/Symbol r}=8', \
       f using "n":(sel("v2", 16, 2)) with linespoints ls 54 title 'v2, reading 2, {/Symbol r}=16', \
       f using "n":(sel("v2-lambda", 8, 2)) with lines ls 53 dt 2 title 'v2-lambda (no TC), reading 2, {/Symbol r}=8', \
       f using "n":(sel("v2-lambda", 16, 2)) with lines ls 54 dt 2 title 'v2-lambda (no TC), reading 2, {/Symbol r}=16', \
       1 with lines ls ls_bound notitle
}
unset multiplot
