# common/peers_ncu.awk -- the raw Nsight Compute CSVs of one run that timed our kernels and the
# authors' gpumaps kernels with one method (ncu's gpu__time_duration.sum of every profiled
# launch, both sides in separate processes) as one data file the README claims checker reads.
# POSIX awk (mawk, gawk), host only.
#
#   awk -f common/peers_ncu.awk DIR/header.txt DIR/2d-*.csv > DIR/simplex2d_peers_ncu.dat
#
# Inputs (a file whose name ends in .csv is an ncu log, any other the run's header; exactly one):
#   header.txt     the run's own header: 'date: D', 'gpu: NAME, DRIVER, MEMORY', 'ours: git REV ...',
#                  'gpumaps: ... commit HASH', 'ncu: VERSION' (other lines are not read);
#   KEY.pP.csv     one process's log, 'ncu --csv --print-units base --log-file': lines that do not
#                  start with '"' are ncu's messages (not read); one header row '"ID",...' naming
#                  'Process ID', 'Kernel Name', 'Metric Name', 'Metric Unit' and 'Metric Value'; then
#                  one row per profiled launch and metric, in launch order.  KEY is CMP-SIDE[-VARIANT]
#                  (words joined by '-'), SIDE the one word 'ours' or 'gpumaps'; P the process number.
# Per process: its gpu__time_duration.sum rows (other metrics are not read), in launch order.  An
# iteration is K consecutive launches, K being the number of different kernel names in the file,
# which must come back in the same order (gpumaps' 3D hadouken: kernelHadouken, then
# kernelHadoukenStrip); its time is their sum.  The first iteration of every process is dropped
# (it pays for the module load); the rest are kept.  Output rows, per KEY in the order first met:
# one per process (its kept iterations), then 'all' (every kept iteration of all its processes):
#   cmp side variant process launches kernels median_ms min_ms max_ms
# median: the middle value, or the mean of the two middle values of an even count.  Nothing else is
# computed: margins are ratios of these rows (the claims checker forms them).
# Bad input (no header file or two, a header without 'gpu:' or 'ours: git REV', a file name not of
# the form above, the same KEY and P twice, no CSV header (ncu profiled no kernel), a row with a
# missing field, two process IDs in one file, an unknown unit or a value that is not a number,
# kernel names that do not repeat in order, fewer than two iterations): one error line on
# stderr, exit 2, nothing on stdout.

