# plots/simplex2d_fig5_write.gp -- the write kernel (each thread writes its cell; memory-bound)
# in the form of Fig. 5 of arXiv:1609.01490 (not a paper panel: ours, every thread writes its cell).
# inputs: simplex2d_fig5_write.dat
# Reads datadir/simplex2d_fig5_write.dat (simplex2d --exp=fig5 --kernel=write); output: outfile.
# x: N / 2^10, y: I = T_BB / T_map (rho = 16); the dashed line at 2 is the parallel-space bound.
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_fig5_write.'.term
load styledir.'/style.gp'
f = datadir.'/simplex2d_fig5_write.dat'
set title 'Fig. 5 of [NL], beyond the paper: write kernel, rho = 16, '.gpu_of(f)
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
# the key in a band reserved below the x label: inside, it covered UTM for N >= 24
set bmargin 6.5
set key at screen 0.5, screen 0.01 center bottom horizontal font ',10' samplen 2
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
plot 1 with lines ls ls_bb title 'BB', 2 with lines ls ls_bound title 'bound I = 2', \
     f using (column("n")/1024.):(sel("utm")) with linespoints ls ls_utm title 'UTM', \
     f using (column("n")/1024.):(sel("rec")) with linespoints ls ls_rec title 'REC', \
     f using (column("n")/1024.):(sel("lambda-rsqrt")) with linespoints ls ls_lambda_rsqrt title '{/Symbol l}_R', \
     f using (column("n")/1024.):(sel("rb")) with linespoints ls ls_rb title 'RB', \
     f using (column("n")/1024.):(sel("lambda-exact")) with linespoints ls ls_lambda_exact title '{/Symbol l} exact', \
     f using (column("n")/1024.):(sel("recursive")) with linespoints ls ls_recursive title 'recursive'
