# plots/fractals_gpus.gp -- the fractals headline on two GPUs: lambda(omega) against the
# bounding box, Sierpinski triangle, tests sw / rd / ca, best rho against best rho (Quezada,
# UACh, section 6; Navarro et al. HPCC 2017 / FGCS 2020), H200 and H100 side by side.
# inputs: fractals_best_sw.dat fractals_best_rd.dat fractals_best_ca.dat h100/fractals_best_sw.dat h100/fractals_best_rd.dat h100/fractals_best_ca.dat
# Reads datadir/fractals_best_<test>.dat (the reference run) and datadir/h100/fractals_best_<test>.dat
# (the second GPU); each series is titled with its file's `# gpu:` line.  x: n = 2^r (log 2);
# y: speedup_x = bb time / map time, each at its fastest rho (log).  Maps: lambda (solid) and
# lambda-par (dashed; only in data that has it).
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_gpus.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1800,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 13in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
F = 'sierpinski-triangle'
best(m) = (strcol("fractal") eq F && strcol("map") eq m) ? column("speedup_x") : NaN
set style line 61 lc rgb '#1f77b4' pt 7 lw 2          # first GPU (datadir)
set style line 62 lc rgb '#d62728' pt 5 lw 2          # second GPU (datadir/h100)
set logscale x 2
set logscale y 10
set format x '2^{%L}'
set xlabel 'n (side of the embedded array)'
set ylabel 'speedup over bb, best {/Symbol r} vs best {/Symbol r} (x)'
set key top left
set yrange [0.5:100]
g1 = gpu_of(datadir.'/fractals_best_sw.dat')
g2 = gpu_of(datadir.'/h100/fractals_best_sw.dat')
set multiplot layout 1,3 title 'beyond the paper: Sierpinski triangle, lambda(omega) vs bounding box on two GPUs (best rho vs best rho)'
do for [t in "sw rd ca"] {
    set title 'test '.t
    if (t eq 'sw') { set key } else { unset key }
    plot datadir.'/fractals_best_'.t.'.dat' using "n":(best("lambda")) with linespoints ls 61 title 'lambda, '.g1, \
         datadir.'/h100/fractals_best_'.t.'.dat' using "n":(best("lambda")) with linespoints ls 62 title 'lambda, '.g2, \
         datadir.'/h100/fractals_best_'.t.'.dat' using "n":(best("lambda-par")) with linespoints ls 62 dt 2 pt 4 lw 1 title 'lambda-par, '.g2
}
unset multiplot
