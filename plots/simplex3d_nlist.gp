# plots/simplex3d_nlist.gp -- the tetrahedral maps at non-power-of-two block counts: nb = 2^k - 1,
# 2^k and 2^k + 1 (write kernel, rho = 8).  recursive-o1 ([REC] arXiv:1610.07394 sec. III.C,
# eq. 23) rounds nb up to a power of two, so nb = 2^k + 1 launches ~9 Tet(nb) blocks;
# recursive-o1-below (ours) splits nb along its binary digits; recursive-log (sec. III.B)
# recurses on ceil/floor halves; lambda-exact ([NL] sec. 6 with integer corrections) has no
# power-of-two structure at all.
# inputs: simplex3d_speedup_write_nlist.dat
# x: nb = n / rho, placed at k - 0.25, k, k + 0.25 for nb = 2^k - 1, 2^k, 2^k + 1 (tics: 2^k).
# left:  y: I = median T_bb / median T_map at the same n.
# right: y: parallel-space efficiency, cells / threads launched (space_eff).
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_nlist.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 11in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
f = datadir.'/simplex3d_speedup_write_nlist.dat'
rho = real(system(sprintf("awk '!/^#/ && $1 != \"kernel\" {print $3; exit}' '%s'", f)))
sel(m, col) = (strcol("map") eq m) ? column(col) : NaN
k_of(nb) = floor(log(nb) / log(2) + 0.5)
xpos(nb) = k_of(nb) + 0.25 * (nb - 2**k_of(nb))
set multiplot layout 1, 2 title sprintf("Beyond the papers: tetrahedral maps at nb = 2^k - 1, 2^k, 2^k + 1 (write kernel, rho = %d), ", rho).gpu_of(f)
set xlabel 'nb = n / rho blocks per side (2^k - 1, 2^k, 2^k + 1)'
set xrange [*:*]
set offsets 0.4, 0.4, 0, 0
set xtics 1 format '2^{%g}'
set key top left font ",8" maxrows 3
set title 'speedup over the bounding box'
set ylabel 'I = T_{bb} / T_{map}'
set yrange [0:6]
plot f using (xpos(column("nb"))):(sel("lambda-exact", "speedup_x")) with linespoints ls ls_lambda_exact title 'lambda-exact', \
     f using (xpos(column("nb"))):(sel("recursive-log", "speedup_x")) with linespoints ls ls_recursive_log title 'recursive-log', \
     f using (xpos(column("nb"))):(sel("recursive-o1", "speedup_x")) with linespoints ls ls_recursive_o1 title 'recursive-o1 (nb rounded up)', \
     f using (xpos(column("nb"))):(sel("recursive-o1-below", "speedup_x")) with linespoints ls ls_recursive_o1_below title 'recursive-o1-below (ours)', \
     6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125 (eq. 24)'
set title 'parallel-space efficiency'
set ylabel 'cells / threads launched'
set yrange [0:1.05]
# room right of the last nb for the key, so that it covers no point (recursive-o1 dips to 0.11)
set offsets 0.4, 1.7, 0, 0
set key center right font ",8" maxrows 5
plot f using (xpos(column("nb"))):(sel("bb", "space_eff")) with linespoints ls ls_bb title 'bb', \
     f using (xpos(column("nb"))):(sel("lambda-exact", "space_eff")) with linespoints ls ls_lambda_exact title 'lambda-exact', \
     f using (xpos(column("nb"))):(sel("recursive-log", "space_eff")) with linespoints ls ls_recursive_log title 'recursive-log', \
     f using (xpos(column("nb"))):(sel("recursive-o1", "space_eff")) with linespoints ls ls_recursive_o1 title 'recursive-o1', \
     f using (xpos(column("nb"))):(sel("recursive-o1-below", "space_eff")) with linespoints ls ls_recursive_o1_below title 'recursive-o1-below'
unset multiplot
