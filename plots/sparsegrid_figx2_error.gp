# plots/sparsegrid_figx2_error.gp -- beyond the thesis "Multi-level splitting of full grids on
# the GPU" (its future work, chapter 6 / section 2.2): keep only the regular sparse grid's
# subspaces of the hierarchized full grid and compare the interpolation errors.
# inputs: sparsegrid_figx2_error.dat
# Reads datadir/sparsegrid_figx2_error.dat (sparsegrid --exp=truncation, host only).  x: number of
# grid points (log); y: max error over random points (log), f(x) = exp(-|x - 0.3|^2);
# solid line and filled points: full grid; dashed line and open points: sparse grid; one colour
# per dimension d = 2, 3, 4.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx2_error.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx2_error.dat'
# local styles (style.gp has none per dimension): one colour per d
set style line 101 lc rgb '#1f77b4' pt 7
set style line 102 lc rgb '#2ca02c' pt 5
set style line 103 lc rgb '#d62728' pt 9
# the sparse grid: the same colours, dashed, open points (full and sparse told apart in print)
set style line 104 lc rgb '#1f77b4' pt 6 dt 2
set style line 105 lc rgb '#2ca02c' pt 4 dt 2
set style line 106 lc rgb '#d62728' pt 8 dt 2
set title 'beyond the thesis (its future work, ch. 6): interpolation error, full grid vs the sparse grid kept from it'
set logscale xy
set format y '10^{%T}'
set format x '10^{%T}'
set xlabel 'number of grid points'
set ylabel 'max |f - interpolant| (random points)'
set key bottom left samplen 4
full(d) = (column("d") == d) ? column("err_full_max") : NaN
sparse(d) = (column("d") == d) ? column("err_sparse_max") : NaN
pf(d) = (column("d") == d) ? column("points_full") : NaN
ps(d) = (column("d") == d) ? column("points_sparse") : NaN
plot for [d=2:4] f using (pf(d)):(full(d)) with linespoints ls (99 + d) dt 1 title sprintf('full grid, d = %d', d), \
     for [d=2:4] f using (ps(d)):(sparse(d)) with linespoints ls (102 + d) title sprintf('sparse grid, d = %d', d)
