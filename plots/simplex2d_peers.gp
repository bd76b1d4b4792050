# plots/simplex2d_peers.gp -- beyond the paper: the authors' gpumaps 2-simplex code beside
# simplex2d on one GPU, N = 32768, per block side rho = 16, 32.
# inputs: peers/gpumaps_peer2d_h200.dat peers/gpumaps_peer2d_rho32_h200_afacf29.dat
# Reads datadir/peers/gpumaps_peer2d_h200.dat (the first run, rho = 16 and 32, store and zero
# work; simplex2d/peers_dat.awk) and datadir/peers/gpumaps_peer2d_rho32_h200_afacf29.dat (a
# second run, rho = 32 store, with recursive branch-free at m = 2^k; common/peers_dat.awk);
# output: outfile.  x: rho (log 2); y: ms per launch (log), the median (ours with [min, max]
# error bars; gpumaps' first run kept no min/max).  Lines: the first run, gpumaps dashed; the
# second run's points stand alone just right of rho = 32 (filled, larger).  Left: one store per cell
# (gpumaps st32, ours write); right: zero work (gpumaps' kernels compile to empty ones; ours
# dummy keeps the map).
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_peers.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1400,600 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 10in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
f1 = datadir.'/peers/gpumaps_peer2d_h200.dat'
f2 = datadir.'/peers/gpumaps_peer2d_rho32_h200_afacf29.dat'
# first run: one code, work and family; second run: one code and map
v1(c, w, fam, col) = (strcol("code") eq c && strcol("work") eq w && strcol("family") eq fam) ? column(col) : NaN
v2(c, m, col) = (strcol("code") eq c && strcol("map") eq m && strcol("status") eq 'ok') ? column(col) : NaN
set logscale x 2
set logscale y 10
set xrange [12:44]
set xtics (16, 32)
set xlabel 'block side rho'
set ylabel 'ms per launch'
set key top right font ',9'
set multiplot layout 1,2 title 'Beyond the paper: triangle, N = 32768, the authors'' gpumaps beside ours, '.gpu_of(f1)
set title 'one store per cell'
set yrange [0.5:4]
set ytics (0.5, 0.6, 0.8, 1, 1.5, 2, 3, 4)
plot f1 using "rho":(v1('gpumaps','store','box',"median_ms")) with linespoints ls ls_gpumaps_bbox title 'gpumaps bbox', \
     f1 using "rho":(v1('ours','store','box',"median_ms")):(v1('ours','store','box',"min_ms")):(v1('ours','store','box',"max_ms")) with yerrorlines ls ls_bb title 'ours bb', \
     f1 using "rho":(v1('gpumaps','store','lambda',"median_ms")) with linespoints ls ls_gpumaps_lambda title 'gpumaps lambda (fp32)', \
     f1 using "rho":(v1('ours','store','lambda',"median_ms")):(v1('ours','store','lambda',"min_ms")):(v1('ours','store','lambda',"max_ms")) with yerrorlines ls ls_lambda_exact title 'ours lambda-exact', \
     f1 using "rho":(v1('gpumaps','store','recursive',"median_ms")) with linespoints ls ls_gpumaps_hadouken title 'gpumaps hadouken', \
     f1 using "rho":(v1('ours','store','recursive',"median_ms")):(v1('ours','store','recursive',"min_ms")):(v1('ours','store','recursive',"max_ms")) with yerrorlines ls ls_recursive title 'ours recursive', \
     f2 using (column("rho")*1.08):(v2('gpumaps','hadouken',"median_ms")) with points ls ls_gpumaps_hadouken pt 15 ps 1.4 title 'second run: gpumaps hadouken', \
     f2 using (column("rho")*1.08):(v2('ours','recursive',"median_ms")) with points ls ls_recursive pt 7 ps 1.4 title 'second run: ours recursive (branch-free)', \
     f2 using (column("rho")*1.08):(v2('gpumaps','lambda',"median_ms")) with points ls ls_gpumaps_lambda pt 11 ps 1.4 title 'second run: gpumaps lambda', \
     f2 using (column("rho")*1.08):(v2('ours','lambda-exact',"median_ms")) with points ls ls_lambda_exact pt 9 ps 1.4 title 'second run: ours lambda-exact'
set title 'zero work'
set yrange [0.3:4]
set ytics (0.3, 0.5, 0.8, 1, 1.5, 2, 3, 4)
plot f1 using "rho":(v1('gpumaps','zero','box',"median_ms")) with linespoints ls ls_gpumaps_bbox title 'gpumaps bbox (empty kernel)', \
     f1 using "rho":(v1('ours','zero','box',"median_ms")):(v1('ours','zero','box',"min_ms")):(v1('ours','zero','box',"max_ms")) with yerrorlines ls ls_bb title 'ours bb (dummy)', \
     f1 using "rho":(v1('gpumaps','zero','lambda',"median_ms")) with linespoints ls ls_gpumaps_lambda title 'gpumaps lambda (empty kernel)', \
     f1 using "rho":(v1('ours','zero','lambda',"median_ms")):(v1('ours','zero','lambda',"min_ms")):(v1('ours','zero','lambda',"max_ms")) with yerrorlines ls ls_lambda_exact title 'ours lambda-exact (dummy)', \
     f1 using "rho":(v1('gpumaps','zero','recursive',"median_ms")) with linespoints ls ls_gpumaps_hadouken title 'gpumaps hadouken (empty kernel)', \
     f1 using "rho":(v1('ours','zero','recursive',"median_ms")):(v1('ours','zero','recursive',"min_ms")):(v1('ours','zero','recursive',"max_ms")) with yerrorlines ls ls_recursive title 'ours recursive (dummy)'
unset multiplot
