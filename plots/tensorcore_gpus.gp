# plots/tensorcore_gpus.gp -- Fig. 10 of Quezada (speedup T(lambda) / T(lambda_tc)) on two
# GPUs, rho = 16, with the run-to-run spread of the second GPU's repeated runs.
# inputs: tensorcore_fig10_sw.dat tensorcore_fig10_rd.dat tensorcore_fig10_ca.dat h100/tensorcore_fig10_sw.dat h100/tensorcore_fig10_rd.dat h100/tensorcore_fig10_ca.dat h100/tensorcore_spread_sw.dat h100/tensorcore_spread_rd.dat h100/tensorcore_spread_ca.dat
# Reads datadir/tensorcore_fig10_<test>.dat (reference GPU, one run), datadir/h100/
# tensorcore_fig10_<test>.dat (the second GPU's full sweep, thin dashed, no points) and
# datadir/h100/tensorcore_spread_<test>.dat (tensorcore/spread.sh over the repeated runs: median
# and [min, max] of the speedup; the repeats cover r >= 14, so these rows start there; the
# number of runs is read from the file's `runs` column).  Panels:
# sw, rd, ca.  x: n = 2^r (log2); y: speedup_x (> 1 = faster than the classic lambda).
# Series: v1, v2 (paper, WMMA), v2-mma (ours).  The grey band is the noise floor: 1 +- the
# classic lambda's own run-to-run spread (lambda_spread_pct).
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_gpus.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1800,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 13in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
RHO = 16
sel(m) = (strcol("map") eq m && column("rho") == RHO) ? column("speedup_x") : NaN
spm(m, c) = (strcol("map") eq m && column("rho") == RHO) ? column(c) : NaN
band(sign) = (strcol("map") eq "lambda" && column("rho") == RHO) ? 1 + sign * column("lambda_spread_pct") / 100 : NaN
set style line 41 lc rgb '#ff7f0e' pt 13 dt 2   # v2-mma (ours), as in tensorcore_fig10.gp
set logscale x 2
set format x '2^{%L}'
set xlabel 'n'
set ylabel 'speedup over {/Symbol l}, {/Symbol r} = 16'
set key top left
stats datadir.'/h100/tensorcore_spread_sw.dat' using "runs" nooutput   # before any range is set
nruns = int(STATS_max)
set yrange [0.3:1.6]
set style fill transparent solid 0.25 noborder
g1 = gpu_of(datadir.'/tensorcore_fig10_sw.dat')
g2 = gpu_of(datadir.'/h100/tensorcore_spread_sw.dat')
set multiplot layout 1,3 title 'beyond the paper: Fig. 10 of Quezada on two GPUs ({/Symbol r} = 16): solid = '.g1.' (1 run); thin dashed = '.g2.' (run 1), bars = its median, [min, max] of '.nruns.' runs (n {/Symbol \263} 2^{14})'
do for [t in "sw rd ca"] {
  f1 = datadir.'/tensorcore_fig10_'.t.'.dat'
  f2 = datadir.'/h100/tensorcore_spread_'.t.'.dat'
  f3 = datadir.'/h100/tensorcore_fig10_'.t.'.dat'
  set title 'test '.t
  if (t eq 'sw') { set key } else { unset key }
  plot f2 using "n":(band(-1)):(band(1)) with filledcurves lc rgb '#999999' title 'noise floor ('.g2.')', \
       f1 using "n":(sel("v1")) with linespoints ls ls_tc_v1 title 'v1', \
       f1 using "n":(sel("v2")) with linespoints ls ls_tc_v2 title 'v2', \
       f1 using "n":(sel("v2-mma")) with linespoints ls 41 dt 1 title 'v2-mma', \
       f3 using "n":(sel("v1")) with lines ls ls_tc_v1 dt 2 lw 1 notitle, \
       f3 using "n":(sel("v2")) with lines ls ls_tc_v2 dt 2 lw 1 notitle, \
       f3 using "n":(sel("v2-mma")) with lines ls 41 dt 2 lw 1 notitle, \
       f2 using "n":(spm("v1", "speedup_med")):(spm("v1", "speedup_min")):(spm("v1", "speedup_max")) with yerrorlines ls ls_tc_v1 dt 2 notitle, \
       f2 using "n":(spm("v2", "speedup_med")):(spm("v2", "speedup_min")):(spm("v2", "speedup_max")) with yerrorlines ls ls_tc_v2 dt 2 notitle, \
       f2 using "n":(spm("v2-mma", "speedup_med")):(spm("v2-mma", "speedup_min")):(spm("v2-mma", "speedup_max")) with yerrorlines ls 41 notitle, \
       1 with lines ls ls_bound notitle
}
unset multiplot
