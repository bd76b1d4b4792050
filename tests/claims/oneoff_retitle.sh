#!/bin/sh
# tests/claims/oneoff_retitle.sh -- a one-off, run once and kept as the record of what it did:
# title comment lines of results-ref data files that named a work item of the project's tracker
# ("issue <N>: ...", "(issue goal; ...)") are rewritten without it.  Only those title lines
# change: '# cmdline:' and '# git:' lines (the record of the run), every other metadata line
# and every data row stay byte for byte as measured.  Running it again changes nothing.
set -eu
cd "$(dirname "$0")/../.."
find . -path ./.git -prune -o -path '*/results-ref/*' -name '*.dat' -type f -print | sort | while IFS= read -r f; do
  awk '
    !/^#/ && NF > 0 { body = 1 }
    !body && /^# / && !/^# (cmdline|git):/ && /[Ii]ssue/ {
      line = $0
      sub(/: [Ii]ssue [0-9]+: /, ": ", line)          # "# figure: issue <N>: Table 4.1 ..."
      sub(/ \([Ii]ssue [0-9]+\)/, "", line)           # "... (issue <N>)"
      sub(/\([Ii]ssue goal; /, "(beyond the paper; ", line)
      if (line != $0) { print FILENAME ": " $0 " -> " line > "/dev/stderr"; $0 = line }
    }
    { print }' "$f" >"$f.retitle" && if cmp -s "$f" "$f.retitle"; then rm -f "$f.retitle"; else cat "$f.retitle" >"$f"; rm -f "$f.retitle"; fi
done
