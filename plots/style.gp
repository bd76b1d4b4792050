# plots/style.gp -- shared look of every figure in the collection.
# Loaded by each plots/<dir>_*.gp after it sets datadir/outfile/term defaults:
#     load styledir.'/style.gp'
# Sets the terminal (pdfcairo, or pngcairo when term eq 'png'), fonts and sizes, and ONE
# line style per method name, used the same way in every figure: `with linespoints ls ls_bb`.
# Helper: gpu_of(file) returns the `# gpu:` metadata line of a data file, for titles.

if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plot.'.term
if (term eq 'png') {
    set terminal pngcairo size 1000,700 enhanced font 'Helvetica,13' linewidth 1.5
} else {
    set terminal pdfcairo size 6in,4.2in enhanced font 'Helvetica,11' linewidth 1.5
}
set output outfile
set datafile columnheaders
set datafile commentschars '#'
# a series selects its rows by returning NaN for the others: skip them without breaking the line
set datafile missing NaN
set key top left box opaque samplen 2 spacing 1.1 font ',10'
set grid lc rgb '#dddddd' lt 1
set border lw 1
set pointsize 0.8
set tics nomirror out
set border 3

# The GPU named in a data file's metadata (never hard-coded in a script).
gpu_of(f) = system(sprintf("sed -n 's/^# gpu: \\([^(]*\\).*/\\1/p' '%s' | head -n 1", f))
# 1 if the data file f exists (series drawn only where their file was measured), else 0.
file_exists(f) = int(system(sprintf("test -f '%s' && echo 1 || echo 0", f)))
# the revision that measured data file f (its '# git:' line)
git_of(f) = system(sprintf("sed -n 's/^# git: *//p' '%s' | head -n 1", f))

