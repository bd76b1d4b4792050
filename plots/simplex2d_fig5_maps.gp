# plots/simplex2d_fig5_maps.gp -- Navarro, Bustos, Hitschfeld, arXiv:1609.01490, Fig. 5: the
# improvement factor of every map over BB on the four test kernels (four panels).
# inputs: simplex2d_fig5_dummy.dat simplex2d_fig5_edm4d.dat simplex2d_fig5_collision3d.dat simplex2d_fig5_collision1d.dat
# Reads datadir/simplex2d_fig5_<kernel>.dat (simplex2d --exp=fig5 --kernel=K); output: outfile.
# x: N / 2^10, y: I = T_BB / T_map (rho = 16); lines: UTM, REC, lambda (= lambda-rsqrt, the
# paper's lambda R), RB, and ours: lambda-exact, recursive (arXiv:1610.07394).  BB: I = 1.
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_fig5_maps.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1400,1000 enhanced font 'Helvetica,12' linewidth 1.5 } \
else { set terminal pdfcairo size 10in,7.5in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
sel(m) = (strcol("map") eq m) ? column("improvement_x") : NaN
set xlabel 'N (x 2^{10})'
set ylabel 'I = T_{BB} / T_{map}'
# one key for the four panels (the same series in each), drawn with the first panel in a band
# reserved below the grid (the multiplot margins leave it free): it covers no data
set multiplot layout 2,2 title 'Fig. 5 of [NL]: improvement over the bounding box, rho = 16, '.gpu_of(datadir.'/simplex2d_fig5_dummy.dat') \
    margins 0.07, 0.98, 0.11, 0.93 spacing 0.08, 0.1
do for [k in "dummy edm4d collision3d collision1d"] {
  f = datadir.'/simplex2d_fig5_'.k.'.dat'
  if (k eq "dummy") { set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 font ',10' samplen 2 } \
  else { unset key }
  set title (k eq 'dummy' ? 'Dummy kernel' : k eq 'edm4d' ? 'EDM 4D' : k eq 'collision3d' ? 'Collision 3D' : 'Collision 1D')
  plot 1 with lines ls ls_bb title 'BB', \
       f using (column("n")/1024.):(sel("utm")) with linespoints ls ls_utm title 'UTM', \
       f using (column("n")/1024.):(sel("rec")) with linespoints ls ls_rec title 'REC', \
       f using (column("n")/1024.):(sel("lambda-rsqrt")) with linespoints ls ls_lambda_rsqrt title '{/Symbol l}_R', \
       f using (column("n")/1024.):(sel("rb")) with linespoints ls ls_rb title 'RB', \
       f using (column("n")/1024.):(sel("lambda-exact")) with linespoints ls ls_lambda_exact title '{/Symbol l} exact', \
       f using (column("n")/1024.):(sel("recursive")) with linespoints ls ls_recursive title 'recursive'
}
unset multiplot
