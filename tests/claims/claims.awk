# tests/claims/claims.awk -- the README claims checker: every measured number a README
# cites is recomputed from the committed data file it names.  The syntax is described in
# common/README.md ("How to cite a measured number"); tests/claims/check.sh runs this script
# (POSIX awk: mawk and gawk) over the READMEs and checks the data files' provenance.
#
#   awk -f claims.awk -v mode=check|write|list -v pending=FILE [-v base=DIR] [-v all=1] README...
#
# mode=check  every <!-- claim: ... --> and every generated table is recomputed; a mismatch
#             prints README:line, the claimed and the recomputed value and the source, and
#             the exit status is 1.  <!-- unsupported: ID --> markers fail unless the pending
#             list names README and ID (then they are printed as warnings).
# mode=write  the same, and each README whose generated tables are out of date is written
#             again as README.tables.tmp (check.sh renames it): make readme-tables.
# mode=list   also print every number that looks measured (a decimal, or followed by %, x,
#             ms, GB/s ...) and carries no annotation.
# base=DIR    resolve data files against DIR instead of the README's directory (tests).
# all=1       every README is being checked: a pending entry no README uses is reported.

BEGIN {
    # a paper's figure, table, equation, section or listing numbers: references, not measurements
    REF_RE = "(Fig|Figs|Figure|Figures|Table|Tables|Tab|Tabs|eq|eqs|Eq|Eqs|Equation|Equations|sec|Sec|Section|Sections|Listing|Listings|Algorithm|Theorem|Lemma|Chapter|§)\\.?[ ]*([0-9]+(\\.[0-9]+)*[a-z]?[ ]*(,|–|-|and|to|&|/)?[ ]*)*$"
    if (mode == "") mode = "check"
    nfail = 0; nwarn = 0
    if (pending != "") read_pending(pending)
}

