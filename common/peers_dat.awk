# common/peers_dat.awk -- the raw output of one side-by-side run of the authors' gpumaps and one of
# our programs (a <dir>/results-ref/peers/*.txt of simplex3d, fractals or simplex2d) as one data
# file the README claims checker and the plots can read.  POSIX awk, host only.
#
#   awk -f common/peers_dat.awk simplex3d/results-ref/peers/gpumaps_peer3d_h200.txt \
#       > simplex3d/results-ref/peers/gpumaps_peer3d_h200.dat
#
# (simplex2d/peers_dat.awk reads the older format of simplex2d's first run.)  The raw text holds
#   '# ...'                 comment lines: '# gpu:', '# date:', the title (whose 'N = 1024' or
#                           'n = 65536' is the size of the gpumaps rows) and the commands;
#   gpumaps W... rho=R M...: ms=T min=A max=B n=P values=... cmd: ...
#                           one gpumaps timing: test W (words joined by '-': regular-store, ijk-write,
#                           char, store), map M ('tensor-core method=3' -> tensor-core-method-3),
#                           T the median ms per launch of P processes, A and B the smallest and
#                           largest of them;
#   gpumaps W... rho=R M...: skipped (...) cmd: ...       a gpumaps run left out (status skipped);
#   check gpumaps W M (...) ... rho=R N=N: RESULT         gpumaps' own check of a map: 'FAILED',
#                           'passed' or '... successful'; 'inside=I outside=O' wrong cells if given;
#   ours TEST rho=R [eval=E] REST                         one block of our program's output (TEST:
#                           its kernel or test), REST being 'cmd: ...', '# git: REV', '# ...' (its
#                           metadata), 'columns: NAME...' (the columns of the rows that follow) or
#                           one data row of those columns;
#   ours TEST rho=R [eval=E]: skipped (...) cmd: ...      a run of ours left out (a note, no row);
# Our rows come from blocks whose columns hold map, n, median_ms, min_ms and max_ms (and kernel
# and rho, which must agree with TEST and R where present).  A block without min_ms (fractals'
# best-rho summary) repeats medians of the full rows: each of its rows must equal the full row of
# the same TEST, R and map, and adds no row.  Nothing is computed: every value is copied.
# Bad input (a line of no known form, a missing field, no '# gpu:' line, no size for the gpumaps
# rows, our rows from two revisions, a summary row no full row confirms): one error line on
# stderr and exit 2, nothing on stdout.

