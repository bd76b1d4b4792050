# plots/simplex3d_volume_m.gp -- extra volume vs dimension m (Navarro et al. arXiv:1610.07394
# eq. 4, 25-29 and sec. III.D; volumes in blocks, no GPU).
# inputs: simplex3d_volume_m.dat simplex3d_volume_search.dat
# x: m; y: extra volume (log): bounding box m! - 1 (eq. 4); the r = 1/2, beta = 2 set at the
# largest n and its limit m!/(2^m - 2) - 1 (eq. 29: 5/7 at m = 4, 3 at m = 5, 39 at m = 7);
# the best (r = 1/s, beta) of our search for m = 3..6 (limit extra, valid from its n0).
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_volume_m.'.term
load styledir.'/style.gp'
f = datadir.'/simplex3d_volume_m.dat'
g = datadir.'/simplex3d_volume_search.dat'
nmax = real(system(sprintf("awk '!/^#/ && $1 ~ /^[0-9]/ { if ($2 > m) m = $2 } END { print m }' '%s'", f)))
set title sprintf('[REC] eq. 25-29 and sec. III.D: extra volume vs dimension m (n = %d for the recursive set)', nmax)
set xlabel 'm'
set ylabel 'extra volume V(parallel) / V(simplex) - 1'
set logscale y
set yrange [1e-4:1e5]
set xrange [1.5:8.5]
set key top left
fact(m) = m <= 1 ? 1 : m * fact(m - 1)
plot f using "m":(column("n") == nmax ? column("bb_extra") : NaN) with linespoints ls ls_bb title 'bounding box (-> m! - 1, eq. 4)', \
     f using "m":(column("n") == nmax ? (column("extra") > 0 ? column("extra") : 1e-4) : NaN) with linespoints ls ls_recursive_o1 title 'r = 1/2, beta = 2 (eq. 27; 0 at m = 2, 3)', \
     f using "m":(column("n") == nmax ? column("extra_limit") : NaN) with points ls ls_bound pt 6 ps 1.5 title 'limit m!/(2^m - 2) - 1 (eq. 29)', \
     g using "m":(column("best") == 1 ? (column("limit_extra") > 0 ? column("limit_extra") : 1e-4) : NaN) with linespoints ls ls_lambda_exact title 'best (r = 1/s, beta) of the search, for n >= n0'
