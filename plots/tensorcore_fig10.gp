# plots/tensorcore_fig10.gp -- Fig. 10 of Quezada, "Acelerando ecuaciones de mapeo de hilos de
# GPU para fractales 2D empotrados utilizando Tensor Cores": speedup T(lambda) / T(lambda_tc)
# of each tensor-core variant over the classic lambda, embedded Sierpinski triangle.
# inputs: tensorcore_fig10_sw.dat tensorcore_fig10_rd.dat tensorcore_fig10_ca.dat
# Reads datadir/tensorcore_fig10_{sw,rd,ca}.dat (tensorcore/tensorcore).  Panels: one row per
# test (sw, rd, ca), one column per block side rho (8, 16, 32).  x: n = 2^r (log2), y: speedup
# over fractals' lambda (column speedup_x; > 1 = faster than lambda), series v1, v2, v3 (paper,
# WMMA), mma and v2-mma (ours: v1's / v2's encodings on mma.sync registers).  Output: plots/out/tensorcore_fig10.pdf.
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_fig10.'.term
if (term eq 'png') { set terminal pngcairo size 1500,1100 enhanced font 'Helvetica,12' linewidth 1.5 }
load styledir.'/style.gp'
if (term ne 'png') { set terminal pdfcairo size 11in,8in enhanced font 'Helvetica,10' linewidth 1.5; set output outfile }
tests = 'sw rd ca'
rhos = '8 16 32'
sel(m, rho) = (strcol("map") eq m && column("rho") == rho) ? column("speedup_x") : NaN
# local style (not in style.gp): our second tensor-core variant, v2's encoding on mma.sync
set style line 41 lc rgb '#ff7f0e' pt 13 dt 2   # v2-mma (ours)
set logscale x 2
set format x '2^{%L}'
set xlabel 'n'
set ylabel 'speedup over {/Symbol l}'
set key top left
set multiplot layout 3,3 title 'Fig. 10: speedup of {/Symbol l}_{tc} over {/Symbol l}, Sierpinski triangle, '.gpu_of(datadir.'/tensorcore_fig10_sw.dat')
do for [t = 1:3] {
  do for [q = 1:3] {
    f = datadir.'/tensorcore_fig10_'.word(tests, t).'.dat'
    rho = word(rhos, q) + 0
    set title word(tests, t).', {/Symbol r} = '.word(rhos, q)
    if (t == 1 && q == 1) { set key } else { unset key }
    plot f using "n":(sel("v1", rho)) with linespoints ls ls_tc_v1 title 'v1 (5.1)', \
         f using "n":(sel("v2", rho)) with linespoints ls ls_tc_v2 title 'v2 (5.2)', \
         f using "n":(sel("v3", rho)) with linespoints ls ls_tc_v3 title 'v3 (5.3)', \
         f using "n":(sel("mma", rho)) with linespoints ls ls_tc_ours title 'mma (ours)', \
         f using "n":(sel("v2-mma", rho)) with linespoints ls 41 title 'v2-mma (ours)', \
         1 with lines ls ls_bound notitle
  }
}
unset multiplot
