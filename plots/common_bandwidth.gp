# plots/common_bandwidth.gp -- the measured memory ceiling (no paper figure).
# inputs: common_bandwidth.dat
# Reads datadir/common_bandwidth.dat (common/bandwidth); x: buffer size (MiB, log), y: GB/s
# counting bytes read + written; one line per test (memcpy, copy kernel, write kernel).
if (!exists("datadir")) datadir = 'common/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/common_bandwidth.'.term
load styledir.'/style.gp'
f = datadir.'/common_bandwidth.dat'
set title 'Device memory bandwidth, '.gpu_of(f)
set xlabel 'buffer size (MiB)'
set ylabel 'GB/s (bytes read + written)'
set logscale x 4
set key bottom right
sel(t) = (strcol("test") eq t) ? column("gbs") : NaN
plot f using (column("size_bytes")/1048576):(sel("memcpy")) with linespoints ls ls_memcpy title 'cudaMemcpy D2D', \
     f using (column("size_bytes")/1048576):(sel("copy")) with linespoints ls ls_copy title 'copy kernel', \
     f using (column("size_bytes")/1048576):(sel("write")) with linespoints ls ls_write title 'write kernel'
