# plots/hashmesh_levmax.gp -- Robey, Nicholaeff, Robey, "Hash-based algorithms for discretized data": past the perfect table (beyond the paper).
# inputs: hashmesh_levmax_neigh.dat hashmesh_levmax_remap.dat
# Reads datadir/hashmesh_levmax_{neigh,remap}.dat (hashmesh/hashmesh --exp=levmax). Output: outfile (plots/out/hashmesh_levmax.pdf|png).
# 2D neighbours (top left) and 2D remap (top right) on corner-refined meshes vs their finest level: time (ms, log),
# median with [min, max]; bottom: table memory (bytes, log).  Perfect table (the paper's hash), compact hash, k-D tree.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_levmax.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_levmax_neigh.dat'
sel(m, c) = (strcol("method") eq m) ? column(c) : NaN
fn = f
fr = datadir.'/hashmesh_levmax_remap.dat'
set multiplot layout 2,2 title "beyond the paper: 2D neighbours and remap vs levmax (corner-refined meshes)\n".gpu_of(f)
set xlabel 'levmax (finest level)'
set logscale y
set format y '10^{%L}'
set ylabel 'time (ms)'
unset key       # the time panels' key sits alone in the fourth slot (inside a panel it hid the GPU curves)
set title 'neighbours'
plot fn using "levmax":(sel('perfect_cpu','median_ms')):(sel('perfect_cpu','min_ms')):(sel('perfect_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'perfect table (CPU)', \
     fn using "levmax":(sel('compact_cpu','median_ms')):(sel('compact_cpu','min_ms')):(sel('compact_cpu','max_ms')) with yerrorlines ls ls_compact_cpu title 'compact hash (CPU)', \
     fn using "levmax":(sel('kdtree','median_ms')):(sel('kdtree','min_ms')):(sel('kdtree','max_ms')) with yerrorlines ls ls_kdtree title 'k-D tree (1 core)', \
     fn using "levmax":(sel('kdtree_omp','median_ms')):(sel('kdtree_omp','min_ms')):(sel('kdtree_omp','max_ms')) with yerrorlines ls ls_kdtree_omp title 'k-D tree (all cores)', \
     fn using "levmax":(sel('perfect_gpu','median_ms')):(sel('perfect_gpu','min_ms')):(sel('perfect_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'perfect table (GPU)', \
     fn using "levmax":(sel('compact_gpu','median_ms')):(sel('compact_gpu','min_ms')):(sel('compact_gpu','max_ms')) with yerrorlines ls ls_compact_gpu title 'compact hash (GPU)'
set title 'remap (old mesh 1.5x the refined radius)'   # no kdtree_omp rows in the remap file
plot fr using "levmax":(sel('perfect_cpu','median_ms')):(sel('perfect_cpu','min_ms')):(sel('perfect_cpu','max_ms')) with yerrorlines ls ls_hash_cpu title 'perfect table (CPU)', \
     fr using "levmax":(sel('compact_cpu','median_ms')):(sel('compact_cpu','min_ms')):(sel('compact_cpu','max_ms')) with yerrorlines ls ls_compact_cpu title 'compact hash (CPU)', \
     fr using "levmax":(sel('kdtree','median_ms')):(sel('kdtree','min_ms')):(sel('kdtree','max_ms')) with yerrorlines ls ls_kdtree title 'k-D tree (1 core)', \
     fr using "levmax":(sel('perfect_gpu','median_ms')):(sel('perfect_gpu','min_ms')):(sel('perfect_gpu','max_ms')) with yerrorlines ls ls_hash_gpu title 'perfect table (GPU)', \
     fr using "levmax":(sel('compact_gpu','median_ms')):(sel('compact_gpu','min_ms')):(sel('compact_gpu','max_ms')) with yerrorlines ls ls_compact_gpu title 'compact hash (GPU)'
set title 'table memory (neighbours)'
set ylabel 'table memory (bytes)'
set key top left
plot fn using "levmax":(sel('perfect_gpu','table_bytes')) with linespoints ls ls_hash_gpu title 'perfect table', \
     fn using "levmax":(sel('compact_gpu','table_bytes')) with linespoints ls ls_compact_gpu title 'compact hash', \
     fn using "levmax":(sel('kdtree','table_bytes')) with linespoints ls ls_kdtree title 'k-D tree'
# fourth slot: the key of the two time panels
unset title; unset xlabel; unset ylabel; unset tics; unset border; unset grid; unset logscale y
set xrange [0:1]; set yrange [0:1]
set key center center box title 'time panels' font ',11'
plot NaN notitle, keyentry with yerrorlines ls ls_hash_cpu title 'perfect table (CPU)', \
             keyentry with yerrorlines ls ls_compact_cpu title 'compact hash (CPU)', \
             keyentry with yerrorlines ls ls_kdtree title 'k-D tree (1 core)', \
             keyentry with yerrorlines ls ls_kdtree_omp title 'k-D tree (all cores, neighbours only)', \
             keyentry with yerrorlines ls ls_hash_gpu title 'perfect table (GPU)', \
             keyentry with yerrorlines ls ls_compact_gpu title 'compact hash (GPU)'
unset multiplot
