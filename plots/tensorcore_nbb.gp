# plots/tensorcore_nbb.gp -- Fig. 10's measurement on other NBB fractals (Quezada, section 5:
# "the encodings apply to every NBB fractal"): speedup T(lambda) / T(map) of v1's encoding
# (WMMA v1, mma on registers) and of the controls redux and table, test sw.
# inputs: tensorcore_nbb_candelabra_sw.dat tensorcore_nbb_vicsek_sw.dat tensorcore_nbb_sierpinski-carpet_sw.dat tensorcore_nbb_h-fractal_sw.dat
# Reads datadir/tensorcore_nbb_<fractal>_sw.dat (./tensorcore --exp=nbb --fractal=<fractal> --work=sw, `make -C tensorcore nbb`;
# the GPU is named from the files' '# gpu:' line, not from a directory).
# Panels: one per fractal.  x: n = s^r (log); y: speedup_x (> 1 = faster than lambda).
# Solid: the larger rho of the sweep (27, s = 3); dashed: the smaller (9).  candy (s = 4, in the
# sweep since 38112f8; measured with the others in results-ref/): a fifth panel at rho = 16 when
# datadir/tensorcore_nbb_candy_sw.dat exists (not an input: the four panels render without it);
# at rho = 4 no tensor-core map runs (a partial warp), so only rho = 16 is drawn.
# table and redux keep the colours and points of tensorcore_mapcost.gp.
if (!exists("datadir")) datadir = 'tensorcore/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/tensorcore_nbb.'.term
load styledir.'/style.gp'
fc = datadir.'/tensorcore_nbb_candy_sw.dat'
has_candy = file_exists(fc)
if (term eq 'png') { set terminal pngcairo size (has_candy ? 2300 : 1600),1100 enhanced font 'Helvetica,13' linewidth 1.5 } else { set terminal pdfcairo size (has_candy ? 16 : 11)*1in,8in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
fs = 'candelabra vicsek sierpinski-carpet h-fractal'
sel(m, rho) = (strcol("map") eq m && column("rho") == rho) ? column("speedup_x") : NaN
# local styles (not in style.gp), as in tensorcore_mapcost.gp: the table lookup and the non-tensor-core control
set style line 41 lc rgb '#000000' pt 2 dt 2   # table: lambda looked up (map-cost bound)
set style line 42 lc rgb '#8c564b' pt 4 dt 1   # redux (warp 0, no tensor core)
set logscale x 3
set format x '3^{%L}'
set xlabel 'n'
set ylabel 'speedup over {/Symbol l}'
set yrange [*<0.3:1.6<*]   # at least 0.3 .. 1.6, wider where a speedup falls outside
set key bottom left
set multiplot layout 2,(has_candy ? 3 : 2) title "beyond the paper: v1's tensor-core encoding on other NBB fractals, test sw (write every cell), ".gpu_of(datadir.'/tensorcore_nbb_candelabra_sw.dat')."\n"   # the newline: room for the panels' titles
do for [i = 1:4] {
  fr = word(fs, i)
  f = datadir.'/tensorcore_nbb_'.fr.'_sw.dat'
  hi = 27
  lo = 9
  set title sprintf('%s ({/Symbol r} = %d solid, %d dashed)', fr, hi, lo)
  if (i == 1) { set key } else { unset key }
  plot f using "n":(sel("v1", hi)) with linespoints ls ls_tc_v1 dt 1 title 'v1 (WMMA)', \
       f using "n":(sel("mma", hi)) with linespoints ls ls_tc_ours dt 1 title 'mma (ours)', \
       f using "n":(sel("redux", hi)) with linespoints ls 42 dt 1 title 'redux (no TC)', \
       f using "n":(sel("table", hi)) with linespoints ls 41 dt 1 title 'table (map-cost bound)', \
       f using "n":(sel("v1", lo)) with linespoints ls ls_tc_v1 dt 2 notitle, \
       f using "n":(sel("mma", lo)) with linespoints ls ls_tc_ours dt 2 notitle, \
       1 with lines ls ls_bound notitle
}
if (has_candy) {
  set title 'candy ({/Symbol r} = 16; s = 4)'
  set logscale x 4
  set format x '4^{%L}'
  plot fc using "n":(sel("v1", 16)) with linespoints ls ls_tc_v1 dt 1 notitle, \
       fc using "n":(sel("mma", 16)) with linespoints ls ls_tc_ours dt 1 notitle, \
       fc using "n":(sel("redux", 16)) with linespoints ls 42 dt 1 notitle, \
       fc using "n":(sel("table", 16)) with linespoints ls 41 dt 1 notitle, \
       1 with lines ls ls_bound notitle
}
unset multiplot
