#!/usr/bin/env bash
# The READMEs' example commands work as written (no GPU needed): every command of this
# repository's programs that a README shows -- a `code span` that starts with a program
# (DIR/PROG, common/mpirun.sh, or ./PROG of DIR/README.md, run in DIR) and gives it an option,
# and every fenced block with such a command, run as one script in its order (setup lines
# included; `make` lines left out: the build is make all's, the runs are tested elsewhere) --
# with no placeholder (..., |, [, <, NAME, MESH, FILE, PROGRAM, -np P) runs from the repository
# root with no visible device (CUDA_VISIBLE_DEVICES=-1) and exits 0, or 77 (SKIP: it needs a
# GPU), never 1 or 2 (a wrong option, a missing example file, a refused output).  Files the
# commands write under /tmp/ and bare file names (nb.txt, surpluses.npy) go to a scratch
# directory per command or block; --out=DIR/results goes to the scratch directory too.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/../.."
top=$PWD
t=$cli_tmp
units=$t/units; mkdir -p $units
# one file per unit: first line "DIR KIND", then the script
for md in README.md */README.md; do
  awk -v md="$md" -v dir="$(dirname "$md")" -v out="$units" '
    function prog(l) { return l ~ /^(common|hashmesh|simplex2d|simplex3d|fractals|tensorcore|sparsegrid)\/[a-z0-9_.-]+( |$)/ || l ~ /^\.\/[a-z0-9_-]+( |$)/ }
    function placeholder(l) { return l ~ /\.\.\.|\||\[|<|NAME|MESH|FILE|PROGRAM|-np P/ }
    function emit(kind, body) { n++; f = sprintf("%s/%s_%03d", out, dir == "." ? "top" : dir, n); print dir, kind > f; printf "%s", body > f; close(f) }
    /^```/ { if (f_in && hit && body != "") emit("block", body); f_in = !f_in; body = ""; hit = 0; cont = ""; next }
    f_in {
      line = cont $0; cont = ""
      if (line ~ /\\$/) { cont = substr(line, 1, length(line) - 1); next }   # a continued line
      sub(/^ +/, "", line)
      if (line ~ /^make / || line == "" || placeholder(line)) next
      if (prog(line)) hit = 1
      body = body line "\n"; next
    }
    { s = $0
      while (match(s, /`[^`]+`/)) {
        c = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
        gsub(/\\\|/, "|", c)
        if (prog(c) && c ~ / -/ && !placeholder(c)) emit("span", c "\n")
      } }' "$md"
done
n=$(ls $units | wc -l)
[ "$n" -ge 15 ] || cli_fail "only $n README commands found (the extraction is broken?)"
seen=$t/seen; : > $seen
for u in $units/*; do
  read -r d kind < "$u"
  body=$(tail -n +2 "$u")
  key=$(printf '%s|%s' "$d" "$body" | cksum)  # one line per unit, however many lines its script has
  grep -qxF "$key" $seen && continue; printf '%s\n' "$key" >> $seen
  w=$t/w_$(basename $u); mkdir -p $w/results
  # outputs: /tmp/X and bare names after --out= / --in= -> scratch; DIR/results -> scratch
  run=$(printf '%s\n' "$body" | sed -E "s#/tmp/#$w/#g; s#--out=[a-z0-9]+/results#--out=$w/results#g; s#--(out|in)=([A-Za-z0-9_.-]+)( |$)#--\1=$w/\2\3#g")
  here=$top; case $body in ./*) here=$top/$d ;; esac
  case $body in *common/mpirun.sh*)  # no MPI launcher here: these commands cannot run (not a README fault)
    l=${MPIRUN:-mpirun}; command -v "${l%% *}" >/dev/null 2>&1 || { echo "skipped (no ${l%% *}): [$d] $(printf '%s' "$body" | head -1)"; continue; } ;; esac
  for p in $(printf '%s\n' "$body" | grep -oE '^(common|hashmesh|simplex2d|simplex3d|fractals|tensorcore|sparsegrid)/[a-z0-9_.-]+|^\./[a-z0-9_-]+' | sort -u); do
    case $p in ./*) p=$d/${p#./} ;; esac
    [ -x "$p" ] || cli_fail "$d/README.md: $p not built (make all) for: $(printf '%s' "$body" | head -1)"
  done
  out=$(cd "$here" && CUDA_VISIBLE_DEVICES=-1 timeout 120 bash -e -c "$run" 2>&1 < /dev/null); rc=$?
  case $rc in
    0|77) echo "ok ($rc, $kind): [$d] $(printf '%s' "$body" | head -1)" ;;
    *) cli_fail "$d/README.md: $kind exits $rc: $(printf '%s' "$body" | head -3 | tr '\n' ';') -> $(printf '%s' "$out" | tail -2 | tr '\n' ' ')" ;;
  esac
done
cli_done
