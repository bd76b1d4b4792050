# plots/hashmesh_dist_scaling.gp -- beyond the paper (Robey, Nicholaeff, Robey, sec. 5's open problem): distributed 2D neighbours (Listing 2) on 1 and 2 GPUs.
# inputs: hashmesh_dist_scaling_gpu_p1.dat hashmesh_dist_scaling_gpu_p2.dat
# Reads datadir/hashmesh_dist_scaling_<backend>_p{1,2}.dat (hashmesh/neighbors-mpi --exp=scaling). Output: outfile (plots/out/hashmesh_dist_scaling.pdf|png).
# Left (strong scaling): x: AMR cells n (log); y: neighbour step = ghost exchange + hash build + query (ms, log), median with [min, max].
# Right (weak scaling): the same times against cells per GPU n / ranks: equal curves = perfect weak scaling.
# Rank counts 1 and 2 (the data that exist); a 4-rank file would be a third series of each panel.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("backend")) backend = 'gpu'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_dist_scaling.'.term
load styledir.'/style.gp'
f1 = datadir.'/hashmesh_dist_scaling_'.backend.'_p1.dat'
f2 = datadir.'/hashmesh_dist_scaling_'.backend.'_p2.dat'
set multiplot layout 1,2 title "Distributed 2D neighbours (Listing 2, Morton partition, ghost cells)\n".gpu_of(f2) font ',10'
set logscale xy
set format x '2^{%L}'; set logscale x 2
set format y '10^{%L}'
set ylabel 'neighbour step (ms)'
set xlabel 'AMR cells n'
set title 'strong scaling'
plot f1 using "n":"total_ms":"total_min_ms":"total_max_ms" with yerrorlines ls ls_ranks1 title '1 rank', \
     f2 using "n":"total_ms":"total_min_ms":"total_max_ms" with yerrorlines ls ls_ranks2 title '2 ranks'
set xlabel 'cells per rank n / P'
set title 'weak scaling'
plot f1 using (column("n") / column("ranks")):"total_ms" with linespoints ls ls_ranks1 title '1 rank', \
     f2 using (column("n") / column("ranks")):"total_ms" with linespoints ls ls_ranks2 title '2 ranks'
unset multiplot
