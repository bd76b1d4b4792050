# plots/fractals_speedup_all.gp -- speedup of lambda(omega) over the bounding box for every
# fractal of Table 1 (Quezada, UACh, sections 3-4 and 6), best rho against best rho.
# inputs: fractals_best_sw.dat fractals_best_rd.dat fractals_best_ca.dat
# Reads datadir/fractals_best_<test>.dat.  x: n (log); y: speedup_x = bb / lambda (log),
# each map at its fastest block size; one line per fractal; panels sw, rd, ca.
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_speedup_all.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1800,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 13in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# local styles: one per fractal (style.gp has methods, not fractals), same in every fractals figure
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
best(fr) = (strcol("fractal") eq fr && strcol("map") eq "lambda") ? column("speedup_x") : NaN
set logscale x 2
set logscale y 10
set format x '2^{%.0L}'
set xlabel 'n (side of the embedded array)'
set ylabel 'speedup over bb (x), best rho vs best rho'
set key top left font ',8'
set multiplot layout 1,3 title 'beyond the paper (section 4 claim, no figure): lambda(omega) vs bounding box, the fractals of Table 1, '.gpu_of(datadir.'/fractals_best_sw.dat')
do for [t in "sw rd ca"] {
    b = datadir.'/fractals_best_'.t.'.dat'
    set title 'test '.t
    plot for [i=1:9] b using "n":(best(word(names, i))) with linespoints ls (200 + i) title word(names, i)
}
unset multiplot