function die(msg) { diel(FILENAME, FNR, msg) }
function diel(file, line, msg) { printf "error: %s:%d: %s\n", file, line, msg > "/dev/stderr"; bad = 1; exit 2 }
function base(p) { sub(/^.*\//, "", p); return p }
function unq(s) { sub(/^"/, "", s); sub(/"\r?$/, "", s); return s }
# a value in ns: ncu's base units are ns for a duration; '1,262,208' or '812.5'
function ns(v, u) {
    if (v !~ /^[0-9]+(,[0-9][0-9][0-9])*(\.[0-9]+)?$/) die("metric value '" v "' is not a number")
    gsub(/,/, "", v)
    if (u == "ns" || u == "nsecond") return v + 0
    if (u == "us" || u == "usecond") return v * 1e3
    if (u == "ms" || u == "msecond") return v * 1e6
    if (u == "s" || u == "second") return v * 1e9
    die("unknown unit '" u "'")
}
function sortn(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
function median(a, n) { sortn(a, n); return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function ms(x) { return sprintf("%.7f", x / 1e6) }

# the end of one CSV: its iterations into the key's pool
function close_csv(   K, it, i, j, s, m, v) {
    if (cur == "") return
    if (!hdr) diel(curfile, 0, "no ncu CSV header (ncu profiled no kernel)")
    if (!n) diel(curfile, 0, "no gpu__time_duration.sum row")
    K = nnames
    if (n % K) diel(curfile, 0, n " launches of " K " kernels: not whole iterations")
    for (i = K + 1; i <= n; i++)
        if (kn[i] != kn[i - K]) diel(curfile, lno[i], "launch " i " runs '" kn[i] "', launch " i - K " ran '" kn[i - K] "': the " K " kernels do not repeat in order")
    it = n / K
    if (it < 2) diel(curfile, 0, "one iteration: nothing is left after the first is dropped")
    if ((cur, "K") in kk && kk[cur, "K"] != K) diel(curfile, 0, K " kernels per iteration, another process of " cur " ran " kk[cur, "K"])
    kk[cur, "K"] = K
    m = 0
    for (i = 2; i <= it; i++) {
        s = 0; for (j = 1; j <= K; j++) s += t[(i - 1) * K + j]
        v[++m] = s
        npool[cur]++; pool[cur, npool[cur]] = s
    }
    np = ++nproc[cur]; pnum[cur, np] = curp; plaunch[cur, np] = m
    pmed[cur, np] = median(v, m); pmin[cur, np] = v[1]; pmax[cur, np] = v[m]
    cur = ""
}

FNR == 1 {
    close_csv()
    f = base(FILENAME)
    if (f !~ /\.csv$/) {
        if (hdrfile != "") die("two header files (" hdrfile ", " f ")")
        hdrfile = f; hdrpath = FILENAME; inhdr = 1
    } else {
        inhdr = 0
        if (f !~ /^[A-Za-z0-9][A-Za-z0-9_-]*\.p[0-9]+\.csv$/) die("file name '" f "' is not KEY.pP.csv")
        key = f; sub(/\.p[0-9]+\.csv$/, "", key)
        curp = f; sub(/^.*\.p/, "", curp); sub(/\.csv$/, "", curp); curp += 0
        nw = split(key, w, "-"); at = 0
        for (i = 1; i <= nw; i++) if (w[i] == "ours" || w[i] == "gpumaps") { if (at) die("file name '" f "' names two sides"); at = i }
        if (at < 2) die("file name '" f "' is not CMP-ours|gpumaps[-VARIANT].pP.csv")
        c = w[1]; for (i = 2; i < at; i++) c = c "-" w[i]
        vr = "-"; if (at < nw) { vr = w[at + 1]; for (i = at + 2; i <= nw; i++) vr = vr "-" w[i] }
        if ((key, curp) in seen) die("process " curp " of " key " given twice")
        seen[key, curp] = 1
        if (!(key in nproc)) { keys[++nkeys] = key; nproc[key] = 0; npool[key] = 0; kcmp[key] = c; kside[key] = w[at]; kvar[key] = vr }
        csvs = csvs " " f
        cur = key; curfile = FILENAME; hdr = 0; n = 0; nnames = 0; pid = ""
        for (i in nameid) delete nameid[i]
    }
}
inhdr {
    if ($0 ~ /^gpu: /) { gpu = substr($0, 6) }
    else if ($0 ~ /^date: /) { date = substr($0, 7) }
    else if ($0 ~ /^ncu: /) { ncu = substr($0, 6) }
    else if ($0 ~ /^gpumaps: /) { gpumaps = substr($0, 10) }
    else if ($0 ~ /^ours: git /) {
        split($0, w, " "); git = w[3]
        if (git !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+$/) die("'ours: git " git "' is not a revision")
    }
    next
}
substr($0, 1, 1) != "\"" { next }
{
    nf = split(unq($0), fld, /","/)
    if (fld[1] == "ID") {
        if (hdr) die("a second CSV header")
        hdr = 1; ncol = nf; cpid = ckn = cmn = cmu = cmv = 0
        for (i = 1; i <= nf; i++) {
            if (fld[i] == "Process ID") cpid = i; else if (fld[i] == "Kernel Name") ckn = i
            else if (fld[i] == "Metric Name") cmn = i; else if (fld[i] == "Metric Unit") cmu = i
            else if (fld[i] == "Metric Value") cmv = i
        }
        if (!cpid || !ckn || !cmn || !cmu || !cmv) die("the CSV header lacks Process ID, Kernel Name, Metric Name, Metric Unit or Metric Value")
        next
    }
    if (!hdr) die("a CSV row before the CSV header")
    if (nf != ncol) die(nf " fields, the header has " ncol)
    if (fld[cmn] != "gpu__time_duration.sum") next
    if (pid == "") pid = fld[cpid]
    else if (fld[cpid] != pid) die("process " fld[cpid] " in a file of process " pid)
    n++; t[n] = ns(fld[cmv], fld[cmu]); kn[n] = fld[ckn]; lno[n] = FNR
    if (!(fld[ckn] in nameid)) nameid[fld[ckn]] = ++nnames
}
END {
    if (bad) exit 2
    close_csv()
    if (bad) exit 2
    if (hdrfile == "") diel("(arguments)", 0, "no header file (header.txt) among the inputs")
    if (gpu == "") diel(hdrpath, 0, "the header has no 'gpu:' line")
    if (git == "") diel(hdrpath, 0, "the header has no 'ours: git REV' line")
    if (!nkeys) diel("(arguments)", 0, "no .csv file among the inputs")
    print "# program: common/peers_ncu.awk (Nsight Compute kernel times of ours and the authors' gpumaps, one method for both sides)"
    print "# derived: by common/peers_ncu.awk from the run's header and raw ncu CSVs, in this folder: " hdrfile csvs
    print "# git: " git
    if (date != "") print "# date: " date
    print "# gpu: " gpu
    if (gpumaps != "") print "# gpumaps: " gpumaps
    if (ncu != "") print "# ncu: " ncu
    print "# timing: ncu gpu__time_duration.sum of every profiled launch, both sides (--clock-control none; ncu's default"
    print "#   cache control: every cache flushed before each profiled launch, so every launch starts cold); an iteration"
    print "#   is 'kernels' consecutive launches, summed; each process's first iteration dropped"
    print "# columns: cmp: the comparison (the CSV name's words before the side); side: ours or gpumaps; variant: the"
    print "#   words after the side (- if none); process: the CSV's process number, all: every process of the key;"
    print "#   launches: kept iterations; kernels: launches per iteration; median_ms, min_ms, max_ms: over the kept"
    print "#   iterations (median of an even count: the mean of the middle two), ms"
    print "cmp side variant process launches kernels median_ms min_ms max_ms"
    for (q = 1; q <= nkeys; q++) {
        k = keys[q]; np = nproc[k]
        for (i = 2; i <= np; i++)              # processes in number order
            for (j = i; j > 1 && pnum[k, j - 1] > pnum[k, j]; j--) {
                x = pnum[k, j]; pnum[k, j] = pnum[k, j - 1]; pnum[k, j - 1] = x
                x = plaunch[k, j]; plaunch[k, j] = plaunch[k, j - 1]; plaunch[k, j - 1] = x
                x = pmed[k, j]; pmed[k, j] = pmed[k, j - 1]; pmed[k, j - 1] = x
                x = pmin[k, j]; pmin[k, j] = pmin[k, j - 1]; pmin[k, j - 1] = x
                x = pmax[k, j]; pmax[k, j] = pmax[k, j - 1]; pmax[k, j - 1] = x
            }
        for (i = 1; i <= np; i++)
            print kcmp[k], kside[k], kvar[k], pnum[k, i], plaunch[k, i], kk[k, "K"], ms(pmed[k, i]), ms(pmin[k, i]), ms(pmax[k, i])
        m = npool[k]; for (i = 1; i <= m; i++) a[i] = pool[k, i]
        med = median(a, m)
        print kcmp[k], kside[k], kvar[k], "all", m, kk[k, "K"], ms(med), ms(a[1]), ms(a[m])
    }
}
