# plots/simplex2d_gpus.gp -- the write kernel of Fig. 5 (Navarro et al., arXiv:1609.01490;
# rho = 16, N = 1024 ... 30720) on two GPUs: what carries over from the H200 to the H100.
# inputs: simplex2d_fig5_write.dat h100/simplex2d_fig5_write.dat
# Reads datadir/simplex2d_fig5_write.dat (H200) and datadir/h100/simplex2d_fig5_write.dat;
# output: outfile.  x: N / 2^10; y: I = T_BB / T_map; solid: first file's GPU, dashed: second's.
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_gpus.'.term
load styledir.'/style.gp'
f1 = datadir.'/simplex2d_fig5_write.dat'
f2 = datadir.'/h100/simplex2d_fig5_write.dat'
set title 'Fig. 5 of [NL] (write kernel, rho = 16) on two GPUs: '.gpu_of(f1).' (solid) and '.gpu_of(f2).' (dashed)'
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
set yrange [0:2.4]
set key at graph 0.98, graph 0.39 right top font ',10' samplen 2 maxrows 3
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
plot 1 with lines ls ls_bb title 'BB', \
     f1 using (column("n")/1024.):(sel("rb")) with linespoints ls ls_rb title 'RB', \
     f1 using (column("n")/1024.):(sel("lambda-exact")) with linespoints ls ls_lambda_exact title '{/Symbol l} exact', \
     f1 using (column("n")/1024.):(sel("recursive")) with linespoints ls ls_recursive title 'recursive', \
     f1 using (column("n")/1024.):(sel("utm")) with linespoints ls ls_utm title 'UTM', \
     f2 using (column("n")/1024.):(sel("rb")) with lines ls ls_rb dt 2 notitle, \
     f2 using (column("n")/1024.):(sel("lambda-exact")) with lines ls ls_lambda_exact dt 2 notitle, \
     f2 using (column("n")/1024.):(sel("recursive")) with lines ls ls_recursive dt 2 notitle, \
     f2 using (column("n")/1024.):(sel("utm")) with lines ls ls_utm dt 2 notitle
