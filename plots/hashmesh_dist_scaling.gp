# plots/hashmesh_dist_scaling.gp -- beyond the paper (Robey, Nicholaeff, Robey, the conclusion's open problem): distributed 2D neighbours (Listing 2) on 1, 2 and 4 GPUs.
# inputs: hashmesh_dist_scaling_gpu_p1.dat hashmesh_dist_scaling_gpu_p2.dat
# Reads datadir/hashmesh_dist_scaling_<backend>_p{1,2}.dat and _p4.dat where it exists (hashmesh/neighbors-mpi --exp=scaling). Output: outfile (plots/out/hashmesh_dist_scaling.pdf|png).
# Left (strong scaling): x: AMR cells n (log); y: neighbour step = ghost exchange + hash build + query (ms, log), median with [min, max].
# Middle (weak scaling): the same times against cells per GPU n / ranks: equal curves = perfect weak scaling.
# Right (remesh): the distributed remesh (Morton partition + ghost pattern on the GPUs, remesh_dist_ms) and
# remesh + one step, against n: what a mesh change costs per rank count; on 2 ranks also the first
# design that sorted every cell twice (remesh_sort2_ms, where the file has it).  The 4-rank file
# may come from another revision than the 1- and 2-rank ones: its legend names its git.
if (!exists("datadir")) datadir = 'hashmesh/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("backend")) backend = 'gpu'
if (!exists("outfile")) outfile = 'plots/out/hashmesh_dist_scaling.'.term
load styledir.'/style.gp'
f1 = datadir.'/hashmesh_dist_scaling_'.backend.'_p1.dat'
f2 = datadir.'/hashmesh_dist_scaling_'.backend.'_p2.dat'
f4 = datadir.'/hashmesh_dist_scaling_'.backend.'_p4.dat'
p4 = file_exists(f4)
top = p4 ? f4 : f2
t4 = p4 ? sprintf('4 ranks (git %s)', git_of(f4)) : ''
hdr2 = system(sprintf("grep -v '^#' '%s' | head -n 1", f2))
sort2 = strstrt(' '.hdr2.' ', ' remesh_sort2_ms ') > 0
# the 4-rank series, only where its file exists (a plot element added by a macro)
s_strong = p4 ? sprintf(", '%s' using 'n':'total_ms':'total_min_ms':'total_max_ms' with yerrorlines ls ls_ranks4 title '%s'", f4, t4) : ""
s_weak = p4 ? sprintf(", '%s' using (column('n') / column('ranks')):'total_ms' with linespoints ls ls_ranks4 title '%s'", f4, t4) : ""
s_remesh = p4 ? sprintf(", '%s' using 'n':'remesh_dist_ms' with linespoints ls ls_ranks4 title '%s', '%s' using 'n':(column('remesh_dist_ms') + column('total_ms')) with linespoints ls ls_ranks4 dt 2 pt 8 title '%s, + step'", f4, t4, f4, t4) : ""
s_sort2 = sort2 ? sprintf(", '%s' using 'n':'remesh_sort2_ms' with linespoints ls ls_ranks2 dt 3 pt 12 title '2 ranks, sorting twice (first design)'", f2) : ""
set multiplot layout 1,3 title "beyond the paper: distributed 2D neighbours (Listing 2, Morton partition, ghost cells)\n".gpu_of(top) font ',10'
set logscale xy
set format x '2^{%L}'; set logscale x 2
set format y '10^{%L}'
set key top left font ',8'
set ylabel 'neighbour step (ms)'
set xlabel 'AMR cells n'
set title 'strong scaling'
plot f1 using "n":"total_ms":"total_min_ms":"total_max_ms" with yerrorlines ls ls_ranks1 title '1 rank', \
     f2 using "n":"total_ms":"total_min_ms":"total_max_ms" with yerrorlines ls ls_ranks2 title '2 ranks' @s_strong
set xlabel 'cells per rank n / P'
set title 'weak scaling'
plot f1 using (column("n") / column("ranks")):"total_ms" with linespoints ls ls_ranks1 title '1 rank', \
     f2 using (column("n") / column("ranks")):"total_ms" with linespoints ls ls_ranks2 title '2 ranks' @s_weak
set xlabel 'AMR cells n'
set ylabel 'remesh on the GPUs (ms)'
set title 'remesh; + step dashed'
plot f1 using "n":"remesh_dist_ms" with linespoints ls ls_ranks1 title '1 rank', \
     f1 using "n":(column("remesh_dist_ms") + column("total_ms")) with linespoints ls ls_ranks1 dt 2 pt 4 title '1 rank, + step', \
     f2 using "n":"remesh_dist_ms" with linespoints ls ls_ranks2 title '2 ranks', \
     f2 using "n":(column("remesh_dist_ms") + column("total_ms")) with linespoints ls ls_ranks2 dt 2 pt 4 title '2 ranks, + step' @s_sort2 @s_remesh
unset multiplot
