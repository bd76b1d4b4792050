#!/usr/bin/env bash
# plots/report.sh -- the results page: plots/out/index.html, one static page (no JavaScript,
# nothing fetched from a network) with every figure, the paper item it reproduces, the
# paper's number and ours, the command that remakes it and its data files.
#
#   plots/report.sh            (make report: renders the PNGs first, from results-ref/ by default)
#
# It reads the figure table of every directory README, between `<!-- figures -->` and
# `<!-- end figures -->` (format: common/README.md, "The figure table"):
#   | paper item | what it shows | command | data | plot | paper | ours |
# data: `file` code spans under <dir>/results-ref/ (`{a,b}` lists allowed); plot: `name.gp`
# code spans under plots/ (or a dash for a table-only item), whose PNG plots/out/name.png
# must exist.  Environment: DATA ('' or ref: results-ref/; quick: results-quick/; results:
# results/) names the data the page links to.
# Fails (exit 1, one line per problem, no page written) when a README lacks its figure table,
# a row is malformed, a data file, script or image is missing, or a plots/<dir>_*.gp script
# is on no README's figure table.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
case "${DATA:-ref}" in
  ref|"") sub=results-ref;; quick) sub=results-quick;; results) sub=results;;
  *) echo "error: DATA=${DATA}: use DATA=ref (default), DATA=quick or DATA=results" >&2; exit 2;;
