# plots/simplex2d_fig3_rho.gp -- Navarro, Bustos, Hitschfeld, arXiv:1609.01490, Fig. 3 (the
# square-root variants of lambda on the zero-work kernel) at rho = 8, 16, 32, n from 1536 to
# 65535 in steps of 2047: past 2^15, where the float variants fail and are refused.
# inputs: rho8/simplex2d_fig3_dummy.dat rho16/simplex2d_fig3_dummy.dat rho32/simplex2d_fig3_dummy.dat
# Reads datadir/rho<r>/simplex2d_fig3_dummy.dat (simplex2d --exp=fig3 --rho=r); output: outfile.
# x: N / 2^10; y: I = T_BB / T_map (kernel: map, the map alone).  A float map's line stops at the
# first n where the device finds it wrong (the program refuses to time it from there on).
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_fig3_rho.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,560 enhanced font 'Helvetica,12' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,4.1in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
MAPS = "lambda-sqrt lambda-newton lambda-rsqrt lambda-exact-2d lambda-exact"
style_of(m) = m eq 'lambda-sqrt' ? ls_lambda_sqrt : m eq 'lambda-newton' ? ls_lambda_newton : \
              m eq 'lambda-rsqrt' ? ls_lambda_rsqrt : m eq 'lambda-exact-2d' ? ls_lambda_exact_2d : ls_lambda_exact
label_of(m) = m eq 'lambda-sqrt' ? '{/Symbol l}_X (sqrtf)' : m eq 'lambda-newton' ? '{/Symbol l}_N (Newton)' : \
              m eq 'lambda-rsqrt' ? '{/Symbol l}_R (rsqrtf)' : m eq 'lambda-exact-2d' ? '{/Symbol l} exact, 2D grid' : \
              '{/Symbol l} exact, 1D grid (ours)'
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
set xrange [0:66]
set yrange [0:3.2]
set multiplot title 'Fig. 3 of [NL] per block side (beyond the paper): square-root variants of {/Symbol l}({/Symbol w}), zero-work kernel, '.gpu_of(datadir.'/rho16/simplex2d_fig3_dummy.dat')
unset key
set size 0.333, 0.78
col = 0
do for [r in "8 16 32"] {
  f = datadir.'/rho'.r.'/simplex2d_fig3_dummy.dat'
  set origin 0.333 * col, 0.14
  col = col + 1
  set title 'rho = '.r
  plot 1 with lines ls ls_bb notitle, for [m in MAPS] f using (column("n")/1024.):(sel(m)) with linespoints ls style_of(m) notitle
}
set origin 0, 0
set size 1, 0.12
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 1 font ',10' samplen 2
plot NaN with lines ls ls_bb title 'BB', for [m in MAPS] NaN with linespoints ls style_of(m) title label_of(m)
unset multiplot
