# plots/sparsegrid_figx4_sparse.gp -- beyond the thesis "Multi-level splitting of full grids on
# the GPU" (its future work, chapter 6): batched hierarchization of regular sparse grids with
# boundary on the GPU and the CPU, d = 2..6.
# inputs: sparsegrid_figx4_sparse_float.dat sparsegrid_figx4_sparse_double.dat
# Reads datadir/sparsegrid_figx4_sparse_{float,double}.dat (sparsegrid --exp=sparse
# --precision=float|double).  Panels (a) float and (b) double: x: bytes moved (read + write,
# MB, log), y: GB/s (log); per d one colour: GPU k_sparse with the offset table and 512
# threads (solid; the fastest GPU configuration at the largest batch for every d and both
# precisions), CPU with the dimensional shift (cpu_shift, dotted; the faster CPU version at the
# largest batch); the copy kernel of the same bytes (d = 2 run).  Panel (c): percent of the
# ceiling at the largest batch (bytes_moved >= big) vs d, hierarchization: GPU k_sparse with
# the offset table per block size (128/256/512 threads: three point types; float red, double
# orange), with computed offsets at 512 threads (open points) and k_sparse_multi with G = 1
# grid per block and U = 4 table entries in flight (dashed, 256 / 512 threads) against the
# copy kernel of the same bytes; CPU (cpu_shift solid, cpu_tuned dashed) against the host's triad; 60 %
# dashed grey (the goal).  Legends below the panels.
if (!exists("datadir")) datadir = 'sparsegrid/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/sparsegrid_figx4_sparse.'.term
if (!exists("big")) big = 2.5e8
load styledir.'/style.gp'
ff = datadir.'/sparsegrid_figx4_sparse_float.dat'
fd = datadir.'/sparsegrid_figx4_sparse_double.dat'
if (term eq 'png') { set terminal pngcairo size 1600,650 enhanced font 'Helvetica,13' linewidth 1.5 } \
else { set terminal pdfcairo size 12in,4.8in enhanced font 'Helvetica,11' linewidth 1.5 }
set output outfile
# local styles: one colour per d
set style line 102 lc rgb '#8c564b' pt 7
set style line 103 lc rgb '#2ca02c' pt 5
set style line 104 lc rgb '#d62728' pt 9
set style line 105 lc rgb '#9467bd' pt 11
set style line 106 lc rgb '#ff7f0e' pt 13
sel(d, i, t) = (column("d") == d && strcol("impl") eq i && (t == 0 || column("threads") == t)) ? column("gbs") : NaN
mb(x) = x / 1e6
set multiplot layout 1,3 title 'beyond the thesis (its future work, ch. 6): regular sparse grids with boundary, batched, '.gpu_of(ff)
set key below maxrows 5 font ',8' samplen 1.5
set bmargin 9
set logscale xy
set format y '%g'
set xlabel 'bytes moved (MB)' offset 0,0.6
set ylabel 'GB/s'
set yrange [1:10000]
do for [p=1:2] {
  f = (p == 1) ? ff : fd
  set title (p == 1) ? '(a) float' : '(b) double'
  plot f using (mb(column("bytes_moved"))):(sel(2, "copy", 0)) with linespoints ls ls_copy title 'copy kernel', \
       for [d=2:6] f using (mb(column("bytes_moved"))):(sel(d, "gpu_sparse_table", 512)) with linespoints ls (100 + d) title sprintf('GPU table 512, d = %d', d), \
       for [d=2:6] f using (mb(column("bytes_moved"))):(sel(d, "cpu_shift", 0)) with linespoints ls (100 + d) dt 3 pt 6 title sprintf('CPU shift, d = %d', d)
}
unset logscale
set title '(c) at the largest batch: % of the ceiling'
set key below maxrows 9 maxcols 2 font ',7' samplen 1 width -2
set xlabel 'd' offset 0,0.6
set ylabel '% of ceiling (GPU: copy, CPU: host triad)'
set xrange [1.5:6.5]
set yrange [0:70]
set xtics 1
pct(i, t) = (column("bytes_moved") >= big && strcol("impl") eq i && (t == 0 || column("threads") == t)) ? column("pct_ceiling") : NaN
plot 60 with lines ls ls_bound title '60% (goal)', \
     for [t in "128 256 512"] ff using "d":(pct("gpu_sparse_table", t + 0)) with points ls ls_gpu_fused pt (t eq "128" ? 5 : t eq "256" ? 7 : 9) ps 1.2 title 'GPU float, table, '.t.' thr.', \
     for [t in "128 256 512"] fd using "d":(pct("gpu_sparse_table", t + 0)) with points ls ls_gpu_thesis pt (t eq "128" ? 5 : t eq "256" ? 7 : 9) ps 1.2 title 'GPU double, table, '.t.' thr.', \
     ff using "d":(pct("gpu_sparse", 512)) with points ls ls_gpu_fused pt 8 ps 1.2 title 'GPU float, computed, 512 thr.', \
     fd using "d":(pct("gpu_sparse", 512)) with points ls ls_gpu_thesis pt 8 ps 1.2 title 'GPU double, computed, 512 thr.', \
     for [t in "256 512"] ff using "d":(pct("gpu_sparse_multi_g1_u4", t + 0)) with linespoints ls ls_gpu_fused dt 2 pt (t eq "256" ? 11 : 13) ps 1.2 title 'GPU float, k\_sparse\_multi G=1 U=4, '.t.' thr.', \
     for [t in "256 512"] fd using "d":(pct("gpu_sparse_multi_g1_u4", t + 0)) with linespoints ls ls_gpu_thesis dt 2 pt (t eq "256" ? 11 : 13) ps 1.2 title 'GPU double, k\_sparse\_multi G=1 U=4, '.t.' thr.', \
     ff using "d":(pct("cpu_shift", 0)) with linespoints ls ls_cpu pt 4 title 'CPU shift, float (of triad)', \
     fd using "d":(pct("cpu_shift", 0)) with linespoints ls ls_cpu pt 6 title 'CPU shift, double (of triad)', \
     ff using "d":(pct("cpu_tuned", 0)) with linespoints ls ls_cpu dt 2 pt 12 title 'CPU tuned, float (of triad)', \
     fd using "d":(pct("cpu_tuned", 0)) with linespoints ls ls_cpu dt 2 pt 14 title 'CPU tuned, double (of triad)'
unset multiplot
