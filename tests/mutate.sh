#!/usr/bin/env bash
# tests/mutate.sh -- mutation testing of the host test suite: plant one realistic bug at a
# time in a private copy of the repository, run the tests that could see it, record whether
# one of them fails ("killed") or none does ("survived").  The shared working tree is never
# touched: everything happens in a fresh directory under ${TMPDIR:-/tmp}.
#
# Usage: tests/mutate.sh [options] [ID ...]        (default: every mutant of the table)
#   --table=FILE     the mutant list (default tests/mutants.tsv)
#   --results=FILE   where the per-mutant results go (default tests/logs/mutation.tsv)
#   --head           copy `git archive HEAD` instead of the working tree (tracked and
#                    untracked, not ignored, files as they are now)
#   --no-asan        skip the AddressSanitizer/UBSan builds (faster, weaker)
#   --equivalent     also run the mutants marked "equivalent: ..." (each should survive)
#   --cli            when the host tests (plain and asan) miss a mutant, also build the
#                    mutated file's directory with make (nvcc) and run its CLI tests
#                    (a common/ file: the directory DIR of each cli:test_DIR_*.sh it names)
#   --skip=GLOB      leave out the host tests whose names match GLOB (e.g. '*_edges': what
#                    would the suite catch without them?)
#   --keep           keep the temporary copy and the logs of every run
#   --list           print the table's mutants and exit
#   --dry            apply and compile each mutant (one dependent test), run nothing: checks
#                    the table after an edit of the sources
# Environment: MUT_TIMEOUT (seconds per test run, default 300; a timeout counts as killed,
# an endless loop is a bug too), MUT_MIN (score needed for exit 0, default 0.90).
#
# The table (tab-separated, '#' lines are comments), one mutant per line:
#   id  file  line  original  replacement  caught_by
# file: path from the repository root.  line: the line number, or (better, it survives edits
# above it) a literal piece of text that occurs on exactly one line of the file.  original:
# literal text on that line; its first occurrence there becomes replacement.  caught_by: the
# test(s) expected to fail, comma-separated: test_x (tests/host/test_x.c, plain build),
# asan:test_x (the same under -fsanitize=address,undefined), cli:test_y.sh (tests/cli, needs
# --cli), gpu:test_z (tests/gpu/test_z.cu, built with nvcc by tests/Makefile; the mutants of a
# kernel: without a GPU the test exits 77 and the mutant is reported NO-GPU, not scored); or
# "equivalent: <why the program's behaviour cannot change>" (not run, not scored).
# A mutant whose line or original text is no longer found is reported STALE (fix the table).
#
# For each mutant: the expected tests run first, then every other host test that includes
# the mutated file (directly or not), plain, then under asan; the first failure (exit status
# other than 0 and 77, a timeout included) kills the mutant -- once that test has been seen to
# pass on the unmutated copy (a test that fails anyway is left out, with a note).  A mutant
# that does not compile is reported BUILD-ERROR (fix the table: a realistic bug compiles).
# Output: one line per mutant, a summary, the score = killed / (killed + survived), and
# tests/logs/mutation.tsv (id, status, killing test, seconds).  Exit 0 iff score >= MUT_MIN
# and nothing is stale or fails to build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
table=$here/mutants.tsv
results=$here/logs/mutation.tsv
use_head=0 asan=1 equiv=0 cli=0 keep=0 list=0 dry=0 skip=
ids=()
for a in "$@"; do
  case $a in
    --table=*) table=${a#--table=} ;;
    --results=*) results=${a#--results=} ;;
    --head) use_head=1 ;;
    --no-asan) asan=0 ;;
    --equivalent) equiv=1 ;;
    --cli) cli=1 ;;
    --skip=*) skip=${a#--skip=} ;;
    --keep) keep=1 ;;
    --list) list=1 ;;
    --dry) dry=1 ;;
    --help|-h) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "mutate.sh: unknown option $a (see --help)" >&2; exit 2 ;;
    *) ids+=("$a") ;;
  esac
done
[ -f "$table" ] || { echo "mutate.sh: no table $table" >&2; exit 2; }
timeout_s=${MUT_TIMEOUT:-300}
min_score=${MUT_MIN:-0.90}

