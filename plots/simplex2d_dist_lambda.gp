# plots/simplex2d_dist_lambda.gp -- beyond the paper (after Navarro et al., arXiv:1609.01490): a triangle split across GPUs by lambda-exact block ranges.
# inputs: simplex2d_dist_lambda_p1.dat simplex2d_dist_lambda_p2.dat
# Reads datadir/simplex2d_dist_lambda_p{1,2}.dat and _p4.dat where it exists (simplex2d/lambda-mpi). Output: outfile (plots/out/simplex2d_dist_lambda.pdf|png).
# Left: write kernel; right: EDM 4D. x: triangle side n (log); y: barrier-timed kernel time, slowest
# rank (ms, log), median with [min, max]. One series per variant (column `variant`: coarse = 32 x 32
# tiles, 16-byte stores; plain = one thread per cell) and rank count (1, 2, 4 GPUs); the linear
# 16-byte fill of the same cells (kernel `fill`) as the reference. Sizes whose part does not fit on
# one GPU have no 1-GPU point (the data file's '# skipped:' lines).
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_dist_lambda.'.term
load styledir.'/style.gp'
f1 = datadir.'/simplex2d_dist_lambda_p1.dat'
f2 = datadir.'/simplex2d_dist_lambda_p2.dat'
f4 = datadir.'/simplex2d_dist_lambda_p4.dat'
p4 = file_exists(f4)
top = p4 ? f4 : f2
# the rows of one kernel and variant; NaN elsewhere (style.gp: missing NaN keeps the lines joined)
sel(k, v, c) = (strcol("kernel") eq k && strcol("variant") eq v) ? column(c) : NaN
set multiplot layout 1,2 title "Beyond the paper: triangle split by lambda across GPUs (rank r: blocks [rT/P, (r+1)T/P))\n".gpu_of(top) font ',10'
set logscale xy
set xtics ("2^{16}" 65536, "2^{17}" 131072, "2^{18}" 262144) nomirror
set xtics add ("" 300000, "" 370000)
set xrange [55000:420000]
set format y '10^{%L}'
set yrange [0.8:200]
set xlabel 'triangle side n (last points: 300000 or 370000)'
set ylabel 'kernel time, slowest rank (ms)'
set key top left font ',8'
# the 4-GPU series where that file exists (a macro: `kern` is read when each plot runs)
s4 = p4 ? sprintf(", '%s' using 'n':(sel(kern,'coarse','total_ms')):(sel(kern,'coarse','total_min_ms')):(sel(kern,'coarse','total_max_ms')) with yerrorlines ls ls_ranks4 title 'coarse, 4 GPUs', '%s' using 'n':(sel(kern,'plain','total_ms')):(sel(kern,'plain','total_min_ms')):(sel(kern,'plain','total_max_ms')) with yerrorlines ls ls_ranks4 dt 2 pt 8 title 'plain, 4 GPUs', '%s' using 'n':(sel('fill','linear','total_ms')) with lines ls ls_bound notitle", f4, f4, f4) : ""
do for [kern in "write edm4d"] {
    set title (kern eq 'write' ? 'write' : 'EDM 4D')
    plot f1 using "n":(sel(kern,'coarse','total_ms')):(sel(kern,'coarse','total_min_ms')):(sel(kern,'coarse','total_max_ms')) with yerrorlines ls ls_ranks1 title 'coarse, 1 GPU', \
         f2 using "n":(sel(kern,'coarse','total_ms')):(sel(kern,'coarse','total_min_ms')):(sel(kern,'coarse','total_max_ms')) with yerrorlines ls ls_ranks2 title 'coarse, 2 GPUs', \
         f1 using "n":(sel(kern,'plain','total_ms')):(sel(kern,'plain','total_min_ms')):(sel(kern,'plain','total_max_ms')) with yerrorlines ls ls_ranks1 dt 2 pt 6 title 'plain, 1 GPU', \
         f2 using "n":(sel(kern,'plain','total_ms')):(sel(kern,'plain','total_min_ms')):(sel(kern,'plain','total_max_ms')) with yerrorlines ls ls_ranks2 dt 2 pt 4 title 'plain, 2 GPUs', \
         f1 using "n":(sel('fill','linear','total_ms')) with lines ls ls_bound title 'linear fill (each rank count)', \
         f2 using "n":(sel('fill','linear','total_ms')) with lines ls ls_bound notitle @s4
}
unset multiplot
