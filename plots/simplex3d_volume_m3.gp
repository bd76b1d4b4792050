# plots/simplex3d_volume_m3.gp -- parallel volume / tetrahedron volume vs n for each strategy,
# m = 3 (Navarro et al. arXiv:1610.07394 eq. 4, 17-19, 21-24; volumes in blocks, no GPU).
# inputs: simplex3d_volume_m3.dat
# x: n (blocks per side, log2); y: V(parallel space) / V(Delta^3) (log): bounding box -> 6
# (eq. 4), beta = 3 set -> 1.2 (eq. 19), alternative set = V(Delta^3_{n-1}) exactly (eq. 22),
# its container 3n^2(n-1)/16 -> 1.125 (eq. 24); ours = the grids simplex3d launches.
if (!exists("datadir")) datadir = 'simplex3d/results'
if (!exists("styledir")) styledir = 'plots'
if (!exists("term")) term = 'pdf'
if (!exists("outfile")) outfile = 'plots/out/simplex3d_volume_m3.'.term
load styledir.'/style.gp'
f = datadir.'/simplex3d_volume_m3.dat'
set title '[REC] eq. 2-4, 16-24: parallel volume / tetrahedron volume, m = 3 (closed forms = enumeration)'
set xlabel 'n (blocks per side)'
set ylabel 'V(parallel space) / V(tetrahedron)'
set logscale x 2
set logscale y
set yrange [0.2:8]
set ytics ('0.25' 0.25, '0.5' 0.5, '1' 1, '1.2' 1.2, '2' 2, '4' 4, '6' 6)
set mytics 1
# the curves converge to 1 ... 1.2 from n = 16 on: the key goes below the plot, over no data
set bmargin 9   # a band below the x label, reserved for the key (4 rows)
set key at screen 0.5, screen 0.02 center bottom maxrows 4 noopaque
plot f using "n":(1 + column("bb_extra")) with linespoints ls ls_bb title 'bounding box / V(Delta_n) (eq. 4)', \
     f using "n":(1 + column("rec3_extra")) with linespoints ls ls_rec title 'beta = 3 set / V(Delta_n) (eq. 18)', \
     f using "n":(1 + column("rlog_ours_extra")) with linespoints ls ls_recursive_log title 'recursive-log grid (ours, + 3^k leaves)', \
     f using "n":(1 + column("alt_extra")) with linespoints ls ls_lambda_exact title 'alternative set / V(Delta_{n-1}) (eq. 22)', \
     f using "n":(1 + column("container_extra")) with linespoints ls ls_utm title 'container 3n^2(n-1)/16 / V(Delta_{n-1}) (eq. 24)', \
     f using "n":(1 + column("ro1_ours_extra")) with linespoints ls ls_recursive_o1 title 'recursive-o1 grid (ours) / V(Delta_n)', \
     6 with lines ls ls_bound title '6, 1.2, 1.125', 1.2 with lines ls ls_bound notitle, 1.125 with lines ls ls_bound notitle
