#!/bin/sh
# tests/claims/check.sh -- every measured number a README cites against the committed data,
# and the provenance of that data (make check-claims; part of make test through
# tests/cli/test_claims.sh).  POSIX sh, awk and git; no GPU, no build.
#
#   tests/claims/check.sh [--tables] [--list] [--no-provenance] [--root DIR] [--base DIR] [README...]
#
#   (default)        README.md, every */README.md and */NOTES.md and every README.md under
#                    */results-ref/ of the repository: each
#                    <!-- claim: ... --> recomputed, each generated table compared with the
#                    data (claims.awk); then the provenance of every */results-ref/**/*.dat.
#   --tables         rewrite the generated tables from the data first (make readme-tables)
#   --list           also list the numbers that look measured and carry no annotation
#   --no-provenance  skip the provenance check
#   --root DIR       the repository (default: the one holding this script)
#   --base DIR       resolve the data files of the READMEs given against DIR (tests)
#
# Provenance rules (one line per failing file; all failures are reported):
#   - a '# git:' line whose value is a bare revision as git writes it (7-40 hex digits),
#     not '-dirty', naming a commit of this repository's history (an ancestor of HEAD, and of
#     the commit that last added or changed the file);
#   - a '# gpu:' line (host-only data say so: '# gpu: none (...)');
#   - a file derived from others by a committed script ('# derived: by SCRIPT from ...: A.dat
#     B.dat') may have no '# git:' line of its own: then every file it names must pass.
# tests/claims/remeasure.txt lists files known to fail, each with its reason: they are
# printed as warnings until re-measured (an entry that passes again is a warning too).
# tests/claims/pending.txt lists the <!-- unsupported: ID --> markers that are warnings.
# Exit 0 when nothing failed, 1 otherwise, 2 on bad usage.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mode=check; prov=1; base=""; list=0
while [ $# -gt 0 ]; do
  case $1 in
    --tables) mode=write;;
    --list) list=1;;
    --no-provenance) prov=0;;
    --root) [ $# -ge 2 ] || { echo "error: --root needs a directory" >&2; exit 2; }; root=$(cd "$2" && pwd) || exit 2; shift;;
    --base) [ $# -ge 2 ] || { echo "error: --base needs a directory" >&2; exit 2; }; base=$(cd "$2" && pwd) || exit 2; shift;;
    --help|-h) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    -*) echo "error: unknown option '$1' (see 'tests/claims/check.sh --help')" >&2; exit 2;;
    *) break;;
  esac
  shift