# ---- one style per method (colour, point type, dash) ----
# baselines
set style line 1  lc rgb '#000000' pt 4  dt 1   # bb: bounding box (the reference of every I)
ls_bb = 1
set style line 2  lc rgb '#1f77b4' pt 6  dt 1   # rb: rectangle box
ls_rb = 2
set style line 3  lc rgb '#2ca02c' pt 8  dt 1   # rec: recursive partition (Ries et al.)
ls_rec = 3
set style line 4  lc rgb '#9467bd' pt 10 dt 1   # utm: upper-triangular map (Avril et al.)
ls_utm = 4
# the lambda(omega) family
set style line 5  lc rgb '#ff7f0e' pt 7  dt 1   # lambda-sqrt (lambda X)
ls_lambda_sqrt = 5
set style line 6  lc rgb '#d62728' pt 5  dt 1   # lambda-newton (lambda N)
ls_lambda_newton = 6
set style line 7  lc rgb '#8c564b' pt 9  dt 1   # lambda-rsqrt (lambda R)
ls_lambda_rsqrt = 7
set style line 8  lc rgb '#e377c2' pt 11 dt 1   # lambda-exact (ours), lambda in fractals
ls_lambda_exact = 8
ls_lambda = 8
set style line 9  lc rgb '#bcbd22' pt 13 dt 1   # lambda-cubic (3D, as published)
ls_lambda_cubic = 9
# recursive maps
set style line 10 lc rgb '#17becf' pt 12 dt 1   # recursive (2D O(1)), recursive-o1 (3D)
ls_recursive = 10
ls_recursive_o1 = 10
set style line 11 lc rgb '#7f7f7f' pt 14 dt 1   # recursive-log (3D, one launch per sub-cube)
ls_recursive_log = 11
set style line 55 lc rgb '#0b6e4f' pt 6  dt 1   # recursive-o1-below (3D, ours: any nb from below)
ls_recursive_o1_below = 55
set style line 12 lc rgb '#ff1493' pt 15 dt 2   # coarsened / tuned variants of ours
ls_coarse = 12
# simplex2d variants: the paper's 2D grids of our maps (same colour, dashed), UTM as published,
# recursive "from above", lambda without the diagonal (eq. 5)
set style line 50 lc rgb '#e377c2' pt 10 dt 2   # lambda-exact-2d
ls_lambda_exact_2d = 50
set style line 51 lc rgb '#17becf' pt 13 dt 2   # recursive-2d
ls_recursive_2d = 51
set style line 52 lc rgb '#d62728' pt 3  dt 3   # utm-published (no integer correction)
ls_utm_published = 52
set style line 53 lc rgb '#006400' pt 4  dt 1   # recursive-above
ls_recursive_above = 53
set style line 54 lc rgb '#8b008b' pt 8  dt 1   # lambda-strict (eq. 5)
ls_lambda_strict = 54
# tensor-core variants
set style line 13 lc rgb '#1f77b4' pt 5  dt 1   # tc-v1
ls_tc_v1 = 13
set style line 14 lc rgb '#d62728' pt 7  dt 1   # tc-v2
ls_tc_v2 = 14
set style line 15 lc rgb '#2ca02c' pt 9  dt 1   # tc-v3
ls_tc_v3 = 15
set style line 16 lc rgb '#9467bd' pt 11 dt 2   # tc variant of ours
ls_tc_ours = 16
# CPU / GPU implementations
set style line 17 lc rgb '#1f77b4' pt 4  dt 1   # cpu (tuned, OpenMP)
ls_cpu = 17
set style line 18 lc rgb '#7f7f7f' pt 1  dt 3   # cpu reference / scalar
ls_cpu_ref = 18
set style line 19 lc rgb '#ff7f0e' pt 6  dt 1   # gpu as in the paper/thesis
ls_gpu = 19
ls_gpu_thesis = 19
set style line 20 lc rgb '#d62728' pt 7  dt 1   # gpu fused / ours
ls_gpu_fused = 20
# hashing and its baselines
set style line 21 lc rgb '#2ca02c' pt 5  dt 1   # hash on the CPU
ls_hash_cpu = 21
set style line 22 lc rgb '#d62728' pt 7  dt 1   # hash on the GPU
ls_hash_gpu = 22
set style line 23 lc rgb '#000000' pt 4  dt 1   # qsort
ls_qsort = 23
set style line 24 lc rgb '#9467bd' pt 8  dt 1   # k-D tree
ls_kdtree = 24
set style line 25 lc rgb '#ff7f0e' pt 9  dt 1   # radix sort (CUB)
ls_radix = 25
set style line 26 lc rgb '#7f7f7f' pt 1  dt 3   # brute force
ls_brute = 26
set style line 27 lc rgb '#8c564b' pt 10 dt 1   # linear search
ls_linear = 27
set style line 28 lc rgb '#17becf' pt 12 dt 1   # bisection
ls_bisection = 28
set style line 29 lc rgb '#e377c2' pt 13 dt 2   # sort-based (remap, Listing 4)
ls_sortbased = 29
# hashing: the strongest baselines and the compact hash (hashmesh, beyond the paper); all-core
# variants keep their method's colour and point, dashed
set style line 33 lc rgb '#bcbd22' pt 3  dt 1   # introsort (std::sort-class)
ls_introsort = 33
set style line 34 lc rgb '#1f77b4' pt 8  dt 1   # LSD radix on the bucket index (CPU)
ls_radix32_cpu = 34
set style line 35 lc rgb '#1f77b4' pt 8  dt 2   # the same, all cores
ls_radix32_cpu_omp = 35
set style line 36 lc rgb '#2ca02c' pt 5  dt 2   # hash on all CPU cores
ls_hash_cpu_omp = 36
set style line 37 lc rgb '#8c564b' pt 11 dt 1   # CUB radix on the 32-bit bucket index (GPU)
ls_radix32_gpu = 37
set style line 38 lc rgb '#d62728' pt 6  dt 2   # GPU hash with host<->device transfers
ls_hash_gpu_job = 38
set style line 39 lc rgb '#9467bd' pt 8  dt 2   # k-D tree, all cores
ls_kdtree_omp = 39
set style line 41 lc rgb '#17becf' pt 13 dt 1   # compact hash (CPU)
ls_compact_cpu = 41
set style line 42 lc rgb '#e377c2' pt 15 dt 1   # compact hash (GPU)
ls_compact_gpu = 42
set style line 43 lc rgb '#6a3d9a' pt 9  dt 1   # partitioned hash sort (GPU), automatic plan
ls_hash_part_gpu = 43
set style line 44 lc rgb '#6a3d9a' pt 8  dt 2   # the same, direct scheme at every n (its first version)
ls_hash_part_direct_gpu = 44
set style line 45 lc rgb '#6a3d9a' pt 5  dt 2   # partitioned hash sort on all CPU cores
ls_hash_part_cpu_omp = 45
# bandwidth tests
set style line 30 lc rgb '#000000' pt 7  dt 1   # memcpy
ls_memcpy = 30
set style line 31 lc rgb '#1f77b4' pt 5  dt 1   # copy kernel
ls_copy = 31
set style line 32 lc rgb '#d62728' pt 9  dt 1   # write kernel
ls_write = 32
# reference lines (bounds, paper numbers)
set style line 40 lc rgb '#555555' lw 1 dt 2 pt 0
ls_bound = 40

