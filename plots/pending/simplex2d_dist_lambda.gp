# plots/simplex2d_dist_lambda.gp -- beyond the paper (after Navarro et al., arXiv:1609.01490): a triangle split across GPUs by lambda-exact block ranges.
# inputs: simplex2d_dist_lambda_p1.dat simplex2d_dist_lambda_p2.dat
# Reads datadir/simplex2d_dist_lambda_p{1,2}.dat (simplex2d/lambda-mpi). Output: outfile (plots/out/simplex2d_dist_lambda.pdf|png).
# x: triangle side n (log); y: barrier-timed kernel time (ms, log), median with [min, max]; write and EDM 4D on 1 and 2 GPUs.
# Sizes whose part does not fit on one GPU have no 1-rank point (the data file's '# skipped:' lines).
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_dist_lambda.'.term
load styledir.'/style.gp'
f1 = datadir.'/simplex2d_dist_lambda_p1.dat'
f2 = datadir.'/simplex2d_dist_lambda_p2.dat'
set title "Triangle split by lambda across GPUs (rank r: blocks [rT/P, (r+1)T/P))\n".gpu_of(f1)
set xlabel 'triangle side n'
set ylabel 'kernel time, slowest rank (ms)'
set logscale xy
set format x '2^{%L}'; set logscale x 2
set format y '10^{%L}'
sel(k, c) = (strcol("kernel") eq k) ? column(c) : NaN
plot f1 using "n":(sel('write','total_ms')):(sel('write','total_min_ms')):(sel('write','total_max_ms')) with yerrorlines ls ls_ranks1 title 'write, 1 GPU', \
     f2 using "n":(sel('write','total_ms')):(sel('write','total_min_ms')):(sel('write','total_max_ms')) with yerrorlines ls ls_ranks2 title 'write, 2 GPUs', \
     f1 using "n":(sel('edm4d','total_ms')):(sel('edm4d','total_min_ms')):(sel('edm4d','total_max_ms')) with yerrorlines ls ls_ranks1 dt 2 title 'EDM 4D, 1 GPU', \
     f2 using "n":(sel('edm4d','total_ms')):(sel('edm4d','total_min_ms')):(sel('edm4d','total_max_ms')) with yerrorlines ls ls_ranks2 dt 2 title 'EDM 4D, 2 GPUs'
