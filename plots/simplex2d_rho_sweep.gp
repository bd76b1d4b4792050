# plots/simplex2d_rho_sweep.gp -- beyond the paper's rho: Fig. 5's improvement over BB at
# rho = 8, 16, 32 (columns) for the zero-work kernel (map: the map alone, no store) and the
# write kernel (rows), n from 1536 to 65535 in steps of 2047 (past 2^15, n not a multiple of
# 1024).  Navarro, Bustos, Hitschfeld, arXiv:1609.01490 (Fig. 5 at one rho), extended.
# inputs: rho8/simplex2d_fig5_map.dat rho16/simplex2d_fig5_map.dat rho32/simplex2d_fig5_map.dat rho8/simplex2d_fig5_write.dat rho16/simplex2d_fig5_write.dat rho32/simplex2d_fig5_write.dat
# Reads datadir/rho<r>/simplex2d_fig5_<kernel>.dat (simplex2d --exp=fig5 --rho=r); output: outfile.
# x: N / 2^10; y: I = T_BB / T_map.  A float map stops where the device finds it wrong; REC
# exists only for n = d 2^k rho (few points).
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_rho_sweep.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,900 enhanced font 'Helvetica,12' linewidth 1.5 } \
else { set terminal pdfcairo size 11in,6.6in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
MAPS = "utm rb lambda-rsqrt lambda-exact-2d lambda-exact recursive-2d recursive recursive-above"
style_of(m) = m eq 'utm' ? ls_utm : m eq 'rec' ? ls_rec : m eq 'rb' ? ls_rb : m eq 'lambda-rsqrt' ? ls_lambda_rsqrt : \
              m eq 'lambda-exact-2d' ? ls_lambda_exact_2d : m eq 'lambda-exact' ? ls_lambda_exact : \
              m eq 'recursive-2d' ? ls_recursive_2d : m eq 'recursive' ? ls_recursive : ls_recursive_above
label_of(m) = m eq 'utm' ? 'UTM' : m eq 'rec' ? 'REC (n = d 2^k rho only)' : m eq 'rb' ? 'RB' : \
              m eq 'lambda-rsqrt' ? '{/Symbol l}_R' : m eq 'lambda-exact-2d' ? '{/Symbol l} exact, 2D grid' : \
              m eq 'lambda-exact' ? '{/Symbol l} exact, 1D grid' : m eq 'recursive-2d' ? 'recursive, 2D grid' : \
              m eq 'recursive' ? 'recursive, 1D grid' : 'recursive from above' 
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
set xrange [0:66]
set yrange [0:3.2]
# six panels placed by hand above a band that holds the one key (drawn by an empty plot of
# the band's full width, so the key lies in two rows over no data)
set multiplot title 'Beyond the paper (Fig. 5 of [NL] per block side rho): improvement over the bounding box, '.gpu_of(datadir.'/rho16/simplex2d_fig5_write.dat')
unset key
set size 0.333, 0.42
col = 0
do for [k in "map write"] {
  do for [r in "8 16 32"] {
    f = datadir.'/rho'.r.'/simplex2d_fig5_'.k.'.dat'
    set origin 0.333 * (col % 3), (k eq 'map' ? 0.52 : 0.10)
    col = col + 1
    set title (k eq 'map' ? 'zero work (map alone)' : 'write').', rho = '.r
    plot 1 with lines ls ls_bb notitle, \
         f using (column("n")/1024.):(sel("rec")) with points ls ls_rec notitle, \
         for [m in MAPS] f using (column("n")/1024.):(sel(m)) with linespoints ls style_of(m) notitle
  }
}
# the key band
set origin 0, 0
set size 1, 0.09
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 2 font ',10' samplen 2
plot NaN with lines ls ls_bb title 'BB', NaN with points ls ls_rec title 'REC (n = d 2^k rho only)', \
     for [m in MAPS] NaN with linespoints ls style_of(m) title label_of(m)
unset multiplot