esac
out=plots/out/index.html
mkdir -p plots/out
readmes=$(for f in */README.md; do d=${f%/README.md}; [ -f "$d/Makefile" ] && [ "$d" != tests ] && echo "$f"; done)
scripts=$(ls plots/*_*.gp 2>/dev/null | sed 's|^plots/||')
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)

awk -v sub_="$sub" -v scripts="$scripts" -v rev="$rev" -v outfile="$out.tmp" '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function exists(p,   line, rc) { rc = (getline line < p); close(p); return rc >= 0 }
function bad(msg) { print "report: " FILENAME ":" FNR ": " msg > "/dev/stderr"; nbad++ }
# markdown of one cell -> HTML: comments dropped, code spans, bold, links (relative to the
# README directory, rewritten relative to plots/out/)
function md(s, dir,   o, t, txt, url) {
    gsub(/<!--[^>]*-->/, "", s); s = trim(s); o = ""
    while (match(s, /`[^`]*`|\*\*[^*]+\*\*|\[[^]]*\]\([^)]*\)/)) {
        o = o esc(substr(s, 1, RSTART - 1)); t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        if (t ~ /^`/) o = o "<code>" esc(substr(t, 2, length(t) - 2)) "</code>"
        else if (t ~ /^\*\*/) o = o "<b>" esc(substr(t, 3, length(t) - 4)) "</b>"
        else {
            txt = t; sub(/\]\(.*$/, "", txt); sub(/^\[/, "", txt)
            url = t; sub(/^.*\]\(/, "", url); sub(/\)$/, "", url)
            if (url !~ /^(https?:|#|\/)/) url = "../../" dir "/" url
            o = o "<a href=\"" esc(url) "\">" esc(txt) "</a>"
        }
    }
    return o esc(s)
}
# the code spans of a cell, expanded ({a,b} lists), into LIST[1..n]
function spans(s,   n, t, k, m, i, parts, q, pre, post, alts, na, j, nq) {
    gsub(/<!--[^>]*-->/, "", s); n = 0
    while (match(s, /`[^`]*`/)) { Q[++nq] = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
    for (i = 1; i <= nq; i++) {
        m = 1; W[1] = Q[i]
        for (k = 1; k <= m; k++) {
            if (match(W[k], /\{[^{}]*\}/)) {
                pre = substr(W[k], 1, RSTART - 1); post = substr(W[k], RSTART + RLENGTH)
                na = split(substr(W[k], RSTART + 1, RLENGTH - 2), alts, ",")
                W[k] = pre alts[1] post
                for (j = 2; j <= na; j++) W[++m] = pre alts[j] post
                k--
            }
        }
        for (k = 1; k <= m; k++) LIST[++n] = W[k]
    }
    return n
}
BEGIN {
    ns = split(scripts, S, "\n"); for (i = 1; i <= ns; i++) if (S[i] != "") SEEN[S[i]] = 0
}
FNR == 1 {
    if (FILENAME != prev_file && prev_file != "" && !has_table) { print "report: " prev_file ": no figure table (<!-- figures --> ... <!-- end figures -->)" > "/dev/stderr"; nbad++ }
    prev_file = FILENAME; has_table = 0; in_t = 0
    dir = FILENAME; sub(/\/README\.md$/, "", dir); D[++nd] = dir
}
FNR == 1 { fence = 0 }
/^[ \t]*(```|~~~)/ { fence = !fence; next }
fence { next }
FNR == 1 && /^# / { t = $0; sub(/^# /, "", t); TITLE[dir] = md(t, dir) }
/^[ \t]*<!--[ \t]*figures[ \t]*-->/ { in_t = 1; has_table = 1; hdr = 0; next }
/^[ \t]*<!--[ \t]*end figures[ \t]*-->/ { in_t = 0; next }
in_t && /^\|/ {
    line = $0; sub(/^\|/, "", line); sub(/\|[ \t]*$/, "", line)
    nc = split(line, C, "|")
    if (!hdr) {
        h = ""; for (i = 1; i <= nc; i++) h = h "|" trim(C[i])
        if (h != "|paper item|what it shows|command|data|plot|paper|ours") bad("the figure table header must be | paper item | what it shows | command | data | plot | paper | ours |")
        hdr = 1; next
    }
    if (line ~ /^[ \t:|-]+$/) next
    if (nc != 7) { bad("a figure table row needs 7 cells, this one has " nc); next }
    r = ++NR_[dir]; R = dir SUBSEP r
    ITEM[R] = md(C[1], dir); WHAT[R] = md(C[2], dir); CMD[R] = md(C[3], dir)
    PAPER[R] = md(C[6], dir); OURS[R] = md(C[7], dir)
    n = spans(C[4]); ND[R] = n
    if (n == 0) bad("no data file in the data cell (a `file` code span)")
    for (i = 1; i <= n; i++) {
        DATA_[R, i] = LIST[i]
        if (!exists(dir "/" sub_ "/" LIST[i])) bad("data file " dir "/" sub_ "/" LIST[i] " not found")
    }
    n = spans(C[5]); NP[R] = n
    if (n == 0 && trim(C[5]) !~ /^(—|-|–)$/) bad("the plot cell names no `script.gp` (a dash for a table-only item)")
    for (i = 1; i <= n; i++) {
        g = LIST[i]; sub(/^plots\//, "", g); PLOT[R, i] = g
        if (!exists("plots/" g)) { bad("plot script plots/" g " not found"); continue }
        SEEN[g] = 1
        png = g; sub(/\.gp$/, ".png", png)
        if (!exists("plots/out/" png)) bad("missing image plots/out/" png " (make plots DATA=ref TERM=png)")
    }
}
END {
    if (prev_file != "" && !has_table) { print "report: " prev_file ": no figure table (<!-- figures --> ... <!-- end figures -->)" > "/dev/stderr"; nbad++ }
    for (g in SEEN) if (g != "style.gp" && !SEEN[g]) { print "report: plots/" g " is on no README figure table" > "/dev/stderr"; nbad++ }
    if (nbad) { print "report: " nbad " problem(s); no page written" > "/dev/stderr"; exit 1 }
    o = outfile
    print "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" > o
    print "<title>Results: GPU thread maps for non-box domains, hash algorithms for discretized data</title>" > o
    print "<style>body{font-family:sans-serif;max-width:70em;margin:auto;padding:1em;line-height:1.4}" \
          "img{max-width:100%;border:1px solid #ccc}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top;text-align:left}" \
          "section{margin:1.5em 0 2.5em}code{background:#f4f4f4}h3{margin-bottom:.3em}</style></head><body>" > o
    print "<h1>Results</h1>" > o
    print "<p>Every figure of the collection, drawn from the data in <code>&lt;dir&gt;/" sub_ "/</code> (git " esc(rev) "), " \
          "with the paper item it reproduces, the paper&#39;s number beside ours, the command that measures its data again on a GPU, " \
          "and its data files. Generated by <code>make report</code> from the figure tables of the directory READMEs; " \
          "the READMEs discuss each result.</p>" > o
    print "<ul>" > o
    for (k = 1; k <= nd; k++) print "<li><a href=\"#" D[k] "\">" D[k] "</a>: " TITLE[D[k]] " (" NR_[D[k]] + 0 " items)</li>" > o
    print "</ul>" > o
    for (k = 1; k <= nd; k++) {
        dir = D[k]
        print "<h2 id=\"" dir "\">" dir "</h2>\n<p>" TITLE[dir] ". <a href=\"../../" dir "/README.md\">README</a></p>" > o
        for (r = 1; r <= NR_[dir]; r++) {
            R = dir SUBSEP r
            print "<section><h3>" ITEM[R] ": " WHAT[R] "</h3>" > o
            for (i = 1; i <= NP[R]; i++) { png = PLOT[R, i]; sub(/\.gp$/, ".png", png); print "<p><img src=\"" png "\" alt=\"" esc(PLOT[R, i]) "\"></p>" > o }
            print "<table><tr><th>paper</th><td>" PAPER[R] "</td></tr><tr><th>ours</th><td>" OURS[R] "</td></tr>" > o
            print "<tr><th>command</th><td>" CMD[R] "</td></tr>" > o
            printf "<tr><th>data</th><td>" > o
            for (i = 1; i <= ND[R]; i++) printf "%s<a href=\"../../%s/%s/%s\">%s</a>", (i > 1 ? "<br>" : ""), dir, sub_, DATA_[R, i], esc(DATA_[R, i]) > o
            printf "</td></tr>\n<tr><th>plot script</th><td>" > o
            if (NP[R] == 0) printf "(a table)" > o
            for (i = 1; i <= NP[R]; i++) printf "%s<a href=\"../%s\">plots/%s</a>", (i > 1 ? "<br>" : ""), PLOT[R, i], PLOT[R, i] > o
            print "</td></tr></table></section>" > o
        }
    }
    print "</body></html>" > o
    close(o)
}' $readmes || { rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
echo "report: $out ($(grep -c '<section>' "$out") items, $(grep -o '<img ' "$out" | wc -l) figures, data from */$sub)"
