# plots/simplex3d_more.gp -- the tetrahedral maps in the configurations the papers leave out
# (Navarro et al. arXiv:1609.01490 sec. 6, arXiv:1610.07394 sec. III.B-C):
# (a) the write kernel with rho = 2 blocks (8 threads), every map;
# (b) the coarsened write kernel (ours) with rho = 4 map blocks, one line per configuration;
# (c) the coarsened dummy kernel (ours, rho = 8); (d) the coarsened triplet kernel (ours, rho = 8).
# In (b)-(d): recursive-o1 solid, lambda-exact dashed, one colour per configuration
# "mblocks x tpm" (map blocks per CUDA block x threads per map block); I against bb coarsened
# the same way.
# inputs: simplex3d_speedup_write_rho2.dat simplex3d_speedup_write-coarse_rho4.dat simplex3d_speedup_dummy-coarse.dat simplex3d_speedup_triplet-coarse.dat
# x: n (cells per side, log2); y: I = median T_bb / median T_map at the same n (and configuration).
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_more.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,1150 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 11in,8.4in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
fa = datadir.'/simplex3d_speedup_write_rho2.dat'
sel(m, col) = (strcol("map") eq m) ? column(col) : NaN
# the configurations of a coarse file, in file order ("mblocks x tpm")
cfgs_of(f) = system(sprintf("awk '/^kernel/ {for (i = 1; i <= NF; i++) c[$i] = i; next} /^#/ {next} {k = $c[\"mblocks\"] \"x\" $c[\"tpm\"]; if (!(k in s)) {s[k] = 1; printf \"%%s \", k}}' '%s'", f))
mb(c) = int(real(substr(c, 1, strstrt(c, "x") - 1)))
tp(c) = int(real(substr(c, strstrt(c, "x") + 1, strlen(c))))
selc(m, c, col) = (strcol("map") eq m && column("mblocks") == mb(c) && column("tpm") == tp(c)) ? column(col) : NaN
set multiplot layout 2, 2 title 'Beyond the papers: tetrahedral maps, '.gpu_of(fa)
set xlabel 'n (cells per side)'
set logscale x 2
set ylabel 'I = T_{bb} / T_{map}'
set key top left font ",8" maxrows 4
set title '(a) write, rho = 2 (8 threads per block)'
set yrange [0:7]
plot fa using "n":(sel("lambda-exact", "speedup_x")) with linespoints ls ls_lambda_exact title 'lambda-exact', \
     fa using "n":(sel("lambda-cubic", "speedup_x")) with linespoints ls ls_lambda_cubic title 'lambda-cubic', \
     fa using "n":(sel("recursive-log", "speedup_x")) with linespoints ls ls_recursive_log title 'recursive-log', \
     fa using "n":(sel("recursive-o1", "speedup_x")) with linespoints ls ls_recursive_o1 title 'recursive-o1', \
     6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125'
do for [panel in "write-coarse_rho4 dummy-coarse triplet-coarse"] {
    f = datadir.'/simplex3d_speedup_'.panel.'.dat'
    cf = cfgs_of(f)
    set title (panel eq 'write-coarse_rho4' ? '(b) write-coarse, rho = 4' : panel eq 'dummy-coarse' ? '(c) dummy-coarse, rho = 8' : '(d) triplet-coarse, rho = 8')
    set key top left font ",7" maxrows 5
    plot for [i = 1:words(cf)] f using "n":(selc("recursive-o1", word(cf, i), "speedup_x")) with linespoints ls ls_recursive_o1 lc i pt (i + 4) \
             title 'recursive-o1 '.word(cf, i), \
         for [i = 1:words(cf)] f using "n":(selc("lambda-exact", word(cf, i), "speedup_x")) with linespoints ls ls_lambda_exact lc i pt (i + 4) dt 2 \
             title 'lambda-exact '.word(cf, i), \
         6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125'
}
unset multiplot
