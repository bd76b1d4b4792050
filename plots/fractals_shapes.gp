# plots/fractals_shapes.gp -- the fractals of Table 1 at a small level (Quezada, UACh,
# Table 1 "Ilustracion"; the shapes this collection chose, see fractals/fractal.h).
# inputs: fractals_shapes.dat
# Reads datadir/fractals_shapes.dat (host): one row per cell; x = column, y = row (row 0 on
# top).  3 x 3 panels, one per fractal, each cell drawn as a unit square.
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_shapes.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1200,1260 enhanced font 'Helvetica,13' } else { set terminal pdfcairo size 8in,8.4in enhanced font 'Helvetica,11' }
set output outfile
f = datadir.'/fractals_shapes.dat'
names = "sierpinski-triangle candelabra h-fractal candy sierpinski-carpet x-fractal vicsek empty-bottles cantor-dust"
cell(fr) = strcol("fractal") eq fr ? column("x") : NaN
unset key
unset xtics
unset ytics
unset grid
set border 0
set size ratio -1
set style fill solid 1.0 noborder
set multiplot layout 3,3 title 'Table 1 of Quezada: the NBB fractals (sierpinski-triangle r=5, candy r=3, others r=3)'
do for [i=1:9] {
    fr = word(names, i)
    set title fr
    side = i == 1 ? 32 : i == 4 ? 64 : 27
    set xrange [0:side]
    set yrange [side:0]
    plot f using (cell(fr)):"y":(cell(fr)):(cell(fr) + 1):"y":(column("y") + 1) with boxxy lc rgb '#333333'
}
unset multiplot
