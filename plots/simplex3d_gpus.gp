# plots/simplex3d_gpus.gp -- the simplex3d headline on two GPUs: I = T_bb / T_map of the
# tetrahedral maps, write kernel, rho = 8 (Navarro et al. arXiv:1609.01490 sec. 6, eq. 18-19;
# arXiv:1610.07394 sec. III.B-C, eq. 24), the reference GPU and a second one side by side.
# inputs: simplex3d_speedup_write.dat h100/simplex3d_speedup_write.dat
# Reads datadir/simplex3d_speedup_write.dat (the reference run) and datadir/h100/simplex3d_speedup_write.dat
# (the second GPU); each series is titled with its file's `# gpu:` and `# git:` lines (solid: the
# reference file, dashed with open points: the second GPU).  The two files differ in code as well
# as GPU (see the `# git:` lines).
# left:  x: n (cells per side, log2); y: I = median T_bb / median T_map.
# right: x: n; y: median time of one run (ms, log10) of bb and recursive-o1.
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_gpus.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 11in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
f1 = datadir.'/simplex3d_speedup_write.dat'
f2 = datadir.'/h100/simplex3d_speedup_write.dat'
git_of(f) = system(sprintf("sed -n 's/^# git: *//p' '%s' | head -n 1", f))
g1 = gpu_of(f1).'git '.git_of(f1)
g2 = gpu_of(f2).'git '.git_of(f2)
sel(m, col) = (strcol("map") eq m) ? column(col) : NaN
set multiplot layout 1, 2 title 'Beyond the papers ([NL] eq. 18-19 on two GPUs): tetrahedral maps, write kernel, rho = 8'
set xlabel 'n (cells per side)'
set logscale x 2
set key top left font ",8" maxrows 5
set ylabel 'I = T_{bb} / T_{map}'
set yrange [0:7]
set title 'speedup over the bounding box'
plot f1 using "n":(sel("lambda-exact", "speedup_x")) with linespoints ls ls_lambda_exact title 'lambda-exact, '.g1, \
     f2 using "n":(sel("lambda-exact", "speedup_x")) with linespoints ls ls_lambda_exact dt 2 pt 6 title 'lambda-exact, '.g2, \
     f1 using "n":(sel("recursive-o1", "speedup_x")) with linespoints ls ls_recursive_o1 title 'recursive-o1, '.g1, \
     f2 using "n":(sel("recursive-o1", "speedup_x")) with linespoints ls ls_recursive_o1 dt 2 pt 6 title 'recursive-o1, '.g2, \
     f1 using "n":(sel("recursive-log", "speedup_x")) with linespoints ls ls_recursive_log title 'recursive-log, '.g1, \
     f2 using "n":(sel("recursive-log", "speedup_x")) with linespoints ls ls_recursive_log dt 2 pt 6 title 'recursive-log, '.g2, \
     6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125 (eq. 24)'
set title 'time of one run'
set ylabel 'median time (ms)'
set logscale y 10
set autoscale y
set key top left font ",8" maxrows 6
plot f1 using "n":(sel("bb", "median_ms")) with linespoints ls ls_bb title 'bb, '.g1, \
     f2 using "n":(sel("bb", "median_ms")) with linespoints ls ls_bb dt 2 pt 6 title 'bb, '.g2, \
     f1 using "n":(sel("recursive-o1", "median_ms")) with linespoints ls ls_recursive_o1 title 'recursive-o1, '.g1, \
     f2 using "n":(sel("recursive-o1", "median_ms")) with linespoints ls ls_recursive_o1 dt 2 pt 6 title 'recursive-o1, '.g2
unset multiplot
