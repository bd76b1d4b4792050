# plots/sparsegrid_figx5_sparse_error.gp -- beyond the thesis "Multi-level splitting of full
# grids on the GPU" (its future work, chapter 6; sparse grids: section 2.2): interpolation error
# vs number of points of real regular sparse grids with boundary (sparse.h, hierarchized in
# double and evaluated from their surpluses) and of full grids, f(x) = exp(-|x - 0.3|^2).
# inputs: sparsegrid_figx5_sparse_error.dat
# Reads datadir/sparsegrid_figx5_sparse_error.dat (sparsegrid --exp=sparse-error, host only).
# x: grid points (log); y: max error over random points (log).  Solid with filled points:
# sparse grid; dashed with open points: full grid; one colour per d = 2..5.  The fitted rates
# are the file's `# result:` lines (README), quoted in the legend.  Legend outside the plot, on the right.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx5_sparse_error.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx5_sparse_error.dat'
# local styles: one colour per d (filled points: sparse, open points: full)
set style line 102 lc rgb '#1f77b4' pt 7
set style line 103 lc rgb '#2ca02c' pt 5
set style line 104 lc rgb '#d62728' pt 9
set style line 105 lc rgb '#9467bd' pt 11
set title 'beyond the thesis (the error rates of its section 2.2): error vs points, sparse and full grids'
set logscale xy
set format y '10^{%T}'
set format x '10^{%T}'
set xlabel 'number of grid points N'
set ylabel 'max |f - interpolant| (random points)'
set key outside right top vertical
sel(d, g) = (column("d") == d && strcol("grid") eq g) ? column("err_max") : NaN
# the fitted rate of each d from the file's `# result:` lines (err_max ~ N^rate, finer levels)
rate(d) = system(sprintf("sed -n 's/^# result: d=%d: .*err_max ~ N^\\(-[0-9.]*\\);.*/\\1/p' '%s' | head -n 1", d, f))
plot for [d=2:5] f using "points":(sel(d, "sparse")) with linespoints ls (100 + d) dt 1 title sprintf('sparse, d = %d (fit: N^{%s})', d, rate(d)), \
     for [d=2:4] f using "points":(sel(d, "full")) with linespoints ls (100 + d) dt 2 pt (d == 2 ? 6 : d == 3 ? 4 : 8) title sprintf('full, d = %d', d)
