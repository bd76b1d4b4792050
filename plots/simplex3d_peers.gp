# plots/simplex3d_peers.gp -- beyond the papers (neither times 3D): the authors' gpumaps 3-simplex
# codes beside simplex3d in one run on one GPU, N = 1024 (their regular code's limit), per block
# side rho = 4, 8 (and 2 in the last run).
# inputs: peers/gpumaps_peer3d_h200.dat peers/gpumaps_peer3d_h100.dat peers/gpumaps_peer3d_h100_791b176.dat peers/gpumaps_peer3d_rho2_h100_791b176.dat
# Reads datadir/peers/gpumaps_peer3d_{h200,h100}.dat (top row H200, middle H100) and the two H100 runs at
# git 791b176 (bottom row: rho = 8 and 4 of the first, rho = 2 of the second; common/peers_dat.awk of the raw output in
# results-ref/peers/); output: outfile.  x: rho (log 2); y: ms per launch (log), the median with
# [min, max] as error bars.  Left, one store per cell: gpumaps bbox and hadouken (4-byte cells),
# ijk lambda (1-byte; wrong at rho = 4 by their own check), ours bb, lambda-exact and
# recursive-o1 (write, the map evaluated once per block).  Right, no store: gpumaps hadouken with
# the map kept, gpumaps' zero-work hadouken (compiled to an empty kernel), ours recursive-o1's
# map kernel (map kept, per-thread evaluation) and an empty kernel on recursive-o1's grid.
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_peers.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1400,1600 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 10in,11.5in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# the revision our rows were built at (the derived file's '# ours: rows built at git REV' line)
ours_git(f) = system(sprintf("sed -n 's/^# ours: rows built at git \\([0-9a-f]*\\).*/\\1/p' '%s' | head -n 1", f))
# the card's short name ('H100', 'H200') from the '# gpu:' line, for the panel titles
card(f) = (cw = word(gpu_of(f), 2), cw[strlen(cw):strlen(cw)] eq ',' ? cw[1:strlen(cw) - 1] : cw)
# one series: the timed rows of one code, test, evaluation and map
is(c, t, e, m) = strcol("code") eq c && strcol("test") eq t && strcol("eval") eq e && strcol("map") eq m && strcol("status") eq 'ok'
v(c, t, e, m, col) = is(c, t, e, m) ? column(col) : NaN
set logscale x 2
set logscale y 10
set xrange [1.7:9.7]
set xtics (2, 4, 8)
set xlabel 'block side rho (rho^3 threads a block)'
set ylabel 'ms per launch'
set key top right
set multiplot layout 3,2 title 'Beyond the papers: tetrahedron, N = 1024, the authors'' gpumaps beside ours, one run on each GPU'
do for [g in "h200 h100 h100_791b176"] {
    f = datadir.'/peers/gpumaps_peer3d_'.g.'.dat'
    # the last run: its rho = 8, 4 rows, then the rho = 2 rows of the run made right after it
    f2 = datadir.'/peers/gpumaps_peer3d_rho2_h100_791b176.dat'
    src = g eq 'h100_791b176' ? sprintf("< awk '/^#/ || $5 != 2' '%s'; grep -v '^#' '%s' | tail -n +2", f, f2) : f
    if (g ne 'h200') { unset key }
    set title 'NVIDIA '.card(f).' (ours at git '.ours_git(f).'): one store per cell'
    set yrange [0.25:100]
    set ytics (0.3, 0.5, 1, 2, 5, 10, 20, 50, 100)
    plot src using "rho":(v('gpumaps','regular-store','-','bbox',"median_ms")):(v('gpumaps','regular-store','-','bbox',"min_ms")):(v('gpumaps','regular-store','-','bbox',"max_ms")) \
           with yerrorlines ls ls_gpumaps_bbox title 'gpumaps bbox', \
         src using "rho":(v('ours','write','block','bb',"median_ms")):(v('ours','write','block','bb',"min_ms")):(v('ours','write','block','bb',"max_ms")) \
           with yerrorlines ls ls_bb title 'ours bb', \
         src using "rho":(v('gpumaps','ijk-write','-','lambda',"median_ms")):(v('gpumaps','ijk-write','-','lambda',"min_ms")):(v('gpumaps','ijk-write','-','lambda',"max_ms")) \
           with yerrorlines ls ls_gpumaps_lambda title 'gpumaps ijk lambda (1-byte; wrong at rho = 4, 2)', \
         src using "rho":(v('ours','write','block','lambda-exact',"median_ms")):(v('ours','write','block','lambda-exact',"min_ms")):(v('ours','write','block','lambda-exact',"max_ms")) \
           with yerrorlines ls ls_lambda_exact title 'ours lambda-exact', \
         src using "rho":(v('gpumaps','regular-store','-','hadouken',"median_ms")):(v('gpumaps','regular-store','-','hadouken',"min_ms")):(v('gpumaps','regular-store','-','hadouken',"max_ms")) \
           with yerrorlines ls ls_gpumaps_hadouken title 'gpumaps hadouken', \
         src using "rho":(v('ours','write','block','recursive-o1',"median_ms")):(v('ours','write','block','recursive-o1',"min_ms")):(v('ours','write','block','recursive-o1',"max_ms")) \
           with yerrorlines ls ls_recursive_o1 title 'ours recursive-o1'
    set title 'NVIDIA '.card(f).' (ours at git '.ours_git(f).'): no store (map kept; empty)'
    set yrange [0.18:20]
    set ytics (0.2, 0.3, 0.5, 1, 2, 5, 10, 20)
    plot src using "rho":(v('gpumaps','regular-zero-work-kept','-','hadouken',"median_ms")):(v('gpumaps','regular-zero-work-kept','-','hadouken',"min_ms")):(v('gpumaps','regular-zero-work-kept','-','hadouken',"max_ms")) \
           with yerrorlines ls ls_gpumaps_hadouken title 'gpumaps hadouken, map kept', \
         src using "rho":(v('ours','map','thread','recursive-o1',"median_ms")):(v('ours','map','thread','recursive-o1',"min_ms")):(v('ours','map','thread','recursive-o1',"max_ms")) \
           with yerrorlines ls ls_recursive_o1 title 'ours recursive-o1, map kept (per thread)', \
         src using "rho":(v('gpumaps','regular-zero-work','-','hadouken',"median_ms")):(v('gpumaps','regular-zero-work','-','hadouken',"min_ms")):(v('gpumaps','regular-zero-work','-','hadouken',"max_ms")) \
           with yerrorlines ls ls_gpumaps_empty title 'gpumaps hadouken zero work (empty)', \
         src using "rho":(v('ours','empty','block','recursive-o1',"median_ms")):(v('ours','empty','block','recursive-o1',"min_ms")):(v('ours','empty','block','recursive-o1',"max_ms")) \
           with yerrorlines ls ls_empty title 'ours empty kernel, recursive-o1''s grid'
}
set key
unset multiplot
