# simplex2d/peers_dat.awk -- the raw output of one side-by-side run of the authors' gpumaps and
# simplex2d (results-ref/peers/*.txt) as one data file the README claims checker can read
# (section "Against the authors' code" of simplex2d/README.md).  POSIX awk, host only.
#
#   awk -f simplex2d/peers_dat.awk simplex2d/results-ref/peers/gpumaps_peer2d_h200.txt \
#       > simplex2d/results-ref/peers/gpumaps_peer2d_h200.dat
#
# The raw text holds comment lines ('# gpu:', '# date:', ...), one line per gpumaps timing
#   gpumaps st32|zw32 rho=R N=N method=M ms=T
# (st32: the store kernel, zw32: the zero-work kernel; M = 1 bbox, 2 lambda, 4 hadouken; T:
# ms per launch, the median of 5 processes) and simplex2d's own data rows, each block opened
# by 'ours-columns NAME...' and closed by 'ours # git: REV':
#   ours KERNEL rho=R <the values of the columns named on the ours-columns line>
# (KERNEL: write, dummy, map or empty; map and empty rows get work 'map' and 'empty' and one
# more '# columns:' line saying so, which a file of write and dummy rows does not have)
# Nothing is computed: every value is copied; the columns say which rows compare (work,
# family).  The output keeps the source's '# gpu:' and '# date:' lines and names the source on
# a '# derived:' line (tests/claims/check.sh: a derived file relies on its sources).
# Bad input (a line of neither form, a missing field, no '# gpu:' line, two git revisions
# for our rows): one error line on stderr and exit 2, nothing on stdout.

function die(msg) { printf "error: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 2 }
function kv(s, key,   v) {                       # the value of key=VALUE in word s
    if (index(s, key "=") != 1) die("expected " key "=VALUE, got '" s "'")
    v = substr(s, length(key) + 2)
    if (v == "") die("empty " key "=")
    return v
}
function num(v, what) { if (v !~ /^[0-9]+(\.[0-9]+)?$/) die(what " is '" v "', not a number"); return v }
function row(s) { rows[++nrows] = s }

BEGIN { ncols = 0; ngit = 0 }
/^#/ {
    if ($0 ~ /^# gpu:/) gpu = $0
    else if ($0 ~ /^# date:/) date = $0
    else if (peer == "" && $0 !~ /^# N=/) { peer = $0; sub(/^#[ \t]*/, "", peer) }
    next
}
/^[ \t]*$/ { next }
$1 == "gpumaps" {
    if (NF != 6) die("a gpumaps line has 6 words (gpumaps KERNEL rho= N= method= ms=)")
    k = $2; r = num(kv($3, "rho"), "rho"); n = num(kv($4, "N"), "N"); m = kv($5, "method"); t = num(kv($6, "ms"), "ms")
    if (k == "st32") w = "store"; else if (k == "zw32") w = "zero"; else die("unknown gpumaps kernel '" k "' (st32 or zw32)")
    if (m == "1") { f = "box"; mp = "bbox" } else if (m == "2") { f = "lambda"; mp = "lambda" } \
    else if (m == "4") { f = "recursive"; mp = "hadouken" } else die("unknown gpumaps method '" m "' (1, 2 or 4)")
    row("gpumaps " k " " w " " f " " r " " n " " m " " mp " " t " nan nan nan")
    next
}
$1 == "ours-columns" {
    for (i = 1; i <= ncols; i++) delete at[col[i]] # a later block's columns replace the earlier ones
    ncols = NF - 1
    for (i = 2; i <= NF; i++) col[i - 1] = $i
    for (i = 1; i <= ncols; i++) at[col[i]] = 0
    for (i = 1; i <= ncols; i++) at[col[i]] = i
    split("n rho kernel map median_ms min_ms max_ms blocks_launched", need, " ")
    for (i = 1; i <= 8; i++) if (!at[need[i]]) die("ours-columns lacks the column '" need[i] "'")
    next
}
$1 == "ours" && $2 == "#" && $3 == "git:" {
    if (NF != 4) die("expected 'ours # git: REV'")
    if (ngit && $4 != git) die("our rows come from two revisions (" git ", " $4 ")")
    git = $4; ngit++
    next
}
$1 == "ours" {
    if (!ncols) die("an ours row before any ours-columns line")
    if (NF != ncols + 3) die("an ours row has " NF - 3 " values for " ncols " columns")
    for (i = 1; i <= ncols; i++) v[col[i]] = $(i + 3)
    if (v["kernel"] != $2) die("kernel '" $2 "' and column kernel '" v["kernel"] "' differ")
    if (kv($3, "rho") != v["rho"]) die("rho= and the rho column differ")
    if (v["kernel"] == "write") w = "store"; else if (v["kernel"] == "dummy") w = "zero"
    else if (v["kernel"] == "map") { w = "map"; more = 1 } else if (v["kernel"] == "empty") { w = "empty"; more = 1 }
    else die("unknown kernel of ours '" v["kernel"] "' (write, dummy, map or empty)")
    mp = v["map"]
    f = (mp == "bb") ? "box" : (mp == "lambda-exact") ? "lambda" : (mp == "recursive") ? "recursive" : "none"
    row("ours " v["kernel"] " " w " " f " " num(v["rho"], "rho") " " num(v["n"], "n") " - " mp " " \
        num(v["median_ms"], "median_ms") " " num(v["min_ms"], "min_ms") " " num(v["max_ms"], "max_ms") " " \
        num(v["blocks_launched"], "blocks_launched"))
    next
}
{ die("a line of no known form: '" $0 "'") }
END {
    if (bad) exit 2
    if (gpu == "") { FNR = 0; die("no '# gpu:' line") }
    if (!nrows) { FNR = 0; die("no data rows") }
    src = FILENAME; sub(/^.*results-ref\//, "", src)
    print "# program: simplex2d/peers_dat.awk (one side-by-side run of the authors' gpumaps and simplex2d, copied from its raw output)"
    print "# derived: by simplex2d/peers_dat.awk from the raw output of the run: " src
    print gpu
    if (date != "") print date
    if (peer != "") print "# peer: " peer
    if (git != "") print "# ours: simplex2d rows built at git " git " (the source's 'ours # git:' lines)"
    print "# columns: code: gpumaps or ours; kernel: gpumaps st32 (store) / zw32 (zero work), ours write / dummy"
    print "#   work: store (gpumaps st32, ours write) or zero (gpumaps zw32; ours dummy: the map and a store that never happens)"
    print "#   family: the maps compared side by side: box (gpumaps bbox, ours bb), lambda (gpumaps lambda, fp32; ours"
    print "#   lambda-exact), recursive (gpumaps hadouken, ours recursive); none: ours only"
    if (more) print "#   work map: ours map (the map kept by a never-taken trap, no store); empty: ours empty (an empty kernel on the map's grid)"
    print "#   rho: block side; n: matrix side N; method: gpumaps' method number (- for ours)"
    print "#   median_ms, min_ms, max_ms: ms per launch (gpumaps: the median of 5 processes of 20 launches, no min/max: nan;"
    print "#   ours: over its timed samples); blocks_launched: ours only (nan for gpumaps)"
    print "code kernel work family rho n method map median_ms min_ms max_ms blocks_launched"
    for (i = 1; i <= nrows; i++) print rows[i]
}
