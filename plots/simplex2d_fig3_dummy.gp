# plots/simplex2d_fig3_dummy.gp -- Navarro, Bustos, Hitschfeld, "A Non-linear GPU Thread Map
# for Triangular Domains" (arXiv:1609.01490), Fig. 3: the square-root variants of lambda.
# inputs: simplex2d_fig3_dummy.dat
# Reads datadir/simplex2d_fig3_dummy.dat (simplex2d --exp=fig3); output: outfile.
# x: N / 2^10 (matrix side in units of 1024), y: improvement I = T_BB / T_map on the dummy
# kernel (rho = 16); one line per map: lambda-sqrt (lambda X), lambda-newton (lambda N),
# lambda-rsqrt (lambda R), lambda-exact (ours); BB is the line I = 1.  A float map stops
# where it is no longer exact (the program refuses to time it).
# The paper's numbers (its text on Fig. 3, Kepler GPUs): lambda R I = 1.15 (GTX 680) and 1.1
# (GTX 765M), lambda N 1.025 and 0.96, lambda X 0.87 and 0.83; all three 1.08 on the Tesla K40.
# Drawn as dashed lines, each variant in its colour at its GTX 680 value.
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_fig3_dummy.'.term
load styledir.'/style.gp'
f = datadir.'/simplex2d_fig3_dummy.dat'
set title 'Fig. 3 of [NL]: square-root variants of {/Symbol l}({/Symbol w}), dummy kernel, '.gpu_of(f)
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
# I = 1 (BB) inside the frame, not on the bottom axis; the key in the empty band between BB and
# the maps (all above 1.9 from N = 5 x 2^10 on)
set yrange [0.8:2.1]
set key right center
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
plot 1 with lines ls ls_bb title 'BB', \
     f using (column("n")/1024.):(sel("lambda-sqrt")) with linespoints ls ls_lambda_sqrt title '{/Symbol l}_X (sqrtf)', \
     f using (column("n")/1024.):(sel("lambda-newton")) with linespoints ls ls_lambda_newton title '{/Symbol l}_N (Newton)', \
     f using (column("n")/1024.):(sel("lambda-rsqrt")) with linespoints ls ls_lambda_rsqrt title '{/Symbol l}_R (rsqrtf)', \
     f using (column("n")/1024.):(sel("lambda-exact")) with linespoints ls ls_lambda_exact title '{/Symbol l} exact (ours)', \
     1.15 with lines ls ls_lambda_rsqrt dt 2 title 'paper, GTX 680: {/Symbol l}_R 1.15', \
     1.025 with lines ls ls_lambda_newton dt 2 title 'paper, GTX 680: {/Symbol l}_N 1.025', \
     0.87 with lines ls ls_lambda_sqrt dt 2 title 'paper, GTX 680: {/Symbol l}_X 0.87'
