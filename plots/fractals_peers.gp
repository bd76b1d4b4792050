# plots/fractals_peers.gp -- beyond the thesis: the authors' gpumaps fractal code beside ours in one
# run on one GPU, Sierpinski triangle, sw (write 1 to every cell, 1-byte cells), r = 16
# (n = 65536), per block side rho = 8, 16, 32.
# inputs: peers/gpumaps_peer_fractals_h200.dat peers/gpumaps_peer_fractals_h100.dat peers/gpumaps_peer_fractals_h100_791b176.dat
# Reads datadir/peers/gpumaps_peer_fractals_{h200,h100,h100_791b176}.dat (common/peers_dat.awk of the raw output in
# results-ref/peers/); output: outfile.  x: rho (log 2); y: ms per launch (log), the median with
# [min, max] as error bars (gpumaps: one process, printed to 1 us).  Left: the bounding boxes
# (gpumaps bbox, ours bb, bb-skip, bb-block); right: the lambda maps (gpumaps lambda, ours lambda,
# lambda-par; gpumaps' fastest tensor-core variant at rho = 32 as a point).  Top row: the H200
# run, where gpumaps' rho = 32 lambda and tensor-core variants were not run (rows 'skipped': they
# draw nothing); middle row: the H100 run of the same code; bottom row: the H100 run after bb-skip and
# bb-block were shortened (every row's title names our git).
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_peers.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1400,1600 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 10in,11.5in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# the revision our rows were built at (the derived file's '# ours: rows built at git REV' line)
ours_git(f) = system(sprintf("sed -n 's/^# ours: rows built at git \\([0-9a-f]*\\).*/\\1/p' '%s' | head -n 1", f))
# one series: the timed rows of one code and map
is(c, m) = strcol("code") eq c && strcol("map") eq m && strcol("status") eq 'ok'
v(c, m, col) = is(c, m) ? column(col) : NaN
set logscale x 2
set logscale y 10
set xrange [6:42]
set xtics (8, 16, 32)
set xlabel 'block side rho'
set ylabel 'ms per launch'
set key top right
set multiplot layout 3,2 title 'beyond the paper: the authors'' gpumaps beside ours, Sierpinski triangle, sw, n = 2^{16}, one run on each GPU'
do for [g in "h200 h100 h100_791b176"] {
    f = datadir.'/peers/gpumaps_peer_fractals_'.g.'.dat'
    if (g ne 'h200') { unset key }
    set title gpu_of(f).' (ours at git '.ours_git(f).'): bounding boxes'
    set yrange [3:60]
    set ytics (4, 5, 6, 8, 10, 20, 40)
    # gpumaps' bbox drawn last (dashed), so that it shows where it lies on ours
    plot f using "rho":(v('ours','bb',"median_ms")):(v('ours','bb',"min_ms")):(v('ours','bb',"max_ms")) \
           with yerrorlines ls ls_bb title 'ours bb', \
         f using "rho":(v('ours','bb-skip',"median_ms")):(v('ours','bb-skip',"min_ms")):(v('ours','bb-skip',"max_ms")) \
           with yerrorlines ls ls_bb_skip title 'ours bb-skip (the same early exit)', \
         f using "rho":(v('ours','bb-block',"median_ms")):(v('ours','bb-block',"min_ms")):(v('ours','bb-block',"max_ms")) \
           with yerrorlines ls ls_bb_block title 'ours bb-block (blocks off the fractal exit)', \
         f using "rho":(v('gpumaps','bbox',"median_ms")):(v('gpumaps','bbox',"min_ms")):(v('gpumaps','bbox',"max_ms")) \
           with yerrorlines ls ls_gpumaps_bbox title 'gpumaps bbox (blocks above the diagonal exit)'
    set title gpu_of(f).' (ours at git '.ours_git(f).'): lambda maps'
    set yrange [0.3:1.5]
    set ytics (0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.5)
    if (g eq 'h200') { set label 1 'gpumaps lambda and tensor-core variants at rho = 32: not run' at graph 0.97, graph 0.06 right font ',9' }
    plot f using "rho":(v('gpumaps','lambda',"median_ms")):(v('gpumaps','lambda',"min_ms")):(v('gpumaps','lambda',"max_ms")) \
           with yerrorlines ls ls_gpumaps_lambda title 'gpumaps lambda', \
         f using "rho":(v('ours','lambda',"median_ms")):(v('ours','lambda',"min_ms")):(v('ours','lambda',"max_ms")) \
           with yerrorlines ls ls_lambda title 'ours lambda (once per block)', \
         f using "rho":(v('ours','lambda-par',"median_ms")):(v('ours','lambda-par',"min_ms")):(v('ours','lambda-par',"max_ms")) \
           with yerrorlines ls ls_lambda_par title 'ours lambda-par', \
         f using "rho":(v('gpumaps','tensor-core-method-4',"median_ms")) \
           with points ls ls_gpumaps_lambda pt 13 ps 1.5 title 'gpumaps tensor cores (method 4, their fastest)'
    unset label 1
}
set key
unset multiplot
