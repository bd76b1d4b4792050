# plots/fractals_compact.gp -- the automaton (ca) on COMPACT storage (k^r cells, neighbours
# through the inverse map) against the embedded n x n array: beyond the thesis (Quezada,
# UACh, section 7, future work).
# inputs: fractals_compact_sierpinski-triangle.dat fractals_compact_sierpinski-carpet.dat
# Reads datadir/fractals_compact_<fractal>.dat (fractals/compact).  Left: time of one step
# (median_ms, [min, max] bars) vs r, test ca; dotted: rd on compact storage (a flat sum, the
# memory floor of the layout); right: bytes of the two ping-pong states (state_bytes) vs r;
# compact (solid) and embedded with the lambda map (dashed, only where it fits).
if (!exists("datadir")) datadir = 'fractals/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/fractals_compact.'.term
load styledir.'/style.gp'
if (term eq 'png') { set terminal pngcairo size 1500,620 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size 11in,4.3in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
fs = 'sierpinski-triangle sierpinski-carpet'
st(s, c) = (strcol("storage") eq s && strcol("test") eq "ca") ? column(c) : NaN
flat(t, c) = (strcol("storage") eq "compact" && strcol("test") eq t) ? column(c) : NaN
set style line 71 lc rgb '#1f77b4' pt 7 lw 2   # sierpinski-triangle
set style line 72 lc rgb '#2ca02c' pt 5 lw 2   # sierpinski-carpet
set logscale y 10
set xlabel 'level r'
set key top left
set multiplot layout 1,2 title 'beyond the paper (section 7, future work): ca on compact storage (k^r cells) vs embedded (n^2 cells), '.gpu_of(datadir.'/fractals_compact_sierpinski-triangle.dat')
set title 'time of one step'
set ylabel 'ms per step'
set format y '10^{%L}'
set yrange [1e-3:1e6]   # room above the data for the key
plot for [i=1:2] datadir.'/fractals_compact_'.word(fs, i).'.dat' using "r":(st("compact", "median_ms")):(st("compact", "min_ms")):(st("compact", "max_ms")) \
         with yerrorlines ls 70 + i title word(fs, i).', compact', \
     for [i=1:2] datadir.'/fractals_compact_'.word(fs, i).'.dat' using "r":(st("embedded", "median_ms")) \
         with linespoints ls 70 + i dt 2 pt 4 lw 1 title word(fs, i).', embedded (lambda)', \
     for [i=1:2] datadir.'/fractals_compact_'.word(fs, i).'.dat' using "r":(flat("rd", "median_ms")) \
         with lines ls 70 + i dt 3 lw 1 title word(fs, i).', rd on compact (memory floor)'
set title 'memory of the two states'
set ylabel 'bytes'
set yrange [10:1e12]
set key bottom right    # below the compact lines, clear of the data
plot for [i=1:2] datadir.'/fractals_compact_'.word(fs, i).'.dat' using "r":(st("compact", "state_bytes")) with linespoints ls 70 + i title word(fs, i).', compact', \
     for [i=1:2] datadir.'/fractals_compact_'.word(fs, i).'.dat' using "r":(st("embedded", "state_bytes")) with linespoints ls 70 + i dt 2 pt 4 lw 1 title word(fs, i).', embedded', \
     8e10 with lines ls ls_bound title 'H100 memory (80 GB)'
unset multiplot