# ---- distributed runs (neighbors-mpi, lambda-mpi): one style per rank count, one per phase ----
set style line 60 lc rgb '#1f77b4' pt 7  dt 1   # 1 rank (GPU)
ls_ranks1 = 60
set style line 61 lc rgb '#d62728' pt 5  dt 1   # 2 ranks (GPUs)
ls_ranks2 = 61
set style line 62 lc rgb '#2ca02c' pt 9  dt 1   # 4 ranks
ls_ranks4 = 62
set style line 63 lc rgb '#ff7f0e' pt 11 dt 1   # phase: ghost exchange
ls_ph_exchange = 63
set style line 64 lc rgb '#9467bd' pt 13 dt 1   # phase: hash build
ls_ph_build = 64
set style line 65 lc rgb '#8c564b' pt 15 dt 1   # phase: query
ls_ph_query = 65
set style line 66 lc rgb '#7f7f7f' pt 4  dt 2   # setup phase: partition
ls_ph_partition = 66
set style line 67 lc rgb '#bcbd22' pt 6  dt 2   # setup phase: pattern
ls_ph_pattern = 67
set style line 68 lc rgb '#7f7f7f' pt 5  dt 1   # setup phase: partition on the GPUs
ls_ph_partition_gpu = 68
set style line 69 lc rgb '#bcbd22' pt 7  dt 1   # setup phase: pattern on the GPUs
ls_ph_pattern_gpu = 69

# ---- the authors' gpumaps beside ours (plots/<dir>_peers.gp): their methods dashed in the colour
# of ours of the same family; empty kernels grey; our bounding boxes with an early exit
set style line 70 lc rgb '#000000' pt 5  dt 2   # gpumaps bbox
ls_gpumaps_bbox = 70
set style line 71 lc rgb '#e377c2' pt 10 dt 2   # gpumaps lambda (fp32)
ls_gpumaps_lambda = 71
set style line 72 lc rgb '#17becf' pt 13 dt 2   # gpumaps hadouken (recursive)
ls_gpumaps_hadouken = 72
set style line 73 lc rgb '#7f7f7f' pt 3  dt 2   # gpumaps zero work (compiled to an empty kernel)
ls_gpumaps_empty = 73
set style line 74 lc rgb '#7f7f7f' pt 2  dt 1   # ours: an empty kernel on a map's grid
ls_empty = 74
set style line 75 lc rgb '#b8860b' pt 8  dt 1   # bb-skip (fractals, ours)
ls_bb_skip = 75
set style line 76 lc rgb '#6b8e23' pt 12 dt 1   # bb-block (fractals, ours)
ls_bb_block = 76
set style line 77 lc rgb '#9400d3' pt 9  dt 1   # lambda-par (fractals, ours)
ls_lambda_par = 77
