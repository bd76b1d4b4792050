# plots/fractals_speedup_sierpinski.gp -- speedup of lambda(omega) over the bounding box,
# Sierpinski triangle, tests sw / rd / ca (Quezada, UACh, section 6 tests; the ~10x at
# n = 2^16 of Navarro et al., HPCC 2017 / FGCS 2020).
# inputs: fractals_speedup_sw.dat fractals_speedup_rd.dat fractals_speedup_ca.dat fractals_best_sw.dat fractals_best_rd.dat fractals_best_ca.dat
# Reads datadir/fractals_speedup_<test>.dat (per rho) and fractals_best_<test>.dat (each map
# at its fastest rho).  x: n = 2^r (log 2); y: speedup_x = bb time / lambda time (log).
# Lines: lambda vs bb at the same rho (8, 16, 32), and best rho against best rho.
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_speedup_sierpinski.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1800,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 13in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# local styles: lambda at one rho (lambda's colour, one dash per rho); lambda-thread at its best rho
set style line 101 lc rgb '#e377c2' pt 4 dt 3 lw 1
set style line 102 lc rgb '#e377c2' pt 6 dt 2 lw 1
set style line 103 lc rgb '#e377c2' pt 8 dt 4 lw 1
set style line 104 lc rgb '#7f7f7f' pt 12 dt 2 lw 1
set style line 105 lc rgb '#000000' pt 3 ps 1.6 lw 2
F = 'sierpinski-triangle'
sp(m, r) = (strcol("fractal") eq F && strcol("map") eq m && column("rho") == r) ? column("speedup_x") : NaN
best(m) = (strcol("fractal") eq F && strcol("map") eq m) ? column("speedup_x") : NaN
set logscale x 2
set logscale y 10
set format x '2^{%L}'
set xlabel 'n (side of the embedded array)'
set ylabel 'speedup over bb (x)'
set key top left
set yrange [0.5:100]
# the paper's number: a point without text, named by its own key entry (a text label beside
# the point sat on the markers)
set multiplot layout 1,3 title 'beyond the paper (thesis section 4 claims it, no figure): Sierpinski triangle, lambda(omega) vs bounding box, '.gpu_of(datadir.'/fractals_speedup_sw.dat')
do for [t in "sw rd ca"] {
    f = datadir.'/fractals_speedup_'.t.'.dat'
    b = datadir.'/fractals_best_'.t.'.dat'
    set title 'test '.t
    if (t eq 'sw') { set label 1 '' at 65536,10 point ls 105 } else { unset label 1 }
    plot f using "n":(sp("lambda", 8)) with linespoints ls 101 title 'lambda, rho=8', \
         f using "n":(sp("lambda", 16)) with linespoints ls 102 title 'lambda, rho=16', \
         f using "n":(sp("lambda", 32)) with linespoints ls 103 title 'lambda, rho=32', \
         b using "n":(best("lambda")) with linespoints ls ls_lambda lw 2 title 'lambda, best rho vs bb best rho', \
         b using "n":(best("lambda-thread")) with linespoints ls 104 title 'lambda-thread, best rho', \
         keyentry with points ls 105 title (t eq 'sw' ? 'marker: 10x at n = 2^{16}, not in the thesis (unchecked)' : '')
}
unset multiplot