# ---------------------------------------------------------------- pending list
function read_pending(path,   line, f, n) {
    while ((getline line < path) > 0) {
        sub(/#.*/, "", line)
        n = split(line, f, " ")
        if (n < 2) continue
        PENDING[f[1], f[2]] = 1
        PENDING_USED[f[1], f[2]] = 0
        PENDING_KEYS[++npend] = f[1] SUBSEP f[2]
    }
    close(path)
}

# ---------------------------------------------------------------- keys: <!-- c:KEY -->
# A README's side file (README.md -> README.claims, NOTES.md -> NOTES.claims) holds one line
# per key, 'KEY BODY', BODY being what the comment would hold ('claim: ...', 'quote: FILE',
# 'paper'); '#' starts a comment line.  An unknown key, a key defined twice and a key no
# line of the README uses are failures.
function keys_load(rf,   sf, line, n, w, k, b, ln) {
    sf = rf; sub(/\.md$/, "", sf); sf = sf ".claims"
    K_FILE[rf] = sf; K_N[rf] = 0; ln = 0
    while ((getline line < sf) > 0) {
        ln++
        if (line ~ /^[ \t]*(#|$)/) continue
        n = split(line, w, " "); k = w[1]
        b = line; sub(/^[ \t]*[^ \t]+[ \t]*/, "", b); b = trim(b)
        if (k !~ /^[A-Za-z0-9][A-Za-z0-9_.-]*$/) { print sf ":" ln ": bad key '" k "' (letters, digits, _ . -)"; nfail++; R_FAIL[rf]++; continue }
        if ((rf, k) in KEYS) { print sf ":" ln ": key '" k "' defined twice (first at line " K_LINE[rf, k] ")"; nfail++; R_FAIL[rf]++; continue }
        if (b == "") { print sf ":" ln ": key '" k "' has no body (claim: ..., quote: FILE or paper)"; nfail++; R_FAIL[rf]++; continue }
        KEYS[rf, k] = b; K_LINE[rf, k] = ln; K_USED[rf, k] = 0; K_LIST[rf, ++K_N[rf]] = k
    }
    close(sf)
}
function keys_end(rf,   i, k) {
    for (i = 1; i <= K_N[rf]; i++) {
        k = K_LIST[rf, i]
        if (!K_USED[rf, k]) { print K_FILE[rf] ":" K_LINE[rf, k] ": key '" k "' is used by no <!-- c:" k " --> of " rf ": remove it"; nfail++; R_FAIL[rf]++ }
    }
}

# ---------------------------------------------------------------- reporting
# RF, RL: the README and its line being read
function fail(msg) { failat(RL, msg) }
function failat(ln, msg) { print RF ":" ln ": " msg (CUR_KEY != "" ? " [key " CUR_KEY ", " K_FILE[RF] ":" K_LINE[RF, CUR_KEY] "]" : ""); nfail++; R_FAIL[RF]++ }
function warn(msg) { print RF ":" RL ": warning: " msg; nwarn++ }
function trim(s) { sub(/^[ \t\r\n]+/, "", s); sub(/[ \t\r\n]+$/, "", s); return s }
function isnum(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function dirname(p) { if (p !~ /\//) return "."; sub(/\/[^\/]*$/, "", p); return p }

# ---------------------------------------------------------------- data files
# load(path): 1 when the file holds a header row, 0 otherwise (missing, empty).  Rows are
# the lines after the first bare (not '#') line, split on white space.
function load(path,   line, n, fld, i, nr, h, rc) {
    if (path in LOADED) return LOADED[path]
    nr = 0; h = 0
    while ((rc = (getline line < path)) > 0) {
        if (!h && match(line, /^# [A-Za-z_][A-Za-z0-9_]*: *[-+]?[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?/)) { # '# key: 12.5 ...'
            n = index(line, ":")
            META[path, substr(line, 3, n - 3)] = trim(substr(line, n + 1, RLENGTH - n)) + 0
        }
        if (!h && line ~ /^# gpu:/) GPUM[path] = gpu_models(line)
        if (line ~ /^#/ || line ~ /^[ \t\r]*$/) continue
        n = split(line, fld, " ")
        if (!h) { for (i = 1; i <= n; i++) COL[path, fld[i]] = i; NCOL[path] = n; h = 1; continue }
        nr++
        for (i = 1; i <= n; i++) D[path, nr, i] = fld[i]
    }
    if (rc >= 0) close(path)
    NROW[path] = nr
    LOADED[path] = h
    return h
}

# the GPU models a text names, as " H100 H200 " (empty: none)
function gpu_models(t,   m, out) {
    out = " "
    while (match(t, /(GH200|GB200|B200|H200|H100|A100|V100|L40S|L40)/)) {
        m = substr(t, RSTART, RLENGTH)
        if (RSTART > 1 && substr(t, RSTART - 1, 1) ~ /[A-Za-z0-9]/) m = ""   # GH200 is not H200
        if (m != "" && index(out, " " m " ") == 0) out = out m " "
        t = substr(t, RSTART + RLENGTH)
    }
    return out == " " ? "" : out
}
# A claim must cite data measured on a GPU that its context names: the sentence around it
# (a table cell, with the row's first cell), when that names any model (H100, H200, ...).
function gpu_check(seg,   pre, post, ctx, c, i, p, ms, said, n, a, ok, j) {
    pre = LPREFIX seg; post = LAFTER
    gsub(/<!--[^>]*-->/, "", post)
    if (RLINE ~ /^[ \t]*\|/) {
        sub(/^.*\|/, "", pre); sub(/\|.*$/, "", post)
        c = RLINE; sub(/^[ \t]*\|/, "", c); sub(/\|.*$/, "", c)
    } else c = ""
    while (match(pre, /; |\. [^a-z0-9]/)) pre = substr(pre, RSTART + 2)
    if (match(post, /[.;]( |$)| \(/)) post = substr(post, 1, RSTART)
    said = gpu_models(c " " pre " " post)
    if (said == "") return
    for (i = 1; i <= X_NP; i++) {
        p = X_P[i]; ms = GPUM[p]
        if (ms == "") continue
        n = split(ms, a, " "); ok = 0
        for (j = 1; j <= n; j++) if (index(said, " " a[j] " ")) ok = 1
        if (!ok) { fail("the text names" said "but " p " was measured on" ms "(its # gpu: line)"); return }
    }
}

# the file a claim names: relative to the README's directory (or base), then to its
# results-ref/ (so that "simplex2d_tab_rho.dat" works inside simplex2d/README.md)
function resolve(f,   d, p) {
    d = (base != "") ? base : dirname(RF)
    if (f ~ /^\//) return f
    p = (d == ".") ? f : d "/" f
    if (load(p)) return p
    d = (d == ".") ? "results-ref/" : d "/results-ref/"
    if (load(d f)) return d f
    return p
}

# ---------------------------------------------------------------- column expressions
# A column, or an arithmetic expression of columns of one row without spaces:
# (max_ms-min_ms)/median_ms, gbs/1000; #key is the number that starts the file's metadata
# line '# key: ...' (gkeys_s*12/#copy_gbs).  ERR is set on a fault.
function ce_tok(s,   c) {
    CEN = 0
    while (s != "") {
        if (match(s, /^#?[A-Za-z_][A-Za-z0-9_]*/) || match(s, /^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?/)) {
            CET[++CEN] = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1); continue
        }
        c = substr(s, 1, 1)
        if (index("+-*/()", c)) { CET[++CEN] = c; s = substr(s, 2); continue }
        ERR = "bad character '" c "' in column expression"; return
    }
}
function ce_value(expr, path, row,   v) {
    ce_tok(expr); if (ERR != "") return 0
    CEP = 1; v = ce_sum(path, row)
    if (ERR == "" && CEP <= CEN) ERR = "unexpected '" CET[CEP] "' in column expression '" expr "'"
    return v
}
function ce_sum(path, row,   v, w, op) {
    v = ce_prod(path, row)
    while (ERR == "" && CEP <= CEN && (CET[CEP] == "+" || CET[CEP] == "-")) {
        op = CET[CEP++]; w = ce_prod(path, row)
        v = (op == "+") ? v + w : v - w
    }
    return v
}
function ce_prod(path, row,   v, w, op) {
    v = ce_unary(path, row)
    while (ERR == "" && CEP <= CEN && (CET[CEP] == "*" || CET[CEP] == "/")) {
        op = CET[CEP++]; w = ce_unary(path, row)
        if (op == "*") v = v * w
        else if (w == 0) { ERR = "division by zero in column expression"; return 0 }
        else v = v / w
    }
    return v
}
function ce_unary(path, row,   t, v, c) {
    if (CEP > CEN) { ERR = "column expression ends too early"; return 0 }
    t = CET[CEP++]
    if (t == "-") return -ce_unary(path, row)
    if (t == "(") {
        v = ce_sum(path, row)
        if (ERR == "" && CET[CEP] != ")") { ERR = "missing ')' in column expression"; return 0 }
        CEP++; return v
    }
    if (isnum(t)) return t + 0
    if (t ~ /^#/) {
        if (!((path, substr(t, 2)) in META)) { ERR = "no metadata line '# " substr(t, 2) ": NUMBER' in " path; return 0 }
        return META[path, substr(t, 2)]
    }
    if (!((path, t) in COL)) { ERR = "no column '" t "' in " path; return 0 }
    c = D[path, row, COL[path, t]]
    if (!isnum(c)) { ERR = "column '" t "' of the selected row of " path " is '" c "', not a number"; return 0 }
    return c + 0
}

# ---------------------------------------------------------------- claim expressions
#   [<=|>=] [value|range|min|max] FILE COLUMN COND... [/|- [FILE] [COLUMN] COND...]
#   [by COL,COL] [abs] [pct|pctdiff] [%FMT] [?FALLBACK]
# COND: key=v1,v2  key!=v1,v2  key<v  key<=v  key>v  key>=v  (numbers compare as numbers).
# The second term inherits the first one's file, column and conditions, its own conditions
# replacing those on the same keys (conditions on columns its file lacks are dropped); with 'by', each row of the first term is paired with the
# row of the second that has the same values in those columns.
function x_reset() {
    X_cmp = "="; X_agg = ""; X_nt = 1; X_op = ""; X_by = ""; X_abs = 0; X_post = ""
    X_fmt = ""; X_fb = ""; X_hasfb = 0
    TF[1] = ""; TC[1] = ""; TN[1] = 0; TF[2] = ""; TC[2] = ""; TN[2] = 0
}
function x_cond(t, w,   k, o, v) {
    if (!match(w, /(!=|<=|>=|=|<|>)/)) return 0
    k = substr(w, 1, RSTART - 1); o = substr(w, RSTART, RLENGTH); v = substr(w, RSTART + RLENGTH)
    if (k == "" || v == "") { ERR = "bad condition '" w "'"; return 1 }
    TN[t]++; TK[t, TN[t]] = k; TO[t, TN[t]] = o; TV[t, TN[t]] = v
    return 1
}
# parse the words of s (after 'claim:' or inside a table cell's braces); ERR on a fault
function x_parse(s, deffile,   w, n, i, t, started) {
    x_reset(); ERR = ""
    n = split(trim(s), w, /[ \t\r\n]+/)
    t = 1; started = 0
    for (i = 1; i <= n; i++) {
        if (X_hasfb) { X_fb = X_fb " " w[i]; continue }
        if (!started && (w[i] == "<=" || w[i] == ">=")) { X_cmp = w[i]; continue }
        if (!started && (w[i] == "value" || w[i] == "range" || w[i] == "min" || w[i] == "max")) { X_agg = w[i]; started = 1; continue }
        started = 1
        if (w[i] == "/" || w[i] == "-") {
            if (t == 2) { ERR = "only one '/' or '-' between two terms"; return }
            X_op = w[i]; X_nt = 2; t = 2; continue
        }
        if (w[i] == "by") { if (++i > n) { ERR = "'by' needs a list of columns"; return }; X_by = w[i]; continue }
        if (w[i] == "abs") { X_abs = 1; continue }
        if (w[i] == "pct" || w[i] == "pctdiff") { X_post = w[i]; continue }
        if (w[i] ~ /^%/) { X_fmt = w[i]; continue }
        if (w[i] ~ /^\?/) { X_hasfb = 1; X_fb = substr(w[i], 2); continue }
        if (w[i] ~ /\.(dat|txt|csv)$/) { TF[t] = w[i]; continue }
        if (w[i] ~ /[{}]/) { ERR = "braces in '" w[i] "': only a file name may hold {a,b}"; return }
        if (x_cond(t, w[i])) { if (ERR != "") return; continue }
        if (TC[t] != "") { ERR = "two columns in one term ('" TC[t] "', '" w[i] "'); conditions are key=value"; return }
        TC[t] = w[i]
    }
    if (X_agg == "") X_agg = "value"
    if (TF[1] == "") TF[1] = deffile
    if (TF[1] == "") { ERR = "no data file named"; return }
    if (TC[1] == "") { ERR = "no column named"; return }
    if (X_nt == 2 && TC[2] == "") TC[2] = TC[1]
    X_fb = trim(X_fb)
}
# FILE may hold alternatives in braces: run{1,2,3}/x.dat -> run1/x.dat run2/x.dat run3/x.dat,
# read as one table (every combination when there are several braces; a second term without
# a file of its own reads the file of the first term's row).  Sets FN[t], FL[t, 1..FN[t]].
function x_files(t,   q, nq, k, f, i, j, pre, alt, post, n, a, done) {
    nq = 1; q[1] = TF[t]; FN[t] = 0
    for (k = 1; k <= nq; k++) {
        f = q[k]
        if ((i = index(f, "{")) && (j = index(f, "}")) > i) {
            pre = substr(f, 1, i - 1); alt = substr(f, i + 1, j - i - 1); post = substr(f, j + 1)
            n = split(alt, a, ",")
            for (i = 1; i <= n; i++) q[++nq] = pre a[i] post
        } else FL[t, ++FN[t]] = resolve(f)
    }
    for (i = 1; i <= FN[t]; i++) if (!load(FL[t, i])) { ERR = "no data file " FL[t, i]; return }
}
# the conditions of term t: its own, and for the second term those of the first it does not
# replace (C_K/C_O/C_V[t, 1..CN[t]])
function x_conds(t,   i, j, over) {
    CN[t] = 0
    if (t == 2)                           # inherited first: their extremes apply first
        for (i = 1; i <= TN[1]; i++) {
            over = 0
            for (j = 1; j <= TN[2]; j++) if (TK[2, j] == TK[1, i]) over = 1
            if (!((FL[2, 1], TK[1, i]) in COL)) over = 1   # a column the second file lacks
            if (!over) { CN[2]++; C_K[2, CN[2]] = TK[1, i]; C_O[2, CN[2]] = TO[1, i]; C_V[2, CN[2]] = TV[1, i] }
        }
    for (i = 1; i <= TN[t]; i++) { CN[t]++; C_K[t, CN[t]] = TK[t, i]; C_O[t, CN[t]] = TO[t, i]; C_V[t, CN[t]] = TV[t, i] }
}
# does row of path match term t's conditions?  key=max / key=min: the largest / smallest value
# of that column among the rows of this file that match the other conditions (and the
# extremes written before it; with 'by', within the rows of the same 'by' values).  With
# pr > 0, the row must also equal row pr of file pp in the 'by' columns.  upto > 0: only the
# extremes before condition upto count (used to compute the extremes).
function x_match(t, path, row, pp, pr, upto,   i, k, c, nb, b, v, g) {
    for (i = 1; i <= CN[t]; i++) {
        v = C_V[t, i]
        if (C_O[t, i] == "=" && (v == "max" || v == "min")) {
            if (upto && i >= upto) continue
            g = x_group(path, row)
            if (!((XID, t, path, i, g) in EXT)) x_ext(t, path, i, row, g)
            if (ERR != "") return 0
            v = EXT[XID, t, path, i, g]
        }
        if (!x_one(path, row, C_K[t, i], C_O[t, i], v)) return 0
    }
    if (pr > 0 && X_by != "") {
        nb = split(X_by, b, ",")
        for (k = 1; k <= nb; k++) {
            if (!((path, b[k]) in COL)) { ERR = "no column '" b[k] "' in " path; return 0 }
            if (!((pp, b[k]) in COL)) { ERR = "no column '" b[k] "' in " pp; return 0 }
            c = D[path, row, COL[path, b[k]]]
            if (!x_eq(c, D[pp, pr, COL[pp, b[k]]])) return 0
        }
    }
    return 1
}
# the values of a row in the 'by' columns (the group of its extremes)
function x_group(path, row,   nb, b, k, g) {
    if (X_by == "") return ""
    nb = split(X_by, b, ","); g = ""
    for (k = 1; k <= nb; k++) g = g SUBSEP (((path, b[k]) in COL) ? D[path, row, COL[path, b[k]]] : "")
    return g
}
function x_ext(t, path, i, row, g,   r, c, k, have, best) {
    k = C_K[t, i]
    if (!((path, k) in COL)) { ERR = "no column '" k "' in " path; return }
    have = 0
    for (r = 1; r <= NROW[path]; r++) {
        if (x_group(path, r) != g) continue
        if (!x_match(t, path, r, "", 0, i)) { if (ERR != "") return; continue }
        c = D[path, r, COL[path, k]]
        if (!isnum(c)) continue
        if (!have || (C_V[t, i] == "max" ? c + 0 > best + 0 : c + 0 < best + 0)) best = c
        have = 1
    }
    EXT[XID, t, path, i, g] = have ? best : "(none)"
}
# equal: as numbers when both are, else as strings; b may hold '*' (any text)
function x_eq(a, b,   re) {
    if (isnum(a) && isnum(b)) return a + 0 == b + 0
    if (index(b, "*")) {
        re = b; gsub(/[][\\.^$+?(){}|]/, "\\\\&", re); gsub(/\*/, ".*", re)
        return a ~ ("^" re "$")
    }
    return a == b
}
function x_one(path, row, k, o, v,   c, n, l, i, hit) {
    if (!((path, k) in COL)) { ERR = "no column '" k "' in " path; return 0 }
    c = D[path, row, COL[path, k]]
    if (o == "=" || o == "!=") {
        n = split(v, l, ","); hit = 0
        for (i = 1; i <= n; i++) if (x_eq(c, l[i])) hit = 1
        return (o == "=") ? hit : !hit
    }
    if (!isnum(c) || !isnum(v)) return 0
    if (o == "<") return c + 0 < v + 0
    if (o == "<=") return c + 0 <= v + 0
    if (o == ">") return c + 0 > v + 0
    return c + 0 >= v + 0
}
# evaluate the parsed expression with the extra conditions of a table row (XTRA_N,
# XTRA_K[], XTRA_V[] added to the first term); sets X_lo, X_hi, X_rows (0: no row)
function x_used(p,   i) { for (i = 1; i <= X_NP; i++) if (X_P[i] == p) return; X_P[++X_NP] = p }
function x_eval(   f1, p1, f2, p2, r, r2, n2, hit, hitp, v, w, i, own2) {
    X_rows = 0; XID++; X_NP = 0
    for (i = 1; i <= XTRA_N; i++) { TN[1]++; TK[1, TN[1]] = XTRA_K[i]; TO[1, TN[1]] = "="; TV[1, TN[1]] = XTRA_V[i] }
    x_files(1); if (ERR != "") return
    own2 = (X_nt == 2 && TF[2] != "")
    if (X_nt == 2) {
        if (!own2) TF[2] = TF[1]
        x_files(2); if (ERR != "") return
    }
    x_conds(1); if (X_nt == 2) x_conds(2)
    for (f1 = 1; f1 <= FN[1]; f1++) {
        p1 = FL[1, f1]
        for (r = 1; r <= NROW[p1]; r++) {
            if (!x_match(1, p1, r, "", 0, 0)) { if (ERR != "") return; continue }
            v = ce_value(TC[1], p1, r); if (ERR != "") return
            if (X_nt == 2) {
                n2 = 0
                for (f2 = 1; f2 <= FN[2]; f2++) {
                    p2 = FL[2, f2]
                    if (!own2 && p2 != p1) continue        # the first term's own file
                    for (r2 = 1; r2 <= NROW[p2]; r2++) {
                        if (x_match(2, p2, r2, p1, r, 0)) { n2++; hit = r2; hitp = p2 }
                        if (ERR != "") return
                    }
                }
                if (n2 != 1) {
                    ERR = "the second term selects " n2 " rows for row " r " of " p1 \
                          (n2 > 1 ? " (pair the rows with 'by COL,...')" : ""); return
                }
                w = ce_value(TC[2], hitp, hit); if (ERR != "") return
                if (X_op == "/") { if (w == 0) { ERR = "division by zero"; return }; v = v / w }
                else v = v - w
            }
            x_used(p1); if (X_nt == 2) x_used(hitp)
            if (X_post == "pct") v = 100 * v
            else if (X_post == "pctdiff") v = 100 * (v - 1)
            if (X_abs && v < 0) v = -v
            if (X_rows == 0 || v < X_lo) X_lo = v
            if (X_rows == 0 || v > X_hi) X_hi = v
            X_rows++
        }
    }
    if (X_rows == 0) return
    if (X_agg == "value") {
        if (X_rows != 1) { ERR = "selects " X_rows " rows of " TF[1] " (one is needed: add conditions, or use range/min/max)"; return }
    } else if (X_agg == "min") X_hi = X_lo
    else if (X_agg == "max") X_lo = X_hi
}

# ---------------------------------------------------------------- the number before a claim
# The last number of the text before the comment, or a range "a–b", "a-b", "a..b",
# "a…b", "a to b".  Sets CL_n (0: none, 1, 2), CL_s1/2 (as written), CL_v1/2, CL_d1/2.
function decimals(s) { return (s ~ /\./) ? length(s) - index(s, ".") : 0 }
function claimed(seg,   s, off, p, l, pre, q, sign) {
    CL_n = 0; s = seg; off = 0; p = 0
    while (match(s, /[0-9]+(\.[0-9]+)?/)) { p = off + RSTART; l = RLENGTH; off += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH) }
    if (!p) return
    CL_s2 = substr(seg, p, l); pre = substr(seg, 1, p - 1)
    if (match(pre, /[0-9]+(\.[0-9]+)?[ ]*(–|-|\.\.|…|to)[ ]*$/)) {
        q = substr(pre, RSTART); match(q, /[0-9]+(\.[0-9]+)?/)
        CL_s1 = substr(q, RSTART, RLENGTH)
        CL_n = 2; CL_v1 = CL_s1 + 0; CL_v2 = CL_s2 + 0; CL_d1 = decimals(CL_s1); CL_d2 = decimals(CL_s2)
        return
    }
    sign = 1
    if (pre ~ /(^|[ (\[])(-|−)$/) sign = -1
    CL_n = 1; CL_s1 = (sign < 0 ? "-" : "") CL_s2; CL_v1 = sign * CL_s2; CL_d1 = decimals(CL_s2)
    CL_v2 = CL_v1; CL_d2 = CL_d1; CL_s2 = CL_s1
}
function agrees(c, d, v, cmp,   tol) {
    tol = 0.5 * 10 ^ (-d) * (1 + 1e-9) + 1e-12
    if (cmp == "<=") return v <= c + tol
    if (cmp == ">=") return v >= c - tol
    return v >= c - tol && v <= c + tol
}
function fmtd(v, d) { return sprintf("%." d "f", v) }

function do_claim(spec, seg,   lo_ok, hi_ok, got, src) {
    R_CLAIMS[RF]++
    claimed(seg)
    if (CL_n == 0) { fail("claim with no number before it: <!-- claim: " spec " -->"); return }
    R_NUMS[RF] += CL_n
    XTRA_N = 0
    x_parse(spec, "")
    if (ERR == "") x_eval()
    src = trim(spec)
    if (ERR != "") { fail("claimed " claim_text() ": " ERR " (claim: " src ")"); return }
    if (X_rows == 0) { fail("claimed " claim_text() ": no row of the data matches (claim: " src ")"); return }
    if (X_fmt != "" || X_hasfb) { fail("a format or ?fallback belongs in a table, not in a claim (claim: " src ")"); return }
    if (CL_n == 2 && X_agg == "value") { fail("claimed the range " claim_text() " from one value: use range (claim: " src ")"); return }
    gpu_check(seg)
    if (CL_n == 2) {
        lo_ok = agrees(CL_v1, CL_d1, X_lo, X_cmp); hi_ok = agrees(CL_v2, CL_d2, X_hi, X_cmp)
        got = fmtd(X_lo, CL_d1) "–" fmtd(X_hi, CL_d2) " (" sprintf("%.6g", X_lo) "–" sprintf("%.6g", X_hi) ")"
    } else if (X_cmp == "<=") {
        lo_ok = hi_ok = agrees(CL_v1, CL_d1, X_hi, X_cmp)
        got = fmtd(X_hi, CL_d1) " (" sprintf("%.6g", X_hi) ")"
    } else if (X_cmp == ">=") {
        lo_ok = hi_ok = agrees(CL_v1, CL_d1, X_lo, X_cmp)
        got = fmtd(X_lo, CL_d1) " (" sprintf("%.6g", X_lo) ")"
    } else {
        lo_ok = agrees(CL_v1, CL_d1, X_lo, "="); hi_ok = agrees(CL_v1, CL_d1, X_hi, "=")
        got = (X_lo == X_hi) ? fmtd(X_lo, CL_d1) " (" sprintf("%.6g", X_lo) ")" \
                             : fmtd(X_lo, CL_d1) "–" fmtd(X_hi, CL_d1) " (" sprintf("%.6g", X_lo) "–" sprintf("%.6g", X_hi) ")"
    }
    if (!(lo_ok && hi_ok))
        fail("claimed " (X_cmp == "=" ? "" : X_cmp " ") claim_text() ", recomputed " got " from " FL[1, 1] (FN[1] > 1 ? " (and " FN[1] - 1 " more)" : "") ": " src)
}
function claim_text() { return (CL_n == 2) ? CL_s1 "–" CL_s2 : CL_s1 }

# ---------------------------------------------------------------- counting what is left
# numbers in a stretch of README text that no claim covers; code spans and link targets
# are not prose
function strip_code(s) {
    gsub(/`[^`]*`/, " ", s)
    gsub(/\]\([^)]*\)/, "]", s)
    return s
}
function count_prose(s, kind,   t, pre, tok, post, meas, done) {
    s = strip_code(s); done = ""
    while (match(s, /[0-9]+(\.[0-9]+)?/)) {
        pre = substr(s, 1, RSTART - 1); tok = substr(s, RSTART, RLENGTH); post = substr(s, RSTART + RLENGTH)
        s = post; done = done pre
        if (pre ~ /[A-Za-z_0-9.^]$/) { done = done tok; continue }   # H100, sm_90, fig3, 2^15's exponent
        if (done ~ REF_RE) { done = done tok; continue }           # Fig. 3.3, Tables 4.1-4.2, eq. 2.13
        done = done tok
        if (kind == "paper") { R_PAPER[RF]++; continue }
        if (kind == "unsupported") { R_UNSUP[RF]++; continue }
        R_PROSE[RF]++
        meas = (tok ~ /\./ || post ~ /^ ?(%|×|x[^A-Za-z0-9]|x$|ms|ns|µs|us|GB\/s|TB\/s|s[^A-Za-z0-9])/)
        if (meas) {
            R_MEAS[RF]++
            if (mode == "list") print RF ":" RL ": unannotated " tok substr(post, 1, 6)
        }
    }
}

# ---------------------------------------------------------------- markers
function do_unsupported(id, seg, block) {
    R_MARK[RF]++
    if (id == "") { fail("'unsupported' needs an id: <!-- unsupported: ID -->"); return }
    if ((RF, id) in PENDING) {
        PENDING_USED[RF, id]++
        R_PEND[RF]++
        warn("unsupported claim '" id "' (pending: no committed data yet; commit the evidence and cite it, or delete the claim)")
    } else
        fail("unsupported claim '" id "': no committed data holds it; commit the evidence and cite it with <!-- claim: -->, or delete the claim")
}

# <!-- quote: FILE --> right after a `code span`: the span's text is on one line of FILE (a
# program's raw output committed beside the data: an error line, a refusal), found as
# claim files are (the README's directory, then its results-ref/)
function do_quote(f, seg,   q, p, d, line, rc, found) {
    R_CLAIMS[RF]++
    if (seg !~ /\001[ ]*$/) { fail("quote with no `code span` right before it: <!-- quote: " f " -->"); return }
    d = seg; q = CODE[CODE_BASE + gsub(/\001/, "", d)]
    if (q == "") { fail("quote of an empty `code span`: <!-- quote: " f " -->"); return }
    if (f == "") { fail("'quote' needs a file: <!-- quote: FILE -->"); return }
    d = (base != "") ? base : dirname(RF)
    p = (f ~ /^\//) ? f : ((d == ".") ? f : d "/" f)
    if ((getline line < p) < 0) p = ((d == ".") ? "results-ref/" : d "/results-ref/") f
    else close(p)
    found = 0
    while ((rc = (getline line < p)) > 0) if (index(line, q)) { found = 1; break }
    if (rc < 0) { fail("quoted from " f ": no such file"); return }
    close(p)
    d = q; R_NUMS[RF] += gsub(/[0-9]+(\.[0-9]+)?/, "", d)
    if (!found) fail("quoted `" q "`: not a line of " p)
}

# one inline comment and the text before it (since the previous comment on the line)
function do_comment(body, seg,   b, k0) {
    b = trim(body)
    if (b ~ /^c:/) {                      # a key into the side file
        CUR_KEY = trim(substr(b, 3))
        if (!((RF, CUR_KEY) in KEYS)) { k0 = CUR_KEY; CUR_KEY = ""; fail("unknown key '" k0 "': not defined in " K_FILE[RF]); count_prose(seg, ""); return }
        K_USED[RF, CUR_KEY] = 1; R_KEYED[RF]++
        b = KEYS[RF, CUR_KEY]
        if (b ~ /^c:/) { fail("a key's body must not be another key"); CUR_KEY = ""; return }
    }
    do_comment_body(b, seg)
    CUR_KEY = ""
}
function do_comment_body(b, seg) {
    if (b ~ /^claim:/) {
        sub(/^claim:/, "", b)
        claimed(seg)
        # the claimed number (or range) is covered; the rest of the segment is prose
        do_claim(b, seg)
        count_prose(claim_rest(seg), "")
    } else if (b ~ /^quote:/) {
        sub(/^quote:[ ]*/, "", b)
        do_quote(b, seg)
        count_prose(seg, "")
    } else if (b == "paper" || b ~ /^paper[ :]/) { count_prose(cell_head(seg), ""); count_prose(cell_tail(seg), "paper") }
    else if (b ~ /^unsupported:/) {
        sub(/^unsupported:[ ]*/, "", b); count_prose(cell_head(seg), ""); count_prose(cell_tail(seg), "unsupported")
        do_unsupported(b, seg)
    } else if (b ~ /^begin unsupported:/) {
        count_prose(seg, "")
        sub(/^begin unsupported:[ ]*/, "", b)
        if (U_OPEN != "") fail("'begin unsupported' inside another one (opened at line " U_LINE ")")
        U_OPEN = b; U_LINE = FNR; do_unsupported(b, seg)
    } else if (b ~ /^end unsupported/) {
        count_prose(seg, U_OPEN != "" ? "unsupported" : "")
        if (U_OPEN == "") fail("'end unsupported' without 'begin unsupported'")
        U_OPEN = ""
    } else if (b ~ /^(table:|end table)/) {
        count_prose(seg, "")
        fail("'" b "' must start a line")
    } else count_prose(seg, U_OPEN != "" ? "unsupported" : "")
}
# a marker covers the text since the previous comment, within its table cell
function cell_tail(seg,   i) { while ((i = index(seg, "|")) > 0) seg = substr(seg, i + 1); return seg }
function cell_head(seg,   t) { t = cell_tail(seg); return substr(seg, 1, length(seg) - length(t)) }
# the segment without its last number (or range): what a claim does not cover
function claim_rest(seg,   s, off, p) {
    s = seg; off = 0; p = 0
    while (match(s, /[0-9]+(\.[0-9]+)?/)) { p = off + RSTART; off += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH) }
    if (!p) return seg
    s = substr(seg, 1, p - 1)
    if (CL_n == 2) sub(/[0-9]+(\.[0-9]+)?[ ]*(–|-|\.\.|…|to)[ ]*$/, "", s)
    return s
}

# ---------------------------------------------------------------- generated tables
#   <!-- table: FILE
#   | header | ... |             literal lines (may hold {EXPR})
#   |---|---|
#   for key=v1,v2 key2=w1,w2     the following lines once per combination (first key slowest)
#   | {key}, {key2} | {COLUMN COND... %.2f} | {COLUMN / COND... %.2f ?—} |
#   -->
#   ... generated lines ...
#   <!-- end table -->
function t_begin(first) {
    T_ON = 1; T_LINE = FNR; T_N = 0
    T_FILE = trim(substr(first, index(first, "table:") + 6))
    if (T_FILE ~ /-->$/) { fail("a table template needs its lines before '-->'"); T_ON = 0 }
}
function t_generate(   i, j, k, nl, lines, nv, nk, key, vals, cnt, idx, out, ng, done, carry) {
    ng = 0; XTRA_N = 0
    i = 1
    while (i <= T_N) {
        if (T_L[i] !~ /^for[ \t]/) { G[++ng] = t_fill(T_L[i], 0); i++; continue }
        # a loop: keys and their value lists
        nk = split(trim(substr(T_L[i], 4)), key, /[ \t]+/)
        for (k = 1; k <= nk; k++) {
            if (!match(key[k], /=/)) { failat(T_LINE, "table template: bad loop '" key[k] "' (key=v1,v2,...)"); return 0 }
            LV_K[k] = substr(key[k], 1, RSTART - 1)
            cnt[k] = split(substr(key[k], RSTART + 1), vals, ",")
            for (j = 1; j <= cnt[k]; j++) LV[k, j] = vals[j]
            idx[k] = 1
        }
        nl = 0
        for (j = i + 1; j <= T_N && T_L[j] !~ /^for[ \t]/; j++) lines[++nl] = T_L[j]
        i = j
        done = 0
        while (!done) {
            XTRA_N = nk
            for (k = 1; k <= nk; k++) { XTRA_K[k] = LV_K[k]; XTRA_V[k] = LV[k, idx[k]] }
            for (j = 1; j <= nl; j++) G[++ng] = t_fill(lines[j], nk)
            # next combination, last key fastest
            carry = 1
            for (k = nk; k >= 1 && carry; k--) { idx[k]++; if (idx[k] > cnt[k]) idx[k] = 1; else carry = 0 }
            if (carry) done = 1
        }
    }
    XTRA_N = 0
    return ng
}
# one template line: {KEY} -> the loop value, {EXPR} -> the formatted value; a table cell
# (text between '|') with an expression that selects no row and has '?TEXT' becomes TEXT
function t_fill(s, nk,   n, c, i, out) {
    n = split(s, c, "|"); out = ""
    for (i = 1; i <= n; i++) out = out (i > 1 ? "|" : "") t_cell(c[i], nk)
    return out
}
function t_cell(s, nk,   out, e, k, v, j, fmt, fb) {
    out = ""; fb = ""
    while ((j = index(s, "{")) > 0) {
        out = out substr(s, 1, j - 1); s = substr(s, j + 1)
        if ((j = index(s, "}")) == 0) { failat(T_LINE, "table template: '{' without '}'"); return out s }
        e = trim(substr(s, 1, j - 1)); s = substr(s, j + 1)
        v = ""
        for (k = 1; k <= nk; k++) if (e == XTRA_K[k]) v = XTRA_V[k]
        if (v == "") {
            x_parse(e, T_FILE)
            if (ERR == "") x_eval()
            if (ERR != "") { failat(T_LINE, "table: {" e "}: " ERR); v = "?" }
            else if (X_rows == 0) {
                if (X_hasfb) { fb = X_fb; v = "" }
                else { failat(T_LINE, "table: {" e "}: no row of the data matches"); v = "?" }
            } else {
                R_NUMS[RF]++; R_CELLS[RF]++
                fmt = (X_fmt != "") ? X_fmt : "%.2f"
                v = (X_agg == "range" && X_lo != X_hi) ? sprintf(fmt, X_lo) "–" sprintf(fmt, X_hi) : sprintf(fmt, X_lo)
            }
        }
        out = out v
    }
    if (fb != "") return " " fb " "
    return out s
}
function t_compare(   i, ng, f0, diff, stale) {
    f0 = nfail
    ng = t_generate()
    stale = (ng != T_BN); diff = 0
    for (i = 1; i <= ng && i <= T_BN; i++) if (G[i] != T_B[i]) { diff = i; stale = 1; break }
    if (stale && !diff) diff = (ng < T_BN ? ng : T_BN) + 1
    if (mode == "write") {
        if (nfail > f0) for (i = 1; i <= T_BN; i++) emit(T_B[i])     # keep the old lines on an error
        else {
            for (i = 1; i <= ng; i++) emit(G[i])
            if (stale) print RF ":" T_LINE ": table regenerated from the data"
        }
    } else if (stale && nfail == f0)
        failat(T_LINE, "generated table out of date (make readme-tables): " \
               (diff <= T_BN ? "README has '" T_B[diff] "'" : "README lacks a line") ", the data give '" \
               (diff <= ng ? G[diff] : "(no line)") "'")
}

# ---------------------------------------------------------------- the README, line by line
function emit(s) { if (mode == "write") print s > (RF ".tables.tmp") }
function readme_end() {
    if (T_ON == 1) failat(T_LINE, "table template has no '-->'")
    if (T_ON == 2) failat(T_LINE, "table has no '<!-- end table -->'")
    if (U_OPEN != "") failat(U_LINE, "'begin unsupported: " U_OPEN "' has no 'end unsupported'")
    if (mode == "write") close(RF ".tables.tmp")
    keys_end(RF)
    T_ON = 0; U_OPEN = ""; FENCE = 0
}
FNR == 1 {
    if (nfiles) readme_end()
    RF = FILENAME; FILES[++nfiles] = RF
    R_NUMS[RF] += 0
    keys_load(RF)
}
{
    RL = FNR
    line = $0; RLINE = $0
    if (T_ON == 1) {                      # inside a table template
        emit(line)
        if (index(line, "-->")) {
            sub(/[ \t]*-->.*$/, "", line)
            if (trim(line) != "") T_L[++T_N] = line
            T_ON = 2; T_BN = 0
        } else T_L[++T_N] = line
        next
    }
    if (T_ON == 2) {                      # the generated lines, up to <!-- end table -->
        if (line ~ /^[ \t]*<!--[ \t]*end table[ \t]*-->/) { t_compare(); T_ON = 0; emit(line); next }
        T_B[++T_BN] = line
        next
    }
    emit(line)
    if (line ~ /^[ \t]*(```|~~~)/) { FENCE = !FENCE; next }
    if (FENCE) next
    if (line ~ /^[ \t]*<!--[ \t]*table:/) {
        if (index(line, "-->")) { fail("a table template needs its lines before '-->'"); next }
        t_begin(line); next
    }
    if (line ~ /^[ \t]*<!--[ \t]*end table/) { fail("'end table' without a table template"); next }
    rest = line; r2 = ""; NCODE = 0; CODE_BASE = 0; LPREFIX = ""
    while (match(rest, /`[^`]*`/)) {      # inline code: neither claims nor prose; kept for quote:
        CODE[++NCODE] = substr(rest, RSTART + 1, RLENGTH - 2)
        r2 = r2 substr(rest, 1, RSTART - 1) " \001 "; rest = substr(rest, RSTART + RLENGTH)
    }
    rest = r2 rest
    while ((i = index(rest, "<!--")) > 0) {
        seg = substr(rest, 1, i - 1); after = substr(rest, i + 4)
        j = index(after, "-->")
        if (!j) { fail("comment not closed on its line (only table templates span lines)"); rest = ""; break }
        LAFTER = substr(after, j + 3)
        do_comment(substr(after, 1, j - 1), seg)
        LPREFIX = LPREFIX seg
        CODE_BASE += gsub(/\001/, "", seg)
        rest = substr(after, j + 3)
    }
    count_prose(rest, U_OPEN != "" ? "unsupported" : "")
}
END {
    if (nfiles) readme_end()
    for (k = 1; k <= npend && all; k++)
        if (!PENDING_USED[PENDING_KEYS[k]]) {
            split(PENDING_KEYS[k], pk, SUBSEP)
            print pending ": warning: '" pk[1] " " pk[2] "' is listed but no README marks it: remove the line"
            nwarn++
        }
    for (k = 1; k <= nfiles; k++) {
        f = FILES[k]
        printf "claims: %s: %d numbers checked (%d claims, %d through keys, %d table cells), %d failed; %d numbers under %d unsupported markers; %d paper values; %d numbers not annotated (%d look measured)\n", \
            f, R_NUMS[f], R_CLAIMS[f], R_KEYED[f], R_CELLS[f], R_FAIL[f], R_UNSUP[f], R_MARK[f], R_PAPER[f], R_PROSE[f], R_MEAS[f]
    }
    exit nfail ? 1 : 0
}
