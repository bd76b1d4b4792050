# plots/fractals_ratio.gp -- parallel-space and memory ratio of the bounding box over
# lambda(omega) vs n, every fractal of Table 1 (Quezada, UACh, section 4: (s^2/k)^rb).
# inputs: fractals_ratio.dat
# Reads datadir/fractals_ratio.dat (computed on the host).  x: n (log); y (log): left, bb
# threads / lambda threads at the smallest swept rho (8, 9 or 4); right, n^2 / k^r, the
# embedded array over the fractal's cells.
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_ratio.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 11in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# local styles: one per fractal, as in fractals_speedup_all.gp
set style line 201 lc rgb '#e377c2' pt 7 dt 1
set style line 202 lc rgb '#1f77b4' pt 5 dt 1
set style line 203 lc rgb '#2ca02c' pt 9 dt 1
set style line 204 lc rgb '#d62728' pt 11 dt 1
set style line 205 lc rgb '#9467bd' pt 13 dt 1
set style line 206 lc rgb '#8c564b' pt 4 dt 2
set style line 207 lc rgb '#17becf' pt 6 dt 2
set style line 208 lc rgb '#bcbd22' pt 8 dt 2
set style line 209 lc rgb '#000000' pt 10 dt 2
names = "sierpinski-triangle candelabra h-fractal candy sierpinski-carpet x-fractal vicsek empty-bottles cantor-dust"
rho0(s) = s == 2 ? 8 : s == 3 ? 9 : 4
sel(fr, col) = (strcol("fractal") eq fr && column("rho") == rho0(column("s")) && column("n") <= 2**17) ? column(col) : NaN
f = datadir.'/fractals_ratio.dat'
set logscale x 2
set logscale y 10
set format x '2^{%.0L}'
set format y '10^{%L}'
set xlabel 'n (side of the embedded array)'
set key top left font ',8'
set multiplot layout 1,2 title 'beyond the paper (section 4 formula, no figure): bounding box / lambda(omega), parallel space (s^2/k)^{r_b} and memory n^2/k^r'
set title 'parallel space: bb threads / lambda threads (rho = 8, 9 or 4)'
set ylabel 'ratio (x)'
plot for [i=1:9] f using "n":(sel(word(names, i), "space_ratio_x")) with linespoints ls (200 + i) title word(names, i)
set title 'memory: n^2 / k^r'
plot for [i=1:9] f using "n":(sel(word(names, i), "memory_ratio_x")) with linespoints ls (200 + i) title word(names, i)
unset multiplot
