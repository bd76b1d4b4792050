# plots/simplex3d_efficiency.gp -- parallel-space efficiency vs n: domain cells / threads
# launched, for each tetrahedral map (Navarro et al. arXiv:1610.07394 sec. III: bb -> 1/6,
# the beta = 3 set -> 1/1.2 (eq. 19), the eq. 23 container -> 1/1.125 (eq. 24); lambda -> 1).
# inputs: simplex3d_speedup_write.dat
# x: n (cells per side, log2); y: Tet(n) / threads launched (the grids of the write sweep).
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_efficiency.'.term
load styledir.'/style.gp'
f = datadir.'/simplex3d_speedup_write.dat'
set title '[REC] eq. 4, 18, 24 (no figure in the paper): parallel-space efficiency of the tetrahedral maps, '.gpu_of(f)
set xlabel 'n (cells per side)'
set ylabel 'cells / threads launched'
set logscale x 2
# the band between bb (1/6) and the other maps (> 0.8) holds no data: the key goes there
set key right center
set yrange [0:1.05]
sel(m) = (strcol("map") eq m) ? column("space_eff") : NaN
plot f using "n":(sel("bb")) with linespoints ls ls_bb title 'bb', \
     f using "n":(sel("lambda-cubic")) with linespoints ls ls_lambda_cubic title 'lambda-cubic (hidden: the same grid as lambda-exact, n <= 1024)', \
     f using "n":(sel("lambda-exact")) with linespoints ls ls_lambda_exact title 'lambda-exact', \
     f using "n":(sel("recursive-log")) with linespoints ls ls_recursive_log title 'recursive-log', \
     f using "n":(sel("recursive-o1")) with linespoints ls ls_recursive_o1 title 'recursive-o1', \
     1/6. with lines ls ls_bound title '1/6 (eq. 4)', 1/1.2 with lines ls ls_bound dt 3 title '1/1.2 (eq. 19)', \
     1/1.125 with lines ls ls_bound dt 4 title '1/1.125 (eq. 24)'