function die(msg) { printf "error: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 2 }
function num(v, what) {
    if (v !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) die(what " is '" v "', not a number")
    return v
}
function kv(s, key,   v) {                       # the value of key=VALUE in word s
    if (index(s, key "=") != 1) die("expected " key "=VALUE, got '" s "'")
    v = substr(s, length(key) + 2)
    if (v == "") die("empty " key "=")
    return v
}
function word_of(s) { gsub(/=/, "-", s); return s }
function row(code, test, ev, map, rho, n, st, med, lo, hi, np, wrong) {
    rows[++nrows] = code " " test " " ev " " map " " rho " " n " " st " " med " " lo " " hi " " np " " wrong
}
# the gpumaps rows' size: the title's 'N = 1024' / 'n = 65536'
function title_size(s) {
    if (match(s, /[Nn] = [0-9]+/)) return substr(s, RSTART + 4, RLENGTH - 4)
    return ""
}

BEGIN { ngit = 0; nrows = 0; nsum = 0; nnote = 0 }
/^#/ {
    if ($0 ~ /^# gpu:/) gpu = $0
    else if ($0 ~ /^# date:/) date = $0
    else {
        if (nraw == 0 && size == "") size = title_size($0)
        raw[++nraw] = $0
    }
    next
}
/^[ \t]*$/ { next }
$1 == "gpumaps" {
    for (i = 3; i <= NF && $i !~ /^rho=/; i++) ;
    if (i > NF || $2 ~ /^rho=/) die("a gpumaps line is 'gpumaps TEST... rho=R MAP...: RESULT cmd: ...'")
    test = $2; for (k = 3; k < i; k++) test = test "-" $k
    r = num(kv($i, "rho"), "rho")
    for (j = i + 1; j <= NF && $j !~ /:$/; j++) ;
    if (j > NF) die("no 'MAP:' after rho= on a gpumaps line")
    m = $(i + 1); for (k = i + 2; k <= j; k++) m = m "-" $k
    sub(/:$/, "", m); m = word_of(m)
    if (size == "") die("no size for the gpumaps rows (the first comment line names no 'N = ...')")
    if ($(j + 1) == "skipped") { row("gpumaps", test, "-", m, r, size, "skipped", "nan", "nan", "nan", "nan", "nan"); next }
    if (j + 5 > NF) die("a gpumaps timing has ms= min= max= n= after '" m ":'")
    t = num(kv($(j + 1), "ms"), "ms"); lo = num(kv($(j + 2), "min"), "min")
    hi = num(kv($(j + 3), "max"), "max"); np = num(kv($(j + 4), "n"), "n")
    row("gpumaps", test, "-", m, r, size, "ok", t, lo, hi, np, "nan")
    next
}
$1 == "check" && $2 == "gpumaps" {
    if (NF < 6) die("a check line is 'check gpumaps TEST MAP (...) ... rho=R N=N: RESULT'")
    test = "check-" $3; m = ""
    for (i = 4; i <= NF && $i !~ /^\(/ && $i !~ /^rho=/; i++) m = (m == "" ? "" : m "-") $i
    if (m == "") die("no map named on a check line")
    r = ""; n = ""
    for (i = 4; i <= NF; i++) {
        if ($i ~ /^rho=/ && r == "") r = num(kv($i, "rho"), "rho")
        if ($i ~ /^N=[0-9]+:$/ && n == "") { n = $i; sub(/^N=/, "", n); sub(/:$/, "", n); at = i }
    }
    if (r == "" || n == "") die("a check line names rho=R and N=N:")
    res = $(at + 1)
    if (res ~ /^FAILED/) st = "failed"
    else if (res ~ /^passed/ || $0 ~ /: verification successful\.?$/) st = "passed"
    else die("a check line's result is FAILED, passed or 'verification successful', not '" res "'")
    wrong = "nan"
    if (match($0, /inside=[0-9]+ outside=[0-9]+/)) {
        split(substr($0, RSTART, RLENGTH), w, /[= ]/)
        wrong = w[2] + w[4]
    }
    row("gpumaps", test, "-", m, r, n, st, "nan", "nan", "nan", "nan", wrong)
    next
}
$1 == "ours" {
    if (NF < 4) die("an ours line is 'ours TEST rho=R [eval=E] REST'")
    rr = $3; sub(/:$/, "", rr)
    test = $2; r = num(kv(rr, "rho"), "rho"); first = 4; ev = "-"
    if ($4 ~ /^eval=/) { ev = kv($4, "eval"); sub(/:$/, "", ev); first = 5 }
    tag = test " " r " " ev
    if (first > NF) die("an ours line with nothing after its tag")
    if ($first == "skipped") { # a run the script's time guard left out: a note, no row
        notes[++nnote] = "ours " test " rho=" r (ev == "-" ? "" : " eval=" ev) ": skipped"
        next
    }
    if ($first == "cmd:") next
    if ($first == "#" && $(first + 1) == "git:") {
        if (first + 2 != NF) die("expected 'ours ... # git: REV'")
        g = $NF
        if (ngit && g != git) die("our rows come from two revisions (" git ", " g ")")
        git = g; ngit++
        next
    }
    if ($first == "#") {
        s = $0; sub(/^ours [^#]*# */, "", s)
        notes[++nnote] = "ours " test " rho=" r (ev == "-" ? "" : " eval=" ev) ": " s
        next
    }
    if ($first == "columns:") {
        if (tag in nc) for (i = 1; i <= nc[tag]; i++) delete at_[tag, col[tag, i]]
        nc[tag] = NF - first
        for (i = first + 1; i <= NF; i++) col[tag, i - first] = $i
        for (i = 1; i <= nc[tag]; i++) at_[tag, col[tag, i]] = i
        if (!((tag, "map") in at_) || !((tag, "median_ms") in at_)) die("our columns lack map or median_ms")
        full[tag] = ((tag, "min_ms") in at_) && ((tag, "max_ms") in at_) && ((tag, "n") in at_)
        next
    }
    if (!(tag in nc)) die("an ours row before its block's columns: line")
    if (NF - first + 1 != nc[tag]) die("an ours row has " NF - first + 1 " values for " nc[tag] " columns")
    for (i = 1; i <= nc[tag]; i++) v[col[tag, i]] = $(first + i - 1)
    if (((tag, "kernel") in at_) && v["kernel"] != test) die("kernel '" v["kernel"] "' and the block's test '" test "' differ")
    if (((tag, "rho") in at_) && v["rho"] != r) die("the rho column (" v["rho"] ") and rho=" r " differ")
    med = num(v["median_ms"], "median_ms")
    if (!full[tag]) { nsum++; sum_key[nsum] = tag " " v["map"]; sum_med[nsum] = med; sum_line[nsum] = FNR; next }
    if ((tag " " v["map"]) in have) die("two full rows for " test " rho=" r " map " v["map"])
    have[tag " " v["map"]] = med
    row("ours", test, ev, v["map"], r, num(v["n"], "n"), "ok", med, num(v["min_ms"], "min_ms"), num(v["max_ms"], "max_ms"), 1, "nan")
    next
}
{ die("a line of no known form: '" $0 "'") }
END {
    if (bad) exit 2
    FNR = 0
    if (gpu == "") die("no '# gpu:' line")
    if (!nrows) die("no data rows")
    for (i = 1; i <= nsum; i++) {
        FNR = sum_line[i]
        if (!(sum_key[i] in have)) die("a summary row (" sum_key[i] ") with no full row")
        if (have[sum_key[i]] + 0 != sum_med[i] + 0) die("a summary row (" sum_key[i] ") repeats " sum_med[i] ", its full row holds " have[sum_key[i]])
    }
    src = FILENAME; sub(/^.*results-ref\//, "", src)
    print "# program: common/peers_dat.awk (one side-by-side run of the authors' gpumaps and ours, copied from its raw output)"
    print "# derived: by common/peers_dat.awk from the raw output of the run: " src
    print gpu
    if (date != "") print date
    for (i = 1; i <= nraw; i++) { s = raw[i]; sub(/^#[ \t]*/, "", s); print "# raw: " s }
    if (git != "") print "# ours: rows built at git " git " (the source's 'ours ... # git:' lines)"
    for (i = 1; i <= nnote; i++) print "# note: " notes[i]
    print "# columns: code: gpumaps or ours; test: gpumaps' test binary and kernel (check-*: gpumaps' own check of a"
    print "#   map), ours the experiment (write, dummy, map, empty, sw); eval: ours' --eval (- if none); map: the method;"
    print "#   rho: block side; n: the domain side (gpumaps rows: the run's N); status: ok (timed), skipped (not run),"
    print "#   passed / failed (a check); median_ms, min_ms, max_ms: ms per launch (gpumaps: the median, smallest and"
    print "#   largest of the processes' averages; ours: over its timed samples); processes: gpumaps processes run"
    print "#   (ours: 1); wrong_cells: cells a failed check reported (nan: none given)"
    print "code test eval map rho n status median_ms min_ms max_ms processes wrong_cells"
    for (i = 1; i <= nrows; i++) print rows[i]
}
