# plots/sparsegrid_fig5_3_4d.gp -- thesis "Multi-level splitting of full grids on the GPU",
# Fig. 5.3: hierarchization of Nt 4D tiles of 9x9x5x5 points.
# inputs: sparsegrid_fig5_3_4d.dat
# Reads datadir/sparsegrid_fig5_3_4d.dat (sparsegrid --exp=fig5_3).  x: number of tiles Nt (log).
# Panels as in the thesis: (a) time t for all tiles (ms, log), (b) time per tile t/Nt (ms, log),
# (c) speedup t(1)/(t/Nt); plus (d) time per tile including host<->device transfers.
# One line per implementation: cpu_tuned (version A), gpu_thesis (version B), gpu_fused (ours);
# dashed grey lines: the thesis's saturation values (GTX 580 / i7-3770), where it states them
# (2D: 0.04 / 0.03 ms per tile, 17.5x / 24.5x; 3D: 0.005 / 0.004 ms; 4D: 3.5x / 12.5x).
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_fig5_3_4d.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_fig5_3_4d.dat'
tiles = "9x9x5x5"
# the thesis's numbers (section 5.1): per tile at saturation, and saturation speedups
thesis_tile_gpu = NaN; thesis_tile_cpu = NaN
thesis_speedup_gpu = 3.5; thesis_speedup_cpu = 12.5
sel(i, c) = (strcol("impl") eq i) ? column(c) : NaN
selt(i) = (strcol("impl") eq i) ? column("total_ms") / column("nt") : NaN
if (term eq 'png') { set terminal pngcairo size 1400,1000 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 10in,7in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
set multiplot layout 2,2 title 'Fig. 5.3 of the thesis: hierarchization of Nt tiles '.tiles.', '.gpu_of(f)
set logscale x
set format y '%g'
set xlabel 'number of tiles N_t'
set key top left
set logscale y
set ylabel 't, all tiles (ms)'
set title '(a) time for all tiles (kernel)'
plot f using "nt":(sel("cpu_tuned","median_ms")) with linespoints ls ls_cpu title 'CPU tuned (A, 16 threads)', \
     f using "nt":(sel("gpu_thesis","median_ms")) with linespoints ls ls_gpu_thesis title 'GPU thesis-style (B)', \
     f using "nt":(sel("gpu_fused","median_ms")) with linespoints ls ls_gpu_fused title 'GPU fused (ours)'
set ylabel 't / N_t (ms)'
set title '(b) time per tile (kernel)'
set key top right
hline(y, txt) = sprintf("set arrow from graph 0, first %g to graph 1, first %g nohead ls ls_bound; set label '%s' at graph 0.02, first %g offset 0,0.6 font ',9' tc rgb '#555555'", y, y, txt, y)
# the thesis's per-tile times lie above ours: extend the y range to show them
if (thesis_tile_gpu == thesis_tile_gpu) { set yrange [*:2 * thesis_tile_gpu] }
if (thesis_tile_gpu == thesis_tile_gpu) { eval hline(thesis_tile_gpu, sprintf('thesis GTX 580: %g ms', thesis_tile_gpu)) }
if (thesis_tile_cpu == thesis_tile_cpu) { eval hline(thesis_tile_cpu, sprintf('thesis i7 (4 cores): %g ms', thesis_tile_cpu)); set label 2 offset 0,-0.7 }
plot f using "nt":(sel("cpu_tuned","per_tile_ms")) with linespoints ls ls_cpu title 'CPU tuned', \
     f using "nt":(sel("gpu_thesis","per_tile_ms")) with linespoints ls ls_gpu_thesis title 'GPU thesis-style', \
     f using "nt":(sel("gpu_fused","per_tile_ms")) with linespoints ls ls_gpu_fused title 'GPU fused'
unset arrow; unset label
set yrange [*:*]
unset logscale y
set ylabel 'speedup t(1) / (t / N_t)'
set title '(c) speedup over one tile'
set key top left
set logscale y
if (thesis_speedup_gpu == thesis_speedup_gpu) { eval hline(thesis_speedup_gpu, sprintf('thesis GTX 580: %gx', thesis_speedup_gpu)) }
if (thesis_speedup_cpu == thesis_speedup_cpu) { eval hline(thesis_speedup_cpu, sprintf('thesis i7: %gx', thesis_speedup_cpu)) }
plot f using "nt":(sel("cpu_tuned","speedup_x")) with linespoints ls ls_cpu title 'CPU tuned', \
     f using "nt":(sel("gpu_thesis","speedup_x")) with linespoints ls ls_gpu_thesis title 'GPU thesis-style', \
     f using "nt":(sel("gpu_fused","speedup_x")) with linespoints ls ls_gpu_fused title 'GPU fused'
unset arrow; unset label
set ylabel 't / N_t with transfers (ms)'
set title '(d) time per tile with host<->device transfers'
set key top right
plot f using "nt":(selt("cpu_tuned")) with linespoints ls ls_cpu title 'CPU tuned (no transfers)', \
     f using "nt":(selt("gpu_thesis")) with linespoints ls ls_gpu_thesis title 'GPU thesis-style + transfers', \
     f using "nt":(selt("gpu_fused")) with linespoints ls ls_gpu_fused title 'GPU fused + transfers'
unset multiplot
