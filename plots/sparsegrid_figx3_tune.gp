# plots/sparsegrid_figx3_tune.gp -- beyond the thesis "Multi-level splitting of full grids on
# the GPU": tuning of our pipelined fused kernel (gpu_fused_pipelined) at >= 1 GiB of tiles.
# inputs: sparsegrid_figx3_tune.dat
# Reads datadir/sparsegrid_figx3_tune.dat (sparsegrid --exp=tune).  One panel per tile shape
# (33x33, 9x9x9, 9x9x5x5); x: configuration (threads per block / about floats per group /
# stages, "s" = staged 16-byte stores from shared memory), in file order; y: percent of the copy kernel of the same bytes (same run), for
# hierarchization and dehierarchization.  Horizontal lines: gpu_fused (not pipelined) and the
# 60% goal.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx3_tune.'.term
load styledir.'/style.gp'
f = datadir.'/sparsegrid_figx3_tune.dat'
if (term eq 'png') { set terminal pngcairo size 1500,550 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,4in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# Local style: the pipelined variant (style.gp has one style for "gpu fused / ours").
set style line 120 lc rgb '#8b0000' pt 13 dt 1
ls_gpu_fused_pipe = 120
pipe(s, c) = (strcol("shape") eq s && strcol("impl") eq "gpu_fused_pipelined") ? column(c) : NaN
# files written before the staged-store option (git 62ada8c) have no "staged" column
has_staged = int(system(sprintf("grep -c '^shape .* staged ' '%s'", f)))
st(x) = has_staged ? (column("staged") > 0 ? "s" : "") : ""
lab(s) = (strcol("shape") eq s && strcol("impl") eq "gpu_fused_pipelined") ? \
         sprintf("%d/%d/%d%s", column("threads"), column("target_floats"), column("stages"), st(0)) : ""
# gpu_fused (not pipelined) of each shape, as a constant (stats over its one row)
defaults = system(sprintf("sed -n 's/^# defaults: gpu_fused_pipelined: //p' '%s' | head -n 1", f))
set multiplot layout 1,3 title 'beyond the thesis: gpu\_fused\_pipelined: threads / floats per group / stages [s: staged stores]; default of this revision: '.defaults.'; at >= 1 GiB, '.gpu_of(f) font ',10'
set ylabel '% of copy kernel'
set yrange [0:100]
set xtics rotate by 60 right font ',8'
set key bottom right font ',8'
set grid y
do for [s in "33x33 9x9x9 9x9x5x5"] {
  stats f using (strcol("shape") eq s && strcol("impl") eq "gpu_fused" ? column("pct_copy") : NaN) nooutput
  base = STATS_max
  set title 'tiles '.s
  plot f using 0:(pipe(s, "pct_copy")):xtic(lab(s)) with linespoints ls ls_gpu_fused_pipe title 'pipelined', \
       f using 0:(pipe(s, "inv_pct_copy")) with linespoints ls ls_gpu_fused_pipe dt 2 title 'pipelined, inverse', \
       base with lines ls ls_gpu_fused title 'gpu\_fused (not pipelined)', \
       60 with lines ls ls_bound title '60% goal'
}
unset multiplot
