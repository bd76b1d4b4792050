# sparsegrid/sparse_best.awk -- the best row per d and kernel family of `sparsegrid --exp=sparse`
# data files (sparsegrid_figx4_sparse_<precision>.dat, one or several d each), for the figure
# plots/sparsegrid_figx8_pipe.gp.  POSIX awk, host only; nothing is computed but maxima.
#
#   awk -f sparsegrid/sparse_best.awk sparsegrid/results-ref/h200-pipe/float/d*/sparsegrid_figx4_sparse_float.dat
#
# Families by row name (column impl): multi = gpu_sparse_multi_*, stream = gpu_sparse_stream_*,
# pipe = gpu_sparse_pipe_*, fam = gpu_sparse_fam_*, cpu = cpu_tuned / cpu_shift.  Per d and family: the row of the largest
# batch (bytes_moved) with the highest forward pct_ceiling (GPU rows: of the copy kernel; CPU
# rows: of the host's triad), and the pct_ceiling of the same implementation and block size's
# _inverse row.  Output: a header line of the column names, then one line per d and family, d
# ascending:
#     d family pct_forward pct_inverse impl threads
# A file without the columns d, impl, threads, bytes_moved and pct_ceiling: one error line, exit 2.
function die(m) { printf "error: %s: %s\n", FILENAME, m > "/dev/stderr"; bad = 1; exit 2 }
FNR == 1 { h = 0 }
/^#/ { next }
!h {
    delete c
    for (k = 1; k <= NF; k++) c[$k] = k
    if (!("d" in c) || !("impl" in c) || !("threads" in c) || !("bytes_moved" in c) || !("pct_ceiling" in c))
        die("not a --exp=sparse data file (columns d impl threads bytes_moved pct_ceiling)")
    h = 1
    next
}
{
    d = $c["d"]; name = $c["impl"]; inv = sub(/_inverse$/, "", name)
    if (name ~ /^gpu_sparse_multi_/) fam = "multi"
    else if (name ~ /^gpu_sparse_stream_/) fam = "stream"
    else if (name ~ /^gpu_sparse_pipe_/) fam = "pipe"
    else if (name ~ /^gpu_sparse_fam_/) fam = "fam"
    else if (name ~ /^cpu_(tuned|shift)$/) fam = "cpu"
    else next
    b = $c["bytes_moved"] + 0
    if (!(d in big) || b > big[d]) big[d] = b
    n++; rd[n] = d; rf[n] = fam; rn[n] = name; rt[n] = $c["threads"]; ri[n] = inv; rb[n] = b; rp[n] = $c["pct_ceiling"] + 0
}
END {
    if (bad) exit 2
    for (i = 1; i <= n; i++) {
        if (rb[i] != big[rd[i]]) continue
        k = rd[i] SUBSEP rf[i]
        if (ri[i]) { inv_of[rd[i], rn[i], rt[i]] = rp[i]; continue }
        if (!(k in best) || rp[i] > best[k]) { best[k] = rp[i]; bn[k] = rn[i]; bt[k] = rt[i] }
    }
    split("multi stream pipe fam cpu", fams, " ")
    print "d family pct_forward pct_inverse impl threads"
    for (d = 1; d <= 12; d++)
        for (j = 1; j <= 5; j++) {
            k = d SUBSEP fams[j]
            if (!(k in best)) continue
            v = ((d, bn[k], bt[k]) in inv_of) ? inv_of[d, bn[k], bt[k]] : "nan"
            printf "%d %s %.1f %s %s %s\n", d, fams[j], best[k], v, bn[k], bt[k]
        }
}