done
awk_prog=$here/claims.awk
cd "$root" || exit 2
all=0
if [ $# -eq 0 ]; then
  set -- $( { ls README.md; ls */README.md */NOTES.md; find . -path './*/results-ref/*' -name README.md | sed 's|^\./||'; } 2>/dev/null | sort -u)
  all=1
fi
for r in "$@"; do [ -f "$r" ] || { echo "error: $r: no such README" >&2; exit 2; }; done
pending=$root/tests/claims/pending.txt
remeasure=$root/tests/claims/remeasure.txt
status=0

# ---- generated tables first (make readme-tables), then the check
if [ $mode = write ]; then
  awk -f "$awk_prog" -v mode=write -v pending=/dev/null -v base="$base" "$@" | grep -v '^claims: ' | grep -v ': warning: '
  for r in "$@"; do
    if [ -f "$r.tables.tmp" ] && ! cmp -s "$r" "$r.tables.tmp"; then
      cat "$r.tables.tmp" >"$r" && echo "readme-tables: $r rewritten"
    fi
    rm -f "$r.tables.tmp"
  done
fi
[ -f "$pending" ] || pending=/dev/null
amode=check; [ $list -eq 1 ] && amode=list
awk -f "$awk_prog" -v mode=$amode -v pending="$pending" -v base="$base" -v all=$all "$@" || status=1

# ---- provenance of the reference data
if [ $prov -eq 1 ]; then
  if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "provenance: warning: $root is not a git repository; revisions not checked"
  else
    shallow=$(git rev-parse --is-shallow-repository 2>/dev/null)
    find . -path ./.git -prune -o -path '*/results-ref/*' -name '*.dat' -type f -print | sed 's|^\./||' | sort >"${TMPDIR:-/tmp}/claims.$$.files"
    # one line per file: path <TAB> git value <TAB> has gpu <TAB> derived inputs
    while IFS= read -r f; do
      awk -v f="$f" '
        /^# git:/ && g == "" { v = $0; sub(/^# git:[ \t]*/, "", v); sub(/[ \t\r]+$/, "", v); g = v; if (g == "") g = "(empty)" }
        /^# gpu:/ { gpu = 1 }
        /^# derived:/ { v = $0; sub(/^.*:[ \t]*/, "", v); der = v }
        !/^#/ && NF > 0 { exit }
        END { printf "%s\t%s\t%d\t%s\n", f, g, gpu, der }' "$f"
    done <"${TMPDIR:-/tmp}/claims.$$.files" >"${TMPDIR:-/tmp}/claims.$$.meta"
    rm -f "${TMPDIR:-/tmp}/claims.$$.files"
    # the revisions that are ancestors of HEAD
    cut -f2 "${TMPDIR:-/tmp}/claims.$$.meta" | grep -E '^[0-9a-f]{7,40}$' | sort -u | while read -r h; do
      if git cat-file -e "$h^{commit}" 2>/dev/null && git merge-base --is-ancestor "$h" HEAD 2>/dev/null; then
        echo "$h ok"
      else
        echo "$h missing"
      fi
    done >"${TMPDIR:-/tmp}/claims.$$.revs"
    # the commit that last added or changed each committed data file: its '# git:' must be an
    # ancestor of that commit (data measured on a revision later than the one that committed
    # it cannot be; files not committed yet are checked against HEAD only)
    git log --diff-filter=AM --name-only --format='C %H' -- '*/results-ref/*' 2>/dev/null |
      awk '/^C / { c = $2; next } NF && !($0 in seen) { seen[$0] = 1; print $0 "\t" c }' >"${TMPDIR:-/tmp}/claims.$$.added"
    awk -F '\t' 'FILENAME ~ /added$/ { A[$1] = $2; next } ($1 in A) && $2 ~ /^[0-9a-f]+$/ { print $2, A[$1] }' \
      "${TMPDIR:-/tmp}/claims.$$.added" "${TMPDIR:-/tmp}/claims.$$.meta" | sort -u | while read -r g c; do
      if git merge-base --is-ancestor "$g" "$c" 2>/dev/null; then echo "$g $c ok"; else echo "$g $c late"; fi
    done >"${TMPDIR:-/tmp}/claims.$$.pairs"
    [ -f "$remeasure" ] || remeasure=/dev/null
    awk -F '\t' -v shallow="$shallow" -v listfile="$remeasure" '
      FILENAME == listfile { sub(/#.*/, ""); if (NF == 0 || $0 ~ /^[ \t]*$/) next
                             split($0, w, " "); why = $0; sub(/^[ \t]*[^ \t]+[ \t]*/, "", why)
                             LIST[w[1]] = why; order[++nl] = w[1]; next }
      FILENAME ~ /revs$/ { split($0, w, " "); REV[w[1]] = w[2]; next }
      FILENAME ~ /added$/ { ADDED[$1] = $2; next }
      FILENAME ~ /pairs$/ { split($0, w, " "); PAIR[w[1], w[2]] = w[3]; next }
      { path[++n] = $1; gitv[$1] = $2; gpu[$1] = $3; der[$1] = $4 }
      function own(f,   g) {
        g = gitv[f]
        if (!gpu[f]) return "no \"# gpu:\" line (host-only data say \"# gpu: none (...)\")"
        if (g == "" && der[f] != "") return ""
        if (g == "") return "no \"# git:\" line"
        if (g ~ /^[0-9a-f]+-dirty$/) return "measured from a tree with uncommitted changes (# git: " g ")"
        if (g !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+$/ || length(g) > 40)
          return "\"# git: " g "\" is not a revision as git writes it (edited by hand or set at build time)"
        if (REV[g] != "ok") return "revision " g " is not in the history of HEAD" (shallow == "true" ? " (shallow clone)" : "")
        if ((f in ADDED) && PAIR[g, ADDED[f]] != "ok")
          return "revision " g " is not an ancestor of " substr(ADDED[f], 1, 12) ", the commit that added the file" (shallow == "true" ? " (shallow clone)" : "")
        return ""
      }
      function check(f,   why, n, ins, i, d, top, here) {
        why = own(f)
        if (why != "" || der[f] == "" || gitv[f] != "") return why
        top = f; sub(/\/results-ref\/.*$/, "", top); here = f; sub(/\/[^\/]*$/, "", here)
        n = split(der[f], ins, " ")
        for (i = 1; i <= n; i++) {
          if (ins[i] !~ /\.dat$/) continue
          d = top "/" ins[i]; if (!(d in gitv)) d = here "/" ins[i]
          if (!(d in gitv)) return "derived from " ins[i] ", which is not in results-ref/"
          if (own(d) != "") return "derived from " d ": " own(d)
        }
        return ""
      }
      END {
        for (i = 1; i <= n; i++) {
          f = path[i]; why = check(f)
          if (why == "" && (f in LIST)) { print "provenance: warning: " f " passes now: remove it from tests/claims/remeasure.txt"; continue }
          if (why == "") { good++; continue }
          if (f in LIST) { print "provenance: warning: " f ": " why " [remeasure.txt: " LIST[f] "]"; listed++; continue }
          if (shallow == "true" && why ~ /shallow clone/) { print "provenance: warning: " f ": " why; continue }
          print "provenance: " f ": " why; bad++
        }
        for (i = 1; i <= nl; i++) if (!(order[i] in gitv)) print "provenance: warning: " order[i] " (remeasure.txt) is not a results-ref data file"
        printf "provenance: %d data files, %d pass, %d failed, %d listed for re-measurement\n", n, good, bad, listed
        exit bad ? 1 : 0
      }' "$remeasure" "${TMPDIR:-/tmp}/claims.$$.revs" "${TMPDIR:-/tmp}/claims.$$.added" "${TMPDIR:-/tmp}/claims.$$.pairs" "${TMPDIR:-/tmp}/claims.$$.meta" || status=1
    rm -f "${TMPDIR:-/tmp}/claims.$$.meta" "${TMPDIR:-/tmp}/claims.$$.revs" "${TMPDIR:-/tmp}/claims.$$.added" "${TMPDIR:-/tmp}/claims.$$.pairs"
  fi
fi
exit $status
