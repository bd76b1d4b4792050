# plots/simplex3d_speedup_triplet.gp -- I = T_bb / T_map vs n for each tetrahedral map:
# Axilrod-Teller triplet energy, N = n + 2 particles (compute bound), rho = 8.
# Papers: Navarro et al. arXiv:1609.01490 sec. 6 (lambda(omega) for tetrahedra, eq. 18-19:
# potential I -> 6) and arXiv:1610.07394 sec. III.B-C (recursive maps; space bound 6/1.125).
# inputs: simplex3d_speedup_triplet.dat
# x: n (cells per side, log2); y: I = median T_bb / median T_map (bb = 1).  Dashed: eq. (19)'s
# potential 6x, eq. (18) with alpha = gamma (I = 6 nb^3 / (nb^3 + 3nb^2 + 2nb), nb = n/rho),
# and recursive-o1's space bound 6 / 1.125 = 5.33 (eq. 24).
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_speedup_triplet.'.term
load styledir.'/style.gp'
f = datadir.'/simplex3d_speedup_triplet.dat'
rho = real(system(sprintf("awk '!/^#/ && $1 != \"kernel\" {print $3; exit}' '%s'", f)))
set title sprintf("[NL] eq. 18-19 (no 3D figure in the papers): tetrahedral maps, triplet kernel, rho = %d: I = T_{bb} / T_{map}, ", rho).gpu_of(f)
set xlabel 'n (cells per side)'
set ylabel 'I = T_{bb} / T_{map}'
set logscale x 2
set key top left maxrows 4 font ",9"
set yrange [0:9]
set ytics 0, 1, 7
sel(m) = (strcol("map") eq m) ? column("speedup_x") : NaN
eq18(n) = 6.0 * (n/rho)**3 / ((n/rho)**3 + 3*(n/rho)**2 + 2*(n/rho))
plot f using "n":(sel("bb")) with linespoints ls ls_bb title 'bb', \
     f using "n":(sel("lambda-cubic")) with linespoints ls ls_lambda_cubic title 'lambda-cubic (as published, exact range only)', \
     f using "n":(sel("lambda-exact")) with linespoints ls ls_lambda_exact title 'lambda-exact (ours)', \
     f using "n":(sel("recursive-log")) with linespoints ls ls_recursive_log title 'recursive-log (one launch per sub-cube)', \
     f using "n":(sel("recursive-o1")) with linespoints ls ls_recursive_o1 title 'recursive-o1 (eq. 23)', \
     6 with lines ls ls_bound title 'potential 6x (eq. 19)', \
     eq18(x) with lines ls ls_bound dt 3 title 'eq. (18), alpha = gamma', \
     6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125 (eq. 24)'
