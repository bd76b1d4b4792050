# plots/hashmesh_dist_phases.gp -- beyond the paper: time per phase of the distributed neighbour finding on 4 ranks (2 where no 4-rank file exists).
# inputs: hashmesh_dist_scaling_gpu_p2.dat
# Reads datadir/hashmesh_dist_scaling_<backend>_p4.dat, else _p2.dat (hashmesh/neighbors-mpi --exp=scaling). Output: outfile (plots/out/hashmesh_dist_phases.pdf|png).
# x: AMR cells n (log); y: time (ms, log): each phase barrier-timed alone (the slowest rank); the setup phases
# (partition, pattern: host, every rank sorting all keys, once per mesh) dashed; the same steps
# distributed on the GPUs, each rank its own share (partition_dist_ms, pattern_dist_ms: median of
# reps after a first call; data from before this remesh have partition_gpu_ms instead: one call per
# mesh, so its first size also carries NCCL's first connection); the whole step (no barrier inside)
# for reference.  Columns are picked by the file's header, so both kinds of file render.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("backend")) backend = 'gpu'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_dist_phases.'.term
load styledir.'/style.gp'
f = datadir.'/hashmesh_dist_scaling_'.backend.'_p4.dat'
if (!file_exists(f)) f = datadir.'/hashmesh_dist_scaling_'.backend.'_p2.dat'
nranks = system(sprintf("grep -v '^#' '%s' | awk 'NR == 1 { for (k = 1; k <= NF; k++) if ($k == \"ranks\") c = k; next } { print $c; exit }'", f))
hdr = system(sprintf("grep -v '^#' '%s' | head -n 1", f))
has(c) = strstrt(' '.hdr.' ', ' '.c.' ') > 0
dist = has('partition_dist_ms')
set title "beyond the paper: phases of the distributed neighbour step, ".nranks." ranks (git ".git_of(f).")\n".gpu_of(f)
set xlabel 'AMR cells n'
set ylabel 'time (ms)'
set logscale xy
set format x '2^{%L}'; set logscale x 2
set format y '10^{%L}'
set key left center
plot f using "n":"partition_ms" with linespoints ls ls_ph_partition title 'partition (setup, host)', \
     f using "n":(dist ? column('partition_dist_ms') : column('partition_gpu_ms')) with linespoints ls ls_ph_partition_gpu title 'partition on the GPUs (setup)', \
     f using "n":(dist ? column('pattern_dist_ms') : NaN) with linespoints ls ls_ph_pattern_gpu title (dist ? 'ghost pattern on the GPUs (setup)' : ''), \
     f using "n":"pattern_ms" with linespoints ls ls_ph_pattern title 'ghost pattern (setup, host)', \
     f using "n":"exchange_ms" with linespoints ls ls_ph_exchange title 'ghost exchange', \
     f using "n":"build_ms" with linespoints ls ls_ph_build title 'hash build', \
     f using "n":"query_ms" with linespoints ls ls_ph_query title 'query', \
     f using "n":"total_ms" with linespoints ls ls_ranks2 title 'step (exchange + build + query)'
