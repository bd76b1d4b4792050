# plots/tensorcore_fig10.gp -- Fig. 10 of Quezada, "Acelerando ecuaciones de mapeo de hilos de
# GPU para fractales 2D empotrados utilizando Tensor Cores": speedup T(lambda) / T(lambda_tc)
# of each tensor-core variant over the classic lambda, embedded Sierpinski triangle.
# inputs: tensorcore_fig10_sw.dat tensorcore_fig10_rd.dat tensorcore_fig10_ca.dat
# Reads datadir/tensorcore_fig10_{sw,rd,ca}.dat (tensorcore --exp=fig10).  Panels: one row per
# work kernel (sw, rd, ca), one column per block side rho (8, 16, 32), the same axes along a
# row and a column.  x: n = 2^r (log2), y: speedup over fractals' lambda (column speedup_x;
# > 1 = faster than lambda), series v1, v2, v3 (paper, WMMA), mma and v2-mma (ours: v1's /
# v2's encodings on mma.sync registers); one key for all panels, at the top.
# The paper's numbers (section 6, for n >= 2^10; the text gives no rho): v2 reaches 1.2 on the
# Titan V and 1.4 on the Titan RTX for sw, 1.2 / 1.3 for rd, and for ca stays below 1 on the
# Titan V and reaches 1.11 on the Titan RTX; v1 reaches 1.1 on the Titan RTX (sw); v3 is below
# 1 everywhere.  Drawn as dotted grey lines (v2's) in every panel of the row, their values named
# in the key (no text on the panels, so no label covers a data point).  Output: plots/out/tensorcore_fig10.pdf (or .png with term = 'png').
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_fig10.'.term
load styledir.'/style.gp'
# a 3 x 3 figure: larger than style.gp's single panel, fonts readable at 100 dpi
if (term eq 'png') { set terminal pngcairo size 1500,1200 enhanced font 'Helvetica,16' linewidth 2 }
if (term ne 'png') { set terminal pdfcairo size 11in,8.8in enhanced font 'Helvetica,12' linewidth 1.5 }
set output outfile
works = 'sw rd ca'
rhos = '8 16 32'
sel(m, rho) = (strcol("map") eq m && column("rho") == rho) ? column("speedup_x") : NaN
# local styles (not in style.gp): our second tensor-core variant, v2's encoding on mma.sync
# (as in tensorcore_gpus.gp), and the paper's numbers
set style line 41 lc rgb '#ff7f0e' pt 13 dt 2   # v2-mma (ours)
set style line 42 lc rgb '#808080' lw 1.5 dt 3  # the paper's v2 (Titan V, Titan RTX)
# the paper's v2, per work kernel: Titan V, Titan RTX (NaN: "below 1", no number given)
paper_v = '1.2 1.2 NaN'
paper_rtx = '1.4 1.3 1.11'
# the same y range along a row (every rho), so the columns compare directly: from the data of
# the plotted maps and the paper's numbers
plotted(m) = (m eq 'v1' || m eq 'v2' || m eq 'v3' || m eq 'mma' || m eq 'v2-mma')
max(a, b) = a > b ? a : b
min(a, b) = a < b ? a : b
set logscale x 2
set xrange [4:131072]
set xtics 16 format '2^{%L}'
set mxtics 4
set ytics 0.2 format '%.1f'
set mytics 2
set tics font ',14'
# panel (t, q) in screen coordinates: 3 x 3 below the title and the shared key
px0 = 0.08; px1 = 0.98; gx = 0.045; py0 = 0.07; py1 = 0.80; gy = 0.085
pw = (px1 - px0 - 2 * gx) / 3.0; ph = (py1 - py0 - 2 * gy) / 3.0
set multiplot title 'Fig. 10 of Quezada: speedup of {/Symbol l}_{tc} over {/Symbol l}, Sierpinski triangle, '.gpu_of(datadir.'/tensorcore_fig10_sw.dat')."\nsw: write every cell;  rd: sum of the cells;  ca: one Game-of-Life step.  Dotted: the paper's v2, Titan V (sw 1.2, rd 1.2, ca < 1) and Titan RTX (1.4, 1.3, 1.11)"
unset key
do for [t = 1:3] {
  do for [q = 1:3] {
    set lmargin at screen px0 + (q - 1) * (pw + gx)
    set rmargin at screen px0 + (q - 1) * (pw + gx) + pw
    set tmargin at screen py1 - (t - 1) * (ph + gy)
    set bmargin at screen py1 - (t - 1) * (ph + gy) - ph
    f = datadir.'/tensorcore_fig10_'.word(works, t).'.dat'
    rho = word(rhos, q) + 0
    pv = word(paper_v, t) + 0.0
    pr = word(paper_rtx, t) + 0.0
    if (q == 1) {
      set autoscale y   # stats keeps only the values inside the current y range
      stats f using (plotted(strcol("map")) ? column("speedup_x") : NaN) nooutput
      set yrange [floor(min(STATS_min, 1) * 10 - 0.5) / 10.0 : ceil(max(STATS_max, pr) * 10 + 0.5) / 10.0]
    }
    set title word(works, t).', {/Symbol r} = '.word(rhos, q) offset 0,-0.6
    set xlabel 'n (side of the embedded array)' offset 0,0.9 font ',13'
    if (q == 1) { set ylabel 'speedup over {/Symbol l}' offset 1,0 } else { unset ylabel }
    plot f using "n":(sel("v1", rho)) with linespoints ls ls_tc_v1, \
         f using "n":(sel("v2", rho)) with linespoints ls ls_tc_v2, \
         f using "n":(sel("v3", rho)) with linespoints ls ls_tc_v3, \
         f using "n":(sel("mma", rho)) with linespoints ls ls_tc_ours, \
         f using "n":(sel("v2-mma", rho)) with linespoints ls 41, \
         pv with lines ls 42, pr with lines ls 42, 1 with lines ls ls_bound
  }
}
# the key of every panel, once, in a strip of its own between the title and the panels
set lmargin at screen px0; set rmargin at screen px1; set tmargin at screen 0.915; set bmargin at screen 0.845
unset title; unset xlabel; unset ylabel; unset label; unset border; unset tics; unset grid
set yrange [0:1]
set key center center horizontal maxcols 3 maxrows 2 box opaque samplen 3 spacing 1.1 width 2 font ',15'
plot NaN with linespoints ls ls_tc_v1 title 'v1 (5.1)', NaN with linespoints ls ls_tc_v2 title 'v2 (5.2)', \
     NaN with linespoints ls ls_tc_v3 title 'v3 (5.3)', NaN with linespoints ls ls_tc_ours title 'mma (ours)', \
     NaN with linespoints ls 41 title 'v2-mma (ours)', NaN with lines ls 42 title "paper's v2, Titan V / RTX"
unset multiplot