if [ $list -eq 1 ]; then
  awk -F'\t' '!/^#/ && NF >= 6 { printf "%-6s %-28s %s -> %s   [%s]\n", $1, $2, $4, $5, $6 }' "$table"
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mut-XXXXXX")
tree=$work/tree
mkdir -p "$tree" "$work/bin" "$work/logs"
cp "$table" "$work/table" # a snapshot, read on fd 3; no child gets a real stdin
exec </dev/null
child=
cleanup() {
  if [ -n "$child" ]; then pkill -P "$child" 2>/dev/null; kill "$child" 2>/dev/null; fi
  [ $keep -eq 1 ] && echo "kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# ---- the private copy: every tracked and untracked file but the rendered plots (plots/out/).  The
# committed reference data (*/results-ref/, about 10 MB) come along: test_claims.sh checks every
# README against them, the awk tools' tests read results-ref/peers/ and sparsegrid's; plots/ holds
# render.sh and report.sh, whose mutants need them in the copy
if [ $use_head -eq 1 ]; then
  excl=(--exclude='plots/out/*')
  git -C "$top" archive HEAD | tar -x -C "$tree" "${excl[@]}"
else
  (cd "$top" && git ls-files -z -co --exclude-standard | grep -zvP '^plots/out/' |
    tar --null -T - -cf -) | tar -x -C "$tree"
fi
cflags=$(make -s -C "$tree/tests" host-flags)
aflags=$(make -s -C "$tree/tests" asan-flags)
if [ $asan -eq 1 ] && ! printf 'int main(void){return 0;}' | ${CC:-cc} $aflags -x c - -o "$work/probe" 2>/dev/null; then
  echo "mutate.sh: the compiler lacks -fsanitize=address,undefined: asan runs skipped" >&2
  asan=0
fi
export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
[ $asan -eq 1 ] && ! "$work/probe" 2>/dev/null && export ASAN_OPTIONS=halt_on_error=1:detect_leaks=0

# a GPU here? (gpu: runs are built and run only then; --dry compiles them anyway)
have_gpu=0
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 && have_gpu=1

# ---- which host tests include which file (cc -MM, on the unmutated copy)
declare -A deps
tests_all=()
for src in "$tree"/tests/host/test_*.c; do
  t=$(basename "$src" .c)
  [ -n "$skip" ] && [[ $t == $skip ]] && continue
  tests_all+=("$t")
  for h in $(cd "$tree/tests" && ${CC:-cc} $cflags -MM -MG "host/$t.c" | tr -d '\\' | cut -d: -f2-); do
    r=$(cd "$tree/tests" && realpath -m "$h")
    deps[$t]+=" ${r#$tree/} "
  done
done

# build NAME KIND: tests/host/NAME.c into $work/bin/KIND/NAME (KIND gpu: tests/gpu/NAME.cu into
# the copy's tests/bin/NAME, by its Makefile); 0 or 1 (compile error)
build() {
  local t=$1 kind=$2 flags=$cflags
  if [ "$kind" = gpu ]; then
    mkdir -p "$work/bin/gpu"
    rm -f "$tree/tests/bin/$t"
    make -s -C "$tree/tests" "bin/$t" >"$work/logs/build.log" 2>&1 && cp "$tree/tests/bin/$t" "$work/bin/gpu/$t"
    return
  fi
  [ "$kind" = asan ] && flags="$cflags $aflags"
  mkdir -p "$work/bin/$kind"
  (cd "$tree/tests" && ${CC:-cc} $flags -o "$work/bin/$kind/$t" "host/$t.c" -lm) >"$work/logs/build.log" 2>&1
}
# in_copy LOG CMD...: CMD in the copy's root under the timeout, output to LOG; its exit status
# (124: timeout; a crash is reported by the inner sh into LOG, not here)
in_copy() {
  local log=$1 rc
  shift
  sh -c 'cd "$1" && shift && timeout "$@"; exit $?' _ "$tree" "$timeout_s" "$@" >"$log" 2>&1 &
  child=$!
  wait $child
  rc=$?
  child=
  return $rc
}
# run NAME KIND LOG: exit status of the test, run from the copy's root as run.sh does
run_test() { in_copy "$3" "$work/bin/$2/$1"; }
# run_cli SCRIPT DIR: builds DIR's programs in the copy (make, nvcc), runs tests/cli/SCRIPT
run_cli() {
  # a mutant of common/ seen through a directory's CLI test (test_DIR_*.sh): build DIR (common's
  # own, test_common_*.sh: build common, its bandwidth program)
  local d=$2 s=${1#test_}
  [ -z "$d" ] && [ -f "$tree/${s%%_*}/Makefile" ] && d=${s%%_*}
  set -- "$1" "$d" "$3"
  [ -n "$2" ] && [ -f "$tree/$2/Makefile" ] && { make -s -C "$tree/$2" >"$work/logs/build.log" 2>&1 || return 200; }
  in_copy "$3" "tests/cli/$1"
}
# pristine_ok RUN FILE: does RUN (test, asan:test or cli:script) pass with FILE unmutated?
# Checked once per run and remembered; the mutated FILE is put back afterwards.
declare -A pristine
pristine_ok() {
  local r=$1 file=$2 rc
  if [ -z "${pristine[$r]:-}" ]; then
    cp "$tree/$file" "$work/mutated"
    cp "$work/orig" "$tree/$file"
    case $r in
      asan:*) build "${r#asan:}" asan && run_test "${r#asan:}" asan "$work/logs/pristine.log" ;;
      gpu:*)  build "${r#gpu:}" gpu && run_test "${r#gpu:}" gpu "$work/logs/pristine.log" ;;
      cli:*)  d=${file%%/*}; [ "$d" = common ] && d=; run_cli "${r#cli:}" "$d" "$work/logs/pristine.log" ;;
      *)      build "$r" plain && run_test "$r" plain "$work/logs/pristine.log" ;;
    esac
    rc=$?
    { [ $rc -eq 0 ] || [ $rc -eq 77 ]; } && pristine[$r]=ok || pristine[$r]=broken
    [ "${pristine[$r]}" = broken ] && echo "note: $r fails without any mutant (exit $rc): not used" >&2
    cp "$work/mutated" "$tree/$file"
  fi
  [ "${pristine[$r]}" = ok ]
}

# apply FILE LINE ORIG REPL: the mutation, in place in the copy; 0, or 3 (line not found or
# not unique) or 4 (original text not on that line)
apply() {
  MUT_LINE=$2 MUT_ORIG=$3 MUT_REPL=$4 perl -e '
    my ($f, $line, $o, $r) = ($ARGV[0], $ENV{MUT_LINE}, $ENV{MUT_ORIG}, $ENV{MUT_REPL});
    open(my $h, "<", $f) or exit 3; my @l = <$h>; close $h;
    my @hit = $line =~ /^\d+$/ ? ($line - 1) : grep { index($l[$_], $line) >= 0 } 0 .. $#l;
    exit 3 if @hit != 1 || $hit[0] > $#l;
    my $p = index($l[$hit[0]], $o); exit 4 if $p < 0;
    substr($l[$hit[0]], $p, length $o) = $r;
    open($h, ">", $f) or exit 3; print $h @l; close $h; exit 0;' "$tree/$1"
}

mkdir -p "$(dirname "$results")"
printf 'id\tstatus\tcaught_by\tseconds\n' >"$results"
killed=0 survived=0 equivalent=0 stale=0 broken=0 nogpu=0
survivors=() unexpected=()
while IFS=$'\t' read -r -u 3 id file line orig repl expect _; do
  case $id in ''|'#'*|id) continue ;; esac
  if [ ${#ids[@]} -gt 0 ]; then
    sel=0; for i in "${ids[@]}"; do [ "$i" = "$id" ] && sel=1; done
    [ $sel -eq 1 ] || continue
  fi
  is_equiv=0; case $expect in equivalent*) is_equiv=1 ;; esac
  if [ $is_equiv -eq 1 ] && [ $equiv -eq 0 ]; then
    equivalent=$((equivalent + 1))
    printf '%-6s EQUIVALENT  %s\n' "$id" "${expect#equivalent: }"
    printf '%s\tequivalent\t-\t0\n' "$id" >>"$results"
    continue
  fi
  start=$(date +%s)
  cp "$tree/$file" "$work/orig"
  apply "$file" "$line" "$orig" "$repl"; rc=$?
  if [ $rc -ne 0 ]; then
    stale=$((stale + 1))
    printf '%-6s STALE       %s: %s\n' "$id" "$file" "$([ $rc -eq 3 ] && echo "line '$line' not found once" || echo "'$orig' not on that line")"
    printf '%s\tstale\t-\t0\n' "$id" >>"$results"
    continue
  fi
  # the runs: expected first, then every host test depending on the file, plain, then asan
  runs=()
  IFS=',' read -r -a exp <<<"$expect"
  [ $is_equiv -eq 1 ] && exp=()
  for e in "${exp[@]}"; do e=${e// /}; [ -n "$e" ] && runs+=("$e"); done
  for t in "${tests_all[@]}"; do [[ ${deps[$t]} == *" $file "* ]] && runs+=("$t"); done
  if [ $asan -eq 1 ]; then
    for t in "${tests_all[@]}"; do [[ ${deps[$t]} == *" $file "* ]] && runs+=("asan:$t"); done
  fi
  if [ $cli -eq 1 ]; then
    d=${file%%/*}
    for s in "$tree"/tests/cli/test_"$d"_*.sh; do [ -f "$s" ] && runs+=("cli:$(basename "$s")"); done
  fi
  status=survived by=- done_runs=" "
  if [ $dry -eq 1 ]; then # compile the first plain (or GPU) test of the list only
    status=applied
    for r in "${runs[@]}"; do
      case $r in asan:*|cli:*) continue ;; gpu:*)
        build "${r#gpu:}" gpu || { pristine_ok "$r" "$file" && { status=build-error; by=$r; }; }
        break ;;
      esac
      [ -f "$tree/tests/host/$r.c" ] || continue
      if ! build "$r" plain; then pristine_ok "$r" "$file" && { status=build-error; by=$r; } || continue; fi
      break
    done
    runs=()
  fi
  for r in "${runs[@]}"; do
    [[ $done_runs == *" $r "* ]] && continue
    done_runs+="$r "
    case $r in
      cli:*) ;;
      gpu:*) [ -f "$tree/tests/gpu/${r#gpu:}.cu" ] || { echo "note: $id: no test ${r#gpu:}" >&2; continue; } ;;
      *) [ -f "$tree/tests/host/${r#asan:}.c" ] || { echo "note: $id: no test ${r#asan:}" >&2; continue; } ;;
    esac
    [ -n "$skip" ] && [[ ${r#asan:} == $skip ]] && continue
    log="$work/logs/$id-${r//[:\/]/-}.log"
    case $r in
      asan:*) [ $asan -eq 1 ] || continue
              if ! build "${r#asan:}" asan; then pristine_ok "$r" "$file" || continue; status=build-error; by=$r; break; fi
              run_test "${r#asan:}" asan "$log"; trc=$? ;;
      cli:*)  [ $cli -eq 1 ] || continue
              d=${file%%/*}; [ "$d" = common ] && d=
              run_cli "${r#cli:}" "$d" "$log"; trc=$?
              [ $trc -eq 200 ] && { status=build-error; by=$r; break; } ;;
      gpu:*)  if [ $have_gpu -eq 0 ]; then [ $status = survived ] && status=no-gpu; continue; fi
              if ! build "${r#gpu:}" gpu; then pristine_ok "$r" "$file" || continue; status=build-error; by=$r; break; fi
              run_test "${r#gpu:}" gpu "$log"; trc=$?
              [ $trc -eq 77 ] && [ $status = survived ] && status=no-gpu ;;
      *)      if ! build "$r" plain; then pristine_ok "$r" "$file" || continue; status=build-error; by=$r; break; fi
              run_test "$r" plain "$log"; trc=$? ;;
    esac
    if [ $trc -ne 0 ] && [ $trc -ne 77 ] && pristine_ok "$r" "$file"; then
      status=killed by=$r
      [ $trc -eq 124 ] && by="$r(timeout)"
      break
    fi
  done
  cp "$work/orig" "$tree/$file"
  secs=$(( $(date +%s) - start ))
  case $status in
    killed) killed=$((killed + 1))
            [ $is_equiv -eq 1 ] && unexpected+=("$id: marked equivalent, killed by $by")
            [ $is_equiv -eq 0 ] && [ -n "${exp[0]:-}" ] && [ "${by%(timeout)}" != "${exp[0]// /}" ] &&
              unexpected+=("$id: killed by $by, not by the expected ${exp[0]}") ;;
    survived) if [ $is_equiv -eq 1 ]; then equivalent=$((equivalent + 1)); status=equivalent-confirmed
              else survived=$((survived + 1)); survivors+=("$id"); fi ;;
    applied) ;;
    no-gpu) nogpu=$((nogpu + 1)) ;;
    build-error) broken=$((broken + 1)); sed -n '1,5p' "$work/logs/build.log" | sed 's/^/         /' ;;
  esac
  case $status in equivalent-confirmed) shown=EQUIV-OK ;; *) shown=$(echo "$status" | tr a-z A-Z) ;; esac
  printf '%-6s %-11s %-34s %4ss  %s: %s -> %s\n' "$id" "$shown" "$by" "$secs" \
    "$file" "$orig" "$repl"
  printf '%s\t%s\t%s\t%s\n' "$id" "$status" "$by" "$secs" >>"$results"
done 3<"$work/table"

scored=$((killed + survived))
echo "----"
echo "$killed killed, $survived survived, $equivalent equivalent (not scored), $stale stale, $broken not compiling$([ $nogpu -gt 0 ] && echo ", $nogpu not run (no GPU here)")"
[ ${#survivors[@]} -gt 0 ] && echo "survivors: ${survivors[*]}"
for u in "${unexpected[@]}"; do echo "note: $u"; done
if [ $scored -gt 0 ]; then
  score=$(awk -v k=$killed -v s=$scored 'BEGIN { printf "%.1f", 100 * k / s }')
  echo "mutation score: $killed of $scored = $score % (results: $results)"
  awk -v k=$killed -v s=$scored -v m="$min_score" 'BEGIN { exit !(k / s >= m) }' && [ $stale -eq 0 ] && [ $broken -eq 0 ]
else
  [ $stale -eq 0 ] && [ $broken -eq 0 ]
fi
