# plots/fractals_layout.gp -- thread layouts of the bounding box and of lambda(omega)
# (Quezada, UACh, Fig. 4: Vicsek, bb vs lambda; Fig. 5: Sierpinski r = 6 with 8 x 8 blocks,
# "green = wasted threads"), here for the Sierpinski triangle, Vicsek and the carpet.
# inputs: fractals_layout.dat
# Reads datadir/fractals_layout.dat (host, ./fractals --exp=layout): one row per launched thread.
# Rows of panels: one fractal each.  Columns: (1) bb's parallel space (= the n x n box);
# (2) lambda's compact parallel space (px, py); (3) the data space, each cell in the colour
# of the lambda block that handles it.  A thread's colour is its block (cycled); green =
# a launched thread without a cell (wasted); y grows downwards (row 0 on top).
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_layout.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,1500 enhanced font 'Helvetica,13' } else { set terminal pdfcairo size 10in,10in enhanced font 'Helvetica,11' }
set output outfile
f = datadir.'/fractals_layout.dat'
names = "sierpinski-triangle vicsek sierpinski-carpet"
sel(fr, m, w) = (strcol("fractal") eq fr && strcol("map") eq m && column("works") == w) ? 1 : NaN
colour(b) = (int(b) * 7) % 12
# the level, side and rho of each fractal's rows, for the titles and ranges
# (awk reads the header row to find the columns by name)
info(fr, key) = real(system(sprintf("awk '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next} $c[\"fractal\"] == \"%s\" && $c[\"map\"] == \"lambda\" && $c[\"%s\"] + 0 > m {m = $c[\"%s\"] + 0} END {print m}' '%s'", fr, key, key, f)))
unset key
unset xtics
unset ytics
unset grid
unset colorbox
set border 0
set size ratio -1
set style fill solid 1.0 noborder
set palette maxcolors 12 defined (0 '#1f77b4', 1 '#ff7f0e', 2 '#9467bd', 3 '#d62728', 4 '#8c564b', 5 '#e377c2', 6 '#7f7f7f', 7 '#bcbd22', 8 '#17becf', 9 '#393b79', 10 '#843c39', 11 '#7b4173')
set cbrange [0:11]
waste = 'lc rgb "#98df8a"'
set multiplot layout 3,3 title 'Figs. 4 and 5 of Quezada: thread layouts, bounding box vs lambda(omega); colour = block, green = wasted thread'
do for [i=1:3] {
    fr = word(names, i)
    n = info(fr, 'n')
    rho = info(fr, 'rho')
    set title sprintf("%s r=%d, bb: %dx%d blocks of %dx%d", fr, int(info(fr, 'r')), int(n / rho), int(n / rho), int(rho), int(rho))
    set xrange [0:n]
    set yrange [n:0]
    plot f using (column("px") * sel(fr, "bb", 1)):"py":"px":(column("px") + 1):"py":(column("py") + 1):(colour(column("block"))) with boxxy lc palette, \
         f using (column("px") * sel(fr, "bb", 0)):"py":"px":(column("px") + 1):"py":(column("py") + 1) with boxxy @waste
    gx = info(fr, 'px') + 1
    gy = info(fr, 'py') + 1
    set title sprintf("lambda: compact grid of %dx%d blocks", int(gx / rho), int(gy / rho))
    set xrange [0:gx]
    set yrange [gy:0]
    plot f using (column("px") * sel(fr, "lambda", 1)):"py":"px":(column("px") + 1):"py":(column("py") + 1):(colour(column("block"))) with boxxy lc palette, \
         f using (column("px") * sel(fr, "lambda", 0)):"py":"px":(column("px") + 1):"py":(column("py") + 1) with boxxy @waste
    set title "data space: each cell in its lambda block's colour"
    set xrange [0:n]
    set yrange [n:0]
    plot f using (column("x") * sel(fr, "lambda", 1)):"y":"x":(column("x") + 1):"y":(column("y") + 1):(colour(column("block"))) with boxxy lc palette
}
unset multiplot
