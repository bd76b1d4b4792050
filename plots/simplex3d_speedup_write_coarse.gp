# plots/simplex3d_speedup_write_coarse.gp -- the coarsened write kernel (ours, not in the
# papers): the tetrahedral maps of Navarro et al. arXiv:1609.01490 sec. 6 and arXiv:1610.07394
# sec. III.C with several map blocks (rho^3 cells) per CUDA block, the map evaluated per
# thread, 16-byte stores; bb coarsened the same way.  One line per configuration
# "mblocks x tpm" (map blocks per CUDA block x threads per map block).
# inputs: simplex3d_speedup_write-coarse.dat
# left:  x: n (cells per side, log2); y: I = T_bb / T_map of recursive-o1 (solid) and
#        lambda-exact (dashed) at the same configuration; the space bound 6/1.125 (eq. 24)
#        and our goal 4.5 for reference.
# right: x: n; y: write rate in % of the measured write ceiling (pct_ceiling) of
#        recursive-o1 (solid) and bb (dotted), per configuration.
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_speedup_write_coarse.'.term
load styledir.'/style.gp'
f = datadir.'/simplex3d_speedup_write-coarse.dat'
rho = real(system(sprintf("awk '!/^#/ && $1 != \"kernel\" {print $3; exit}' '%s'", f)))
# the configurations present, in file order ("mblocks tpm" pairs, from the column names)
cfgs = system(sprintf("awk '/^kernel/ {for (i = 1; i <= NF; i++) c[$i] = i; next} /^#/ {next} {k = $c[\"mblocks\"] \"x\" $c[\"tpm\"]; if (!(k in s)) {s[k] = 1; printf \"%%s \", k}}' '%s'", f))
ncfg = words(cfgs)
cfg(i) = word(cfgs, i)
mb(i) = int(real(substr(cfg(i), 1, strstrt(cfg(i), "x") - 1)))
tp(i) = int(real(substr(cfg(i), strstrt(cfg(i), "x") + 1, strlen(cfg(i)))))
sel(m, i, col) = (strcol("map") eq m && column("mblocks") == mb(i) && column("tpm") == tp(i)) ? column(col) : NaN
set multiplot layout 1, 2 title sprintf("Beyond the papers: coarsened write kernel (ours), rho = %d: ", rho).gpu_of(f)
set xlabel 'n (cells per side)'
set logscale x 2
set key top left font ",7" maxrows 7
set ylabel 'I = T_{bb} / T_{map} (same configuration)'
set yrange [0:7]
plot for [i = 1:ncfg] f using "n":(sel("recursive-o1", i, "speedup_x")) with linespoints ls ls_recursive_o1 lc i pt (i + 4) \
         title 'recursive-o1 '.cfg(i), \
     for [i = 1:ncfg] f using "n":(sel("lambda-exact", i, "speedup_x")) with linespoints ls ls_lambda_exact lc i pt (i + 4) dt 2 \
         title 'lambda-exact '.cfg(i), \
     6/1.125 with lines ls ls_bound dt 4 title 'space bound 6/1.125 (eq. 24)', \
     4.5 with lines ls ls_bound dt 3 title 'goal 4.5'
set ylabel '% of the write ceiling'
set yrange [0:105]
set key bottom right
plot for [i = 1:ncfg] f using "n":(sel("recursive-o1", i, "pct_ceiling")) with linespoints ls ls_recursive_o1 lc i pt (i + 4) \
         title 'recursive-o1 '.cfg(i), \
     for [i = 1:ncfg] f using "n":(sel("bb", i, "pct_ceiling")) with linespoints ls ls_bb lc i pt (i + 4) dt 3 \
         title 'bb '.cfg(i)
unset multiplot
