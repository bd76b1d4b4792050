# plots/simplex3d_layout.gp -- which block and launch takes each cell: one z-slice of the
# tetrahedron per map, small n (Navarro et al. arXiv:1609.01490 Fig. 7; arXiv:1610.07394
# Fig. 5-7 show the 3D views).  Data: `simplex3d --exp=layout` (host emulation of the launch grid).
# inputs: simplex3d_layout_bb.dat simplex3d_layout_lambda-cubic.dat simplex3d_layout_lambda-exact.dat simplex3d_layout_recursive-log.dat simplex3d_layout_recursive-o1.dat
# Each panel: cells (x, y) of the slice z = zslice of D_n = {x <= y <= z < n}; colour: the
# launch's linear block index (recursive-log: launch * 1000 + block), so equal colours = one block.
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_layout.'.term
if (!exists("zslice")) zslice = 13
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1600,420 enhanced font 'Helvetica,12' } else { set terminal pdfcairo size 11in,3in enhanced font 'Helvetica,9' }
set output outfile
unset key
set size ratio -1
set palette defined (0 '#1f77b4', 1 '#ff7f0e', 2 '#2ca02c', 3 '#d62728', 4 '#9467bd', 5 '#8c564b', 6 '#e377c2', 7 '#17becf')
set palette maxcolors 8
unset colorbox
set xlabel 'x'
set ylabel 'y'
set xrange [-0.5:zslice+0.5]
set yrange [-0.5:zslice+0.5]
set multiplot layout 1,5 title sprintf('[NL] Fig. 7, [REC] Figs. 5-7: one z-slice (z = %d) of the tetrahedron, n = 16, rho = 2: colour = block', zslice)
maps = 'bb lambda-cubic lambda-exact recursive-log recursive-o1'
do for [i=1:5] {
  m = word(maps, i)
  set title m
  plot datadir.'/simplex3d_layout_'.m.'.dat' using (column("z") == zslice ? column("x") : NaN):"y":(int(column("launch") * 1000 + column("block")) % 8) with points pt 5 ps 1.2 lc palette
}
unset multiplot
