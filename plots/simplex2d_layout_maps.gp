# plots/simplex2d_layout_maps.gp -- which block covers which cell, per map: the data form of
# the drawings of arXiv:1609.01490 (Fig. 1, 2, 4) and arXiv:1610.07394 (Fig. 4).
# inputs: simplex2d_layout_bb.dat simplex2d_layout_rb.dat simplex2d_layout_rec.dat simplex2d_layout_utm.dat simplex2d_layout_lambda-exact.dat simplex2d_layout_recursive.dat
# Reads datadir/simplex2d_layout_<map>.dat (simplex2d --exp=layout --n=32 --rho=4); output: outfile.
# x: column j, y: row i (row 0 at the top); colour: linear block id of the launch (utm: the
# thread-space block); rec: launch 0 is the diagonal pass, launch l the level-l squares.
if (!exists("datadir")) datadir = 'simplex2d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex2d_layout_maps.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,1000 enhanced font 'Helvetica,12' } \
else { set terminal pdfcairo size 10.5in,7in enhanced font 'Helvetica,10' }
set output outfile
set size ratio -1
# the axes hug the n x n domain with one empty cell on each side (autoscale put the last row on
# the x axis and took the y axis to -5)
stats datadir.'/simplex2d_layout_bb.dat' using "i" name "L" nooutput
n_side = int(L_max) + 1
set xrange [-1:n_side]
set yrange [n_side:-1]
set xlabel 'column j'
set ylabel 'row i'
set palette defined (0 '#3b4cc0', 1 '#f7f7f7', 2 '#b40426')
set palette maxcolors 0
unset key
set grid noxtics noytics
set multiplot layout 2,3 title 'Figs. 2 and 4 of [NL]: block of each cell, n = 32, rho = 4 (colour = linear block id; rec: launch x 1000 + block)'
do for [m in "bb rb rec utm lambda-exact recursive"] {
  f = datadir.'/simplex2d_layout_'.m.'.dat'
  set title m
  plot f using "j":"i":(column("launch")*1000 + column("block")) with points pt 5 ps 0.55 palette
}
unset multiplot
